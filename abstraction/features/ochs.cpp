#include "abstraction/features/ochs.h"

#include <stdexcept>
#include <string>

#include "abstraction/features/hand_features.h"
#include "abstraction/features/river_strength.h"
#include "game/hand_indexer.h"

namespace hulhe {

std::vector<std::uint8_t> pair_clusters(const std::vector<int>& preflop_cluster, int clusters) {
  const HandIndexer& preflop = HandIndexer::holdem(0);
  if (preflop_cluster.size() != preflop.size())
    throw std::invalid_argument("OCHS: need one cluster per canonical preflop hand (" +
                                std::to_string(preflop.size()) + "), got " +
                                std::to_string(preflop_cluster.size()));
  if (clusters < 1 || clusters > 255)
    throw std::invalid_argument("OCHS: clusters must be in 1..255, got " +
                                std::to_string(clusters));
  for (int k : preflop_cluster)
    if (k < 0 || k >= clusters)
      throw std::invalid_argument("OCHS: preflop cluster " + std::to_string(k) + " outside 0.." +
                                  std::to_string(clusters - 1));
  std::vector<std::uint8_t> out(kNumHolePairs);
  const auto& pairs = hole_pairs();
  for (int p = 0; p < kNumHolePairs; ++p) {
    const Card hole[2] = {pairs[p].low, pairs[p].high};
    out[p] = static_cast<std::uint8_t>(preflop_cluster[preflop.index(hole)]);
  }
  return out;
}

FeatureMatrix ochs_features(const std::vector<int>& preflop_cluster, int clusters, int threads) {
  const std::vector<std::uint8_t> pair_cluster = pair_clusters(preflop_cluster, clusters);
  FeatureMatrix m;
  m.rows = static_cast<std::int64_t>(HandIndexer::holdem(3).size());
  m.cols = clusters;
  m.data.resize(static_cast<std::size_t>(m.rows) * clusters);
  // As for plain HS, distinct canonical boards write disjoint rows.
  sweep_canonical_river_boards(
      RiverBoardSweep(pair_cluster, clusters), threads,
      [&m, clusters](int, std::uint64_t index, const float* values) {
        std::copy(values, values + clusters, m.row(static_cast<std::int64_t>(index)));
      },
      [](int) {});
  return m;
}

}  // namespace hulhe
