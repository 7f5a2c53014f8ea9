#include "strategy_files/ochs_river_bucketer.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "abstraction/features/ochs.h"
#include "abstraction/features/river_strength.h"
#include "game/hand_evaluator.h"
#include "game/hand_indexer.h"
#include "util/input_error.h"

namespace hulhe {

std::string OchsRiverModel::check() const {
  const std::size_t preflop_hands = HandIndexer::holdem(0).size();
  if (clusters < 1 || clusters > kMaxOchsClusters)
    return "opponent clusters " + std::to_string(clusters) + " outside 1.." +
           std::to_string(kMaxOchsClusters);
  if (preflop_cluster.size() != preflop_hands)
    return "preflop clusters for " + std::to_string(preflop_cluster.size()) + " hands, not " +
           std::to_string(preflop_hands);
  for (std::uint8_t k : preflop_cluster)
    if (k >= clusters) return "a preflop cluster is out of range";
  if (num_buckets < 1) return "no river centres";
  if (centres.size() != static_cast<std::size_t>(num_buckets) * static_cast<std::size_t>(clusters))
    return "river centres do not fit the bucket and cluster counts";
  // OCHS values are win rates; a centre (a mean of them) outside [0, 1] or a NaN is damage.
  for (float c : centres)
    if (!(c >= 0.0F && c <= 1.0F)) return "a river centre is outside [0, 1]";
  return "";
}

OchsRiverModel OchsRiverModel::from(const RoundBuckets& river, const std::string& path) {
  auto fail = [&](const std::string& why) { throw InputError("bucket map " + path + ": " + why); };
  if (river.method != "ochs")
    fail(
        "a compact strategy file computes OCHS river buckets at play time; this map's river "
        "is '" +
        river.method + "' (export it without --compact)");
  OchsRiverModel m;
  m.clusters = river.centres.cols;
  m.num_buckets = river.num_buckets;
  if (river.centres.rows != river.num_buckets)
    fail("the river has " + std::to_string(river.num_buckets) + " buckets but " +
         std::to_string(river.centres.rows) + " centres");
  m.centres = river.centres.data;
  // The builder writes the 169 clusters one after another in decimal: one digit a hand is
  // the only reading when there are exactly 169 digits (at most 10 clusters).
  const std::string key = "preflop_clusters=";
  const std::size_t at = river.feature.find(key);
  if (at == std::string::npos) fail("the river's feature line names no preflop clusters");
  std::size_t end = at + key.size();
  while (end < river.feature.size() && river.feature[end] >= '0' && river.feature[end] <= '9')
    ++end;
  const std::size_t digits = end - at - key.size();
  if (digits != HandIndexer::holdem(0).size())
    fail("the river's preflop clusters are " + std::to_string(digits) +
         " digits, not one a preflop hand (compact files need at most 10 opponent clusters)");
  for (std::size_t i = at + key.size(); i < end; ++i)
    m.preflop_cluster.push_back(static_cast<std::uint8_t>(river.feature[i] - '0'));
  if (const std::string why = m.check(); !why.empty()) fail("river: " + why);
  return m;
}

OchsRiverBucketer::OchsRiverBucketer(OchsRiverModel model) : model_(std::move(model)) {
  if (const std::string why = model_.check(); !why.empty()) throw std::invalid_argument(why);
  pair_cluster_ =
      pair_clusters(std::vector<int>(model_.preflop_cluster.begin(), model_.preflop_cluster.end()),
                    model_.clusters);
  const std::size_t k = static_cast<std::size_t>(model_.num_buckets);
  centres_by_dim_.resize(k * static_cast<std::size_t>(model_.clusters));
  for (std::size_t j = 0; j < k; ++j)
    for (int t = 0; t < model_.clusters; ++t)
      centres_by_dim_[static_cast<std::size_t>(t) * k + j] =
          model_.centres[j * static_cast<std::size_t>(model_.clusters) + t];
}

void OchsRiverBucketer::features(const Card* hole, const Card* board, float* out) const {
  const HandEvaluator& evaluator = HandEvaluator::instance();
  const auto& pairs = hole_pairs();
  EvalHand board_hand;
  std::uint64_t known = 0;
  for (int i = 0; i < 5; ++i) {
    board_hand = board_hand.add(board[i]);
    known |= std::uint64_t{1} << board[i];
  }
  known |= std::uint64_t{1} << hole[0];
  known |= std::uint64_t{1} << hole[1];
  const HandRank own = evaluator.rank(board_hand.add(hole[0]).add(hole[1]));
  std::array<std::int32_t, kMaxOchsClusters> wins{}, ties{}, opponents{};
  for (int p = 0; p < kNumHolePairs; ++p) {
    const HolePair hp = pairs[p];
    if ((known >> hp.low & 1U) != 0 || (known >> hp.high & 1U) != 0) continue;
    const HandRank r = evaluator.rank(board_hand.add(hp.low).add(hp.high));
    const int k = pair_cluster_[p];
    ++opponents[k];
    wins[k] += r < own ? 1 : 0;
    ties[k] += r == own ? 1 : 0;
  }
  // RiverBoardSweep's expression, on the same integers (abstraction/features/river_strength.cpp).
  for (int k = 0; k < model_.clusters; ++k)
    out[k] = opponents[k] > 0 ? (static_cast<float>(wins[k]) + 0.5F * static_cast<float>(ties[k])) /
                                    static_cast<float>(opponents[k])
                              : 0.0F;
}

std::int32_t OchsRiverBucketer::nearest(const float* x) const {
  constexpr int kBlock = 64;
  const int k = model_.num_buckets;
  const int dims = model_.clusters;
  double best = std::numeric_limits<double>::infinity();
  std::int32_t best_j = 0;
  std::array<double, kBlock> d;
  for (int j0 = 0; j0 < k; j0 += kBlock) {
    const int m = std::min(kBlock, k - j0);
    std::fill(d.begin(), d.begin() + m, 0.0);
    // Per centre the sum runs over dimensions in order (the same additions whatever the
    // vector width); -ffp-contract=off keeps each product and sum separately rounded.
    for (int t = 0; t < dims; ++t) {
      const double xt = x[t];
      const double* c = centres_by_dim_.data() + static_cast<std::size_t>(t) * k + j0;
      for (int j = 0; j < m; ++j) {
        const double diff = xt - c[j];
        d[j] += diff * diff;
      }
    }
    for (int j = 0; j < m; ++j)
      if (d[j] < best) {
        best = d[j];
        best_j = j0 + j;
      }
  }
  return best_j;
}

std::int32_t OchsRiverBucketer::bucket(const Card* hole, const Card* board) const {
  std::array<float, kMaxOchsClusters> x;
  features(hole, board, x.data());
  return nearest(x.data());
}

RiverExceptions river_exceptions(const OchsRiverBucketer& bucketer,
                                 const std::function<std::int32_t(std::uint64_t)>& table_bucket,
                                 int threads, const ProgressCallback& progress) {
  const auto num_boards = static_cast<std::int64_t>(canonical_boards(5).size());
  // Each thread's exceptions apart, joined after the sweep.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> per_thread(
      threads > 0 ? threads : omp_get_max_threads());
  std::atomic<std::int64_t> done{0};
  const ProgressTimer clock(0.0);  // the elapsed time of the reports
  auto report = [&](std::int64_t boards) {
    progress(
        progress_at("river boards checked", boards, num_boards, boards, clock.elapsed_seconds()));
  };
  sweep_canonical_river_boards(
      RiverBoardSweep(bucketer.pair_cluster(), bucketer.clusters()), threads,
      [&](int thread, std::uint64_t index, const float* values) {
        const std::int32_t stored = table_bucket(index);
        if (bucketer.nearest(values) != stored)
          per_thread[thread].emplace_back(static_cast<std::uint32_t>(index),
                                          static_cast<std::uint32_t>(stored));
      },
      [&](int thread) {
        const std::int64_t now = ++done;
        if (progress && thread == 0 && now % 1024 == 0) report(now);
      });
  std::vector<std::pair<std::uint32_t, std::uint32_t>> found;
  for (const auto& local : per_thread) found.insert(found.end(), local.begin(), local.end());
  if (progress) report(num_boards);
  // Suit-isomorphic pairs of one board share an index (and its values): keep one.
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  RiverExceptions out;
  for (const auto& [index, bucket] : found) {
    out.index.push_back(index);
    out.bucket.push_back(bucket);
  }
  return out;
}

}  // namespace hulhe
