#pragma once
// Builds a HULHE bucket map from an AbstractionConfig, round by round from the river back
// to the preflop, because potential-aware rounds cluster over the next round's buckets
// (Ganzfried & Sandholm 2014). Imperfect recall: each round's bucket depends only on that
// round's cards.
//
// Per round:
//   lossless      bucket = canonical index (the preflop's 169)
//   ehs           percentile buckets of E[HS] (equal numbers of canonical hands)
//   distribution  k-means under the 1-D EMD on strength histograms (Johanson et al. 2013)
//   potential     k-means under the EMD over next-round buckets, ground distance = distance
//                 between the next round's centres (greedy EMD of G&S 2014, Algorithm 2)
//   ochs          k-means, L2 on opponent-cluster hand strength (river; Johanson et al. 2013)
#include <cstdint>
#include <string>
#include <vector>

#include "abstraction/abstraction_config.h"
#include "abstraction/bucket_map.h"
#include "abstraction/clustering/earth_movers_distance.h"
#include "util/progress.h"

namespace hulhe {

struct RoundReport {
  int round = 0;
  std::string method;
  std::int32_t buckets = 0;
  std::int64_t hands = 0;
  std::int64_t min_hands = 0, median_hands = 0, max_hands = 0;  // per bucket
  double cost = 0.0;     // within-cluster cost (sum over hands; 0 for lossless)
  double seconds = 0.0;  // wall time of the round, features included
};

struct StageReport {
  std::string name;
  double seconds = 0.0;
  double peak_rss_mib = 0.0;  // peak resident memory of the process during the stage
};

// The build reports its steps to a ProgressCallback (util/progress.h; the library prints
// nothing): a stage's start (done 0), its progress, and its end (done == total), with the
// stage's elapsed time (since its first event: its start, or k-means' first unit of work),
// rate and ETA. Stages nest: "river: k-means (1-D EMD)" holds "river: seed", "river: lloyd"
// and "river: assign".
// Reports come at a builder stage's start, at every stage's end, and in between at most every
// kAbstractionProgressSeconds per stage.
inline constexpr double kAbstractionProgressSeconds = 2.0;

class AbstractionBuilder {
 public:
  AbstractionBuilder(AbstractionConfig config, std::uint64_t game_hash, int threads,
                     ProgressCallback on_progress = {});
  BucketMap build();

  const std::vector<RoundReport>& round_reports() const { return rounds_; }
  const std::vector<StageReport>& stage_reports() const { return stages_; }

 private:
  AbstractionConfig config_;
  std::uint64_t game_hash_;
  int threads_;
  ProgressCallback on_progress_;
  std::vector<RoundReport> rounds_;
  std::vector<StageReport> stages_;
};

// Percentile buckets: hands sorted by value, split into `buckets` groups of equal size;
// equal values always share a bucket. Returns buckets; centres[b] = mean value of bucket b.
std::vector<std::int32_t> percentile_buckets(const std::vector<float>& values, int buckets,
                                             std::vector<float>& centres);

// Turns per-hand lists of next-round buckets (next_round_buckets()) into normalised
// sparse histograms over `dims` buckets.
SparseHistograms histograms_from_lists(const std::int32_t* lists, std::int64_t rows, int per_row,
                                       int dims, int threads);

// Potential-aware features of every canonical hand of `round` (0..2): its histogram over the
// next round's buckets (next_bucket: per next-round canonical index, values < dims), one
// count per next card. Equal to histograms_from_lists(next_round_buckets(...)), built in
// blocks so the per-hand lists never all exist at once.
SparseHistograms next_round_histograms(int round, const std::vector<std::int32_t>& next_bucket,
                                       int dims, int threads);

// Strength histograms (rows of `bins` masses) → cumulative sums times the bin width, so
// that L1 between rows is the 1-D EMD in units of hand strength.
void histograms_to_cdfs(FeatureMatrix& histograms, int threads);

}  // namespace hulhe
