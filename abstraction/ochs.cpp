#include "abstraction/ochs.h"

#include <omp.h>

#include <stdexcept>
#include <string>

#include "abstraction/hand_features.h"
#include "abstraction/river_strength.h"
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
  const HandIndexer& river = HandIndexer::holdem(3);
  const auto boards = canonical_boards(5);
  const auto& pairs = hole_pairs();
  FeatureMatrix m;
  m.rows = static_cast<std::int64_t>(river.size());
  m.cols = clusters;
  m.data.resize(static_cast<std::size_t>(m.rows) * clusters);
  const int num_boards = static_cast<int>(boards.size());
  // As for plain HS, distinct canonical boards write disjoint rows.
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    RiverBoardSweep sweep(pair_cluster, clusters);
    std::vector<float> board_values(static_cast<std::size_t>(kNumHolePairs) * clusters);
#pragma omp for schedule(dynamic, 64)
    for (int b = 0; b < num_boards; ++b) {
      const auto& board = boards[b];
      sweep.run(board.data(), board_values.data());
      Card cards[7] = {0, 0, board[0], board[1], board[2], board[3], board[4]};
      for (const std::int16_t p : sweep.live_pairs()) {
        cards[0] = pairs[p].low;
        cards[1] = pairs[p].high;
        const float* src = board_values.data() + static_cast<std::size_t>(p) * clusters;
        std::copy(src, src + clusters, m.row(static_cast<std::int64_t>(river.index(cards))));
      }
    }
  }
  return m;
}

}  // namespace hulhe
