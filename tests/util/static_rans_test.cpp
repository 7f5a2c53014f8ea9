// The static rANS coder: exact round trips under several contexts, sizes near the order-0
// entropy, one-symbol contexts free, damaged, cut or extended streams refused, and the
// one-symbol-at-a-time decoder.
#include "util/static_rans.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace hulhe {
namespace {

// Three contexts: a skewed one (0 or 255, 70/30), a spread one (uniform over 0..99), one
// holding only the value 7.
struct Sample {
  std::vector<std::uint8_t> symbols, contexts;
  double entropy_bits = 0;
};

Sample sample(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Sample s;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::uint8_t>(rng() % 3);
    s.contexts.push_back(c);
    if (c == 0) {
      s.symbols.push_back(rng() % 10 < 7 ? 0 : 255);
      s.entropy_bits += -(0.7 * std::log2(0.7) + 0.3 * std::log2(0.3));
    } else if (c == 1) {
      s.symbols.push_back(static_cast<std::uint8_t>(rng() % 100));
      s.entropy_bits += std::log2(100.0);
    } else {
      s.symbols.push_back(7);
    }
  }
  return s;
}

TEST(StaticRans, RoundTripsNearTheEntropy) {
  const Sample s = sample(200000, 1);
  const auto model = rans_model(s.symbols, s.contexts, 3);
  EXPECT_EQ(rans_check(model), "");
  EXPECT_EQ(model[2][7], kRansTotal);  // the one-symbol context
  const std::vector<std::uint8_t> stream = rans_encode(s.symbols, s.contexts, model);
  std::vector<std::uint8_t> back(s.symbols.size());
  ASSERT_TRUE(rans_decode(stream, s.contexts, model, back));
  EXPECT_EQ(back, s.symbols);
  const double bits = 8.0 * static_cast<double>(stream.size());
  EXPECT_GT(bits, s.entropy_bits * 0.99);
  EXPECT_LT(bits, s.entropy_bits * 1.01 + 64);
  // The same input, the same bytes.
  EXPECT_EQ(rans_encode(s.symbols, s.contexts, rans_model(s.symbols, s.contexts, 3)), stream);
}

TEST(StaticRans, OnlyOneSymbolCostsOnlyTheState) {
  const std::vector<std::uint8_t> symbols(100000, 42), contexts(100000, 0);
  const auto model = rans_model(symbols, contexts, 1);
  const auto stream = rans_encode(symbols, contexts, model);
  EXPECT_EQ(stream.size(), 4u);
  std::vector<std::uint8_t> back(symbols.size());
  ASSERT_TRUE(rans_decode(stream, contexts, model, back));
  EXPECT_EQ(back, symbols);
}

TEST(StaticRans, DamageIsRefused) {
  const Sample s = sample(20000, 2);
  const auto model = rans_model(s.symbols, s.contexts, 3);
  const auto stream = rans_encode(s.symbols, s.contexts, model);
  std::vector<std::uint8_t> back(s.symbols.size());
  auto cut = stream;
  cut.pop_back();
  EXPECT_FALSE(rans_decode(cut, s.contexts, model, back));
  auto longer = stream;
  longer.push_back(0);
  EXPECT_FALSE(rans_decode(longer, s.contexts, model, back));
  // Every single flipped byte: refused, or (never seen, but allowed) other symbols.
  int refused = 0;
  for (std::size_t i = 0; i < stream.size(); i += 97) {
    auto flipped = stream;
    flipped[i] ^= 0x20;
    if (!rans_decode(flipped, s.contexts, model, back))
      ++refused;
    else
      EXPECT_NE(back, s.symbols);
  }
  EXPECT_GT(refused, 0);
  auto bad_model = model;
  bad_model[0][0] += 1;
  EXPECT_NE(rans_check(bad_model), "");
  EXPECT_FALSE(rans_decode(stream, s.contexts, bad_model, back));
  // A symbol the model has no room for is a caller's error.
  std::vector<std::uint8_t> other = s.symbols;
  other[0] = s.contexts[0] == 2 ? 8 : 1;  // 8 in the one-symbol context, 1 in context 0
  if (s.contexts[0] == 1) other[0] = 200;
  EXPECT_THROW(rans_encode(other, s.contexts, model), std::invalid_argument);
}

// The one-at-a-time decoder gives what rans_decode gives, and is finished only at the end.
TEST(StaticRans, DecoderOneSymbolAtATime) {
  const Sample s = sample(20000, 3);
  const auto model = rans_model(s.symbols, s.contexts, 3);
  const std::vector<std::uint8_t> stream = rans_encode(s.symbols, s.contexts, model);
  RansDecoder decoder;
  ASSERT_TRUE(decoder.start(stream, model));
  for (std::size_t i = 0; i < s.symbols.size(); ++i) {
    std::uint8_t symbol = 0;
    ASSERT_TRUE(decoder.next(s.contexts[i], symbol)) << i;
    ASSERT_EQ(symbol, s.symbols[i]) << i;
    if (i + 1000 < s.symbols.size()) {
      ASSERT_FALSE(decoder.finished()) << i;
    }
  }
  EXPECT_TRUE(decoder.finished());
  std::uint8_t symbol = 0;
  EXPECT_FALSE(decoder.next(3, symbol));  // no such context
  EXPECT_FALSE(
      RansDecoder().start(std::vector<std::uint8_t>(3, 0), model));  // shorter than a state
}

}  // namespace
}  // namespace hulhe
