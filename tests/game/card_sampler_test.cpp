// The Monte Carlo card sampler: only cards not yet dealt, each equally likely, seeded.
#include "game/equity/card_sampler.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace hulhe::equity {
namespace {

TEST(CardSampler, DrawsUndealtCardsUniformly) {
  // Nine cards already out (two hands and a flop); draw the turn and river many times.
  const std::uint64_t dealt = 0x1ULL | 0x2ULL << 4 | 0x5ULL << 10 | 0x3ULL << 30 | 0x7ULL << 48;
  const int free_cards = kMaxCards - std::popcount(dealt);
  Rng rng(3, 0);
  CardSampler sampler(rng);
  std::array<std::int64_t, kMaxCards> first{}, second{};
  constexpr int kDeals = 430'000;
  for (int d = 0; d < kDeals; ++d) {
    std::uint64_t used = dealt;
    const Card a = sampler.draw(used);
    const Card b = sampler.draw(used);
    ASSERT_EQ((dealt >> a) & 1U, 0U);
    ASSERT_EQ((dealt >> b) & 1U, 0U);
    ASSERT_NE(a, b);
    ASSERT_EQ(used, dealt | (std::uint64_t{1} << a) | (std::uint64_t{1} << b));
    ++first[a];
    ++second[b];
  }
  // Each free card: expected kDeals / free_cards as first and as second card; chi-square
  // with free_cards - 1 degrees of freedom well inside its 1e-6 tail (about 110 for 42).
  const double expected = static_cast<double>(kDeals) / free_cards;
  double chi_first = 0, chi_second = 0;
  for (int c = 0; c < kMaxCards; ++c) {
    if ((dealt >> c) & 1U) {
      EXPECT_EQ(first[c] + second[c], 0);
      continue;
    }
    chi_first += std::pow(first[c] - expected, 2) / expected;
    chi_second += std::pow(second[c] - expected, 2) / expected;
  }
  EXPECT_EQ(free_cards, 43);
  EXPECT_LT(chi_first, 110);
  EXPECT_LT(chi_second, 110);
  EXPECT_GT(chi_first, 10);  // a sampler cycling through the deck would be too even
}

TEST(CardSampler, SameSeedSameCards) {
  Rng r1(42, 7), r2(42, 7), r3(43, 7);
  CardSampler s1(r1), s2(r2), s3(r3);
  int differ = 0;
  for (int i = 0; i < 100; ++i) {
    std::uint64_t u1 = 0, u2 = 0, u3 = 0;
    for (int k = 0; k < 5; ++k) {
      const Card c1 = s1.draw(u1);
      EXPECT_EQ(c1, s2.draw(u2));
      differ += c1 != s3.draw(u3);
    }
  }
  EXPECT_GT(differ, 400);
}

// Passing the number of cards left is the same draw as letting the sampler count them.
TEST(CardSampler, KnownCountDrawsTheSameCards) {
  Rng r1(5, 1), r2(5, 1);
  CardSampler s1(r1), s2(r2);
  for (int deal = 0; deal < 1000; ++deal) {
    std::uint64_t u1 = 0x3ULL << 20, u2 = u1;
    for (int left = 50; left > 43; --left) {
      const Card c = s1.draw(u1);
      EXPECT_EQ(c, s2.draw(u2, left));
      EXPECT_EQ(u1, u2);
    }
    EXPECT_EQ(std::popcount(u1), 9);
  }
}

}  // namespace
}  // namespace hulhe::equity
