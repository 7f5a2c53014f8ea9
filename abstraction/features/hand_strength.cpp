#include "abstraction/features/hand_strength.h"

#include <omp.h>

#include <stdexcept>
#include <string>

#include "abstraction/features/hand_features.h"
#include "abstraction/features/river_strength.h"
#include "util/thread_start.h"

namespace hulhe {

namespace {

void check_river_table(const std::vector<float>& river_hs) {
  if (river_hs.size() != HandIndexer::holdem(3).size())
    throw std::invalid_argument("hand features: river HS table has " +
                                std::to_string(river_hs.size()) + " entries, expected " +
                                std::to_string(HandIndexer::holdem(3).size()));
}

// Averages round by round, river → `round`: E[.] of round r is the mean over the
// next card(s) of E[.] of round r + 1.
std::vector<float> average_down_to(int round, std::vector<float> values, int threads) {
  detail::check_round(round, 3);
  for (int r = 2; r >= round; --r) values = mean_over_next_round(r, values, threads);
  return values;
}

}  // namespace

std::vector<float> mean_over_next_round(int round, const std::vector<float>& next_values,
                                        int threads) {
  detail::check_round(round, 2);
  const HandIndexer& indexer = HandIndexer::holdem(round);
  if (next_values.size() != HandIndexer::holdem(round + 1).size())
    throw std::invalid_argument("mean_over_next_round: next-round values have the wrong size");
  const auto n = static_cast<std::int64_t>(indexer.size());
  std::vector<float> out(n);
#pragma omp parallel for schedule(dynamic, round == 0 ? 1 : 1024) \
    num_threads(thread_count_or_default(threads))
  for (std::int64_t i = 0; i < n; ++i) {
    Card cards[7];
    indexer.unindex(static_cast<std::uint64_t>(i), cards);
    out[i] = static_cast<float>(
        mean_over_next_round(round, cards, [&](std::uint64_t next) { return next_values[next]; }));
  }
  return out;
}

std::vector<float> expected_hand_strength(int round, const std::vector<float>& river_hs,
                                          int threads) {
  check_river_table(river_hs);
  return average_down_to(round, river_hs, threads);
}

std::vector<float> expected_hand_strength(int round, int threads) {
  detail::check_round(round, 3);
  return average_down_to(round, river_hand_strength(threads), threads);
}

std::vector<float> expected_hand_strength_squared(int round, const std::vector<float>& river_hs,
                                                  int threads) {
  check_river_table(river_hs);
  std::vector<float> squared(river_hs.size());
  const auto n = static_cast<std::int64_t>(river_hs.size());
#pragma omp parallel for num_threads(thread_count_or_default(threads))
  for (std::int64_t i = 0; i < n; ++i) squared[i] = river_hs[i] * river_hs[i];
  return average_down_to(round, std::move(squared), threads);
}

std::vector<float> expected_hand_strength_squared(int round, int threads) {
  detail::check_round(round, 3);
  std::vector<float> hs = river_hand_strength(threads);
  for (float& v : hs) v *= v;
  return average_down_to(round, std::move(hs), threads);
}

FeatureMatrix strength_histograms(int round, int bins, const std::vector<float>& river_hs,
                                  int threads) {
  detail::check_round(round, 2);
  check_river_table(river_hs);
  if (bins < 1) throw std::invalid_argument("strength_histograms: bins must be positive");
  const HandIndexer& indexer = HandIndexer::holdem(round);
  FeatureMatrix m;
  m.rows = static_cast<std::int64_t>(indexer.size());
  m.cols = bins;
  m.data.assign(static_cast<std::size_t>(m.rows) * bins, 0.0F);
#pragma omp parallel for schedule(dynamic, round == 0 ? 1 : 256) \
    num_threads(thread_count_or_default(threads))
  for (std::int64_t i = 0; i < m.rows; ++i) {
    Card cards[7];
    indexer.unindex(static_cast<std::uint64_t>(i), cards);
    strength_histogram(
        round, cards, bins, [&](std::uint64_t river) { return river_hs[river]; }, m.row(i));
  }
  return m;
}

FeatureMatrix strength_histograms(int round, int bins, int threads) {
  detail::check_round(round, 2);
  return strength_histograms(round, bins, river_hand_strength(threads), threads);
}

}  // namespace hulhe
