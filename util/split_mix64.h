#pragma once
// SplitMix64 (Steele, Lea & Flood 2014), the one generator every random choice in hulhe
// flows from: tiny state, passes BigCrush, and any 64-bit value is a valid state, so a
// (seed, iteration) pair can be mixed straight into one.
#include <cstdint>

namespace hulhe {

// One step of the generator on a bare state (for seeding other generators).
inline std::uint64_t split_mix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class SplitMix64 {
 public:
  using result_type = std::uint64_t;
  explicit SplitMix64(std::uint64_t state) : state_(state) {}
  // The stream of iteration `iteration` of a run seeded with `seed`. Two rounds of the
  // finaliser decorrelate neighbouring (seed, iteration) pairs.
  static SplitMix64 for_iteration(std::uint64_t seed, std::int64_t iteration) {
    SplitMix64 mix(seed);
    SplitMix64 mix2(mix() ^ static_cast<std::uint64_t>(iteration));
    return SplitMix64(mix2());
  }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() { return split_mix64(state_); }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n) from the high 32 bits (Lemire 2019, multiply-shift; the bias is below
  // 2^-32 for n < 2^32 and irrelevant for deck sizes).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((*this)() >> 32) * n >> 32);
  }
  // Uniform in [0, n) for 64-bit n (row indices): the 128-bit multiply-shift. Portable across
  // standard libraries, which std::uniform_int_distribution is not.
  std::uint64_t below_wide(std::uint64_t n) {
    __extension__ typedef unsigned __int128 U128;
    return static_cast<std::uint64_t>((static_cast<U128>((*this)()) * n) >> 64);
  }

 private:
  std::uint64_t state_;
};

// An action slot drawn from the distribution p[0..num_actions-1].
inline int sample_slot(const double* p, int num_actions, SplitMix64& rng) {
  double u = rng.uniform();
  for (int a = 0; a < num_actions - 1; ++a) {
    if (u < p[a]) return a;
    u -= p[a];
  }
  return num_actions - 1;  // also absorbs rounding when the p[a] sum to slightly below 1
}

}  // namespace hulhe
