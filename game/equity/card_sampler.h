#pragma once
// Random numbers and card draws for Monte Carlo equity.
//
// Rng: xoshiro256** (Blackman and Vigna 2018), seeded through SplitMix64 as its authors
// advise. CardSampler draws a card uniformly from those not yet in a 64-bit mask of dealt
// cards, with no shuffled deck and no branch: an index i below the number of cards left
// (Lemire's multiply-shift on 32 random bits, two per generator call), then the i-th card
// left, found by depositing bit i into the free-card mask (BMI2 pdep) and counting trailing
// zeros. A rejection draw (redraw while the card is dealt) would mispredict about once a
// deal with four to nine cards out, and each mispredict also throws away the overlapped
// rank lookups of the next deals. Without a fast pdep (no BMI2, or AMD Zen 1/2, where it is
// microcoded) the rejection draw is used. Uniform up to the multiply-shift's bias (below
// 52 / 2^32).
#include <array>
#include <bit>
#include <cstdint>

#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
#include <immintrin.h>
#define HULHE_FAST_PDEP 1
#endif

#include "game/card.h"
#include "util/split_mix64.h"

namespace hulhe::equity {

class Rng {
 public:
  Rng(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ULL);
    for (auto& w : s_) w = split_mix64(x);
  }
  std::uint64_t next() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n) by Lemire's multiply-shift (bias below n / 2^32, negligible here).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::array<std::uint64_t, 4> s_{};
};

class CardSampler {
 public:
  explicit CardSampler(Rng& rng) : rng_(rng) {}

  // A card uniformly from those not in `used` (which must leave at least one of the 52),
  // added to `used`.
  Card draw(std::uint64_t& used) { return draw(used, kMaxCards - std::popcount(used)); }

  // The same when the caller knows that `left` cards are not in `used`: the index then
  // does not wait for `used`, and the chain from one draw to the next is andn, pdep, or.
  Card draw(std::uint64_t& used, int left) {
#ifdef HULHE_FAST_PDEP
    const auto i =
        static_cast<unsigned>((std::uint64_t{next32()} * static_cast<unsigned>(left)) >> 32);
    const std::uint64_t bit = _pdep_u64(std::uint64_t{1} << i, ~used & kDeck);
    used |= bit;
    return static_cast<Card>(std::countr_zero(bit));
#else
    (void)left;
    for (;;) {
      const auto c = static_cast<unsigned>((std::uint64_t{next32()} * kMaxCards) >> 32);
      if (((used >> c) & 1U) == 0) [[likely]] {
        used |= std::uint64_t{1} << c;
        return static_cast<Card>(c);
      }
    }
#endif
  }

 private:
  static constexpr std::uint64_t kDeck = (std::uint64_t{1} << kMaxCards) - 1;
  std::uint32_t next32() {
    if (!have_low_) bits_ = rng_.next();
    const auto half = static_cast<std::uint32_t>(have_low_ ? bits_ : bits_ >> 32);
    have_low_ = !have_low_;
    return half;
  }
  Rng& rng_;
  std::uint64_t bits_ = 0;
  bool have_low_ = false;  // the low half of bits_ is still unused
};

}  // namespace hulhe::equity
