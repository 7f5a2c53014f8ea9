#pragma once
// E[HS], E[HS^2] and strength histograms of hands before the river, built from the river
// HS table (abstraction/features/river_strength.h) by index lookups. Every remaining board is
// equally likely, so a round's E[HS] is the mean of the next round's E[HS] over the next card(s),
// and likewise E[HS^2]: each round costs (hands x next cards) lookups. Histograms need the
// distribution of the final HS, so they enumerate complete boards.
//
// The per-hand templates take the lookup as a callable so tests can check them against a
// brute-force enumeration without building the 123M-entry river table.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "abstraction/features/board_completions.h"

namespace hulhe {

// Mean of next_value(next canonical index) over the next round's hands reachable from
// `cards` (hole + board of round 0..2).
template <class F>
double mean_over_next_round(int round, const Card* cards, F&& next_value) {
  double sum = 0;
  int n = 0;
  for_each_next_round_hand(round, cards, [&](std::uint64_t next) {
    sum += next_value(next);
    ++n;
  });
  return sum / n;
}

// Bin of a hand strength among `bins` equal bins on [0, 1]; HS = 1 goes to the last bin.
inline int strength_bin(float hs, int bins) {
  return std::clamp(static_cast<int>(hs * static_cast<float>(bins)), 0, bins - 1);
}

// Histogram of river_hs(river canonical index) over the board completions of `cards`
// (hole + board of round 0..2), normalised to sum 1, into out[0..bins).
template <class F>
void strength_histogram(int round, const Card* cards, int bins, F&& river_hs, float* out) {
  // Counts stay exact in float: at most C(50, 5) = 2,118,760 < 2^24 completions.
  std::fill(out, out + bins, 0.0F);
  std::int64_t n = 0;
  for_each_river_hand(round, cards, [&](std::uint64_t river) {
    out[strength_bin(river_hs(river), bins)] += 1.0F;
    ++n;
  });
  const float scale = 1.0F / static_cast<float>(n);
  for (int b = 0; b < bins; ++b) out[b] *= scale;
}

// For every canonical hand of `round` (0..2): the mean of next_values over its next-round
// hands (next_values indexed by the next round's canonical index).
std::vector<float> mean_over_next_round(int round, const std::vector<float>& next_values,
                                        int threads);

}  // namespace hulhe
