#pragma once
// River buckets of an OCHS bucket map computed at play time, for compact strategy files
// (docs/acpc-play.md, "Compact strategy files"). The builder's river stage
// (abstraction/abstraction_builder.cpp, method "ochs"; Johanson, Burch, Valenzano & Bowling
// 2013) gives each canonical river hand the feature "hand strength against each preflop
// opponent cluster" and puts it in the bucket of the nearest k-means centre. A file that keeps
// the 169 preflop clusters and the centres (kilobytes) instead of the 123,156,254-entry river
// table (88 MiB at 50 buckets) can do the same for the one hand it holds:
//
//   features: for every opponent pair that touches no known card (990 of them), one 7-card
//             evaluation; wins, ties and opponents counted per cluster, and the value
//             (wins + ties/2) / opponents in float, bit for bit what RiverBoardSweep gives
//             (integer counts, one expression);
//   bucket:   the centre nearest in squared Euclidean distance, summed in double in dimension
//             order, ties to the lowest centre.
//
// The builder's own arg-min runs in float through Eigen products whose rounding depends on
// the CPU and the block a row falls in, so in rare near-ties the two can differ: the exporter
// checks every canonical river hand (river_buckets_of_board) and stores the differing ones
// (compact_bucket_abstraction.h), which makes a compact file play exactly the full file.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "abstraction/bucket_map.h"
#include "game/card.h"
#include "util/progress.h"

namespace hulhe {

inline constexpr int kMaxOchsClusters = 255;  // RiverBoardSweep's limit

// What a compact file stores of the river round.
struct OchsRiverModel {
  std::int32_t clusters = 0;                  // opponent clusters = feature dimensions
  std::vector<std::uint8_t> preflop_cluster;  // per canonical preflop hand (169)
  std::int32_t num_buckets = 0;               // centres
  std::vector<float> centres;                 // num_buckets x clusters, row-major, in [0, 1]

  // "" when the sizes, ranges and values are what an OCHS river has, else the reason.
  std::string check() const;
  // The river round of a bucket map built with method "ochs": its centres, and its preflop
  // clusters read from the feature line ("... preflop_clusters=0123..."). InputError naming
  // `path` for another method or a feature line without one cluster digit per preflop hand.
  static OchsRiverModel from(const RoundBuckets& river, const std::string& path);
};

class OchsRiverBucketer {
 public:
  // std::invalid_argument with model.check()'s reason for a model that fails it.
  explicit OchsRiverBucketer(OchsRiverModel model);

  const OchsRiverModel& model() const { return model_; }
  int clusters() const { return model_.clusters; }
  std::int32_t num_buckets() const { return model_.num_buckets; }
  // Cluster of each of the 1,326 hole pairs (river_strength.h's colex order).
  const std::vector<std::uint8_t>& pair_cluster() const { return pair_cluster_; }

  // The OCHS feature of `hole` (2 cards) on `board` (5 cards): clusters() floats.
  void features(const Card* hole, const Card* board, float* out) const;
  // The bucket of a feature vector: nearest centre as described above.
  std::int32_t nearest(const float* x) const;
  // features, then nearest: no allocation, thread-safe.
  std::int32_t bucket(const Card* hole, const Card* board) const;

 private:
  OchsRiverModel model_;
  std::vector<std::uint8_t> pair_cluster_;
  std::vector<double> centres_by_dim_;  // clusters x num_buckets: dimension t of centre j at
                                        // [t * num_buckets + j], so that a block of centres
                                        // is summed in lockstep (vectorised across centres)
};

// Export-time check of a whole river table: for every canonical river board, the features
// of its live hole pairs by one RiverBoardSweep (the builder's code), their nearest centres,
// compared with table_bucket(canonical river index) (HandIndexer::holdem(3)). Returns the
// canonical indices whose stored bucket differs from the computed one, ascending, with the
// stored bucket. Progress (stage "river boards checked") counts boards, from the calling
// thread.
struct RiverExceptions {
  std::vector<std::uint32_t> index;
  std::vector<std::uint32_t> bucket;
};
RiverExceptions river_exceptions(const OchsRiverBucketer& bucketer,
                                 const std::function<std::int32_t(std::uint64_t)>& table_bucket,
                                 int threads, const ProgressCallback& progress);

}  // namespace hulhe
