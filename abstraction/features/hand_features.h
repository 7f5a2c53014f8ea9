#pragma once
// Card-abstraction features over every canonical hand of a HULHE round (the inputs of
// k-means in abstraction/): hand strength moments, strength histograms, OCHS and the
// potential-aware next-round bucket lists. Row i of every result is canonical index i of
// HandIndexer::holdem(round). Everything is exact: remaining board cards are enumerated,
// never sampled. `threads` is the OpenMP thread count (<= 0: OpenMP's default).
//
// River hand strength comes from one sort of the hole pairs per canonical board with
// card-removal corrections (abstraction/features/river_strength.h); earlier rounds average the
// river values over the remaining cards by index lookups (abstraction/features/hand_strength.h).
// Building the river table takes most of the time, so every function that needs it has an
// overload taking a table the caller already built with river_hand_strength().
#include <cstdint>
#include <vector>

namespace hulhe {

// Dense row-major matrix of floats: one row per canonical hand.
struct FeatureMatrix {
  std::int64_t rows = 0;
  int cols = 0;
  std::vector<float> data;

  float* row(std::int64_t i) { return data.data() + i * cols; }
  const float* row(std::int64_t i) const { return data.data() + i * cols; }
};

// HS of every canonical river hand (123,156,254 floats): wins + ties/2 against a uniformly
// random opponent hand not touching the hole cards or the board.
std::vector<float> river_hand_strength(int threads);

// HS on the river; E[HS] on earlier rounds (mean of the river HS over all remaining board
// cards). One entry per canonical hand of `round`.
std::vector<float> expected_hand_strength(int round, int threads);
std::vector<float> expected_hand_strength(int round, const std::vector<float>& river_hs,
                                          int threads);
// E[HS^2] (Johanson's MSc 2007: rewards potential); on the river HS^2.
std::vector<float> expected_hand_strength_squared(int round, int threads);
std::vector<float> expected_hand_strength_squared(int round, const std::vector<float>& river_hs,
                                                  int threads);

// Histogram of the final (river) HS over the remaining board cards: `bins` equal bins on
// [0, 1] (HS = 1 falls in the last bin), normalised to sum 1. round 0..2.
FeatureMatrix strength_histograms(int round, int bins, int threads);
FeatureMatrix strength_histograms(int round, int bins, const std::vector<float>& river_hs,
                                  int threads);

// The preflop case of strength_histograms without the river table: one showdown sweep per
// canonical river board (134,459), each board weighted by the size of its suit class, so the
// 169 hands cost seconds instead of 169 x 2,118,760 table lookups. Bit-identical to
// strength_histograms(0, bins, river_hand_strength()) (the same integer counts, the same
// float scaling).
FeatureMatrix preflop_strength_histograms(int bins, int threads);

// OCHS (Johanson, Burch, Valenzano & Bowling 2013): a river hand's HS against each opponent
// cluster, the opponent uniform over the cluster's combos not touching the known cards
// (0 for a cluster with no such combo). preflop_cluster[i] = cluster of canonical preflop
// hand i (169 entries), values 0..clusters-1. Rows: canonical river hands; cols: clusters.
FeatureMatrix ochs_features(const std::vector<int>& preflop_cluster, int clusters, int threads);

// Potential-aware input (Ganzfried & Sandholm 2014): for each canonical hand of `round`
// (0..2), the next-round buckets of the hand after each possible next board card(s), in
// ascending card order of the cards not in the hand: per_row = 47 on the flop (turn card),
// 46 on the turn (river card), 19,600 preflop (the flops from the 50 cards left, in
// lexicographic order of ascending card triples). next_round_bucket is indexed by the next
// round's canonical index.
struct NextRoundBuckets {
  std::int64_t rows = 0;
  int per_row = 0;
  std::vector<std::int32_t> bucket;

  const std::int32_t* row(std::int64_t i) const { return bucket.data() + i * per_row; }
};
NextRoundBuckets next_round_buckets(int round, const std::vector<std::int32_t>& next_round_bucket,
                                    int threads);

// Entries of one row of next_round_buckets(round, ...): 19600, 47, 46 for rounds 0, 1, 2.
int next_round_successors(int round);

}  // namespace hulhe
