#pragma once
// River hand strength by one sort per board (Johanson et al. 2011, "Accelerating best
// response calculation in large extensive games": showdown values over hand vectors).
// On a fixed board the 1,081 hole pairs are sorted by hand rank once; a sweep upward keeps
// the count of strictly weaker opponent pairs, in total and per card, so each pair's wins
// are W - Wc[c1] - Wc[c2] (removing the opponents that share a card with it) in O(1); equal
// ranks form a group whose members tie. That is O(n log n) per board instead of O(n^2)
// pair comparisons. Opponent pairs can be split into clusters (OCHS) by keeping the counts
// per cluster.
#include <omp.h>

#include <array>
#include <cstdint>
#include <vector>

#include "game/card.h"
#include "game/hand_evaluator.h"
#include "game/hand_indexer.h"

namespace hulhe {

// Hole pairs of a 52-card deck in colex order: pair {lo < hi} has index hi*(hi-1)/2 + lo.
inline constexpr int kNumHolePairs = 1326;
constexpr int hole_pair_index(Card a, Card b) {
  const int lo = a < b ? a : b;
  const int hi = a < b ? b : a;
  return hi * (hi - 1) / 2 + lo;
}
struct HolePair {
  Card low = 0;
  Card high = 0;
};
const std::array<HolePair, kNumHolePairs>& hole_pairs();

// Every board of `num_cards` cards (3, 4 or 5) up to suit isomorphism: one representative
// per class (the one whose card mask is smallest), cards ascending. 1,755 flops, 16,432
// turn boards, 134,459 river boards.
std::vector<std::array<Card, 5>> canonical_boards(int num_cards);

// Showdown sweep on one river board. Opponent pair p belongs to cluster pair_cluster[p]
// (all zeros and clusters = 1 for plain HS). Scratch space is owned, so one object per
// thread and no allocation per board.
class RiverBoardSweep {
 public:
  RiverBoardSweep(std::vector<std::uint8_t> pair_cluster, int clusters);
  // Plain hand strength: one cluster holding every pair.
  RiverBoardSweep();

  int clusters() const { return clusters_; }
  // For every hole pair p not touching `board` (5 cards) and every cluster k:
  // out[p * clusters + k] = (wins + ties / 2) / n against the n pairs of cluster k that touch
  // neither p nor the board (0 when n = 0). Entries of pairs touching the board are left as
  // they were. out holds kNumHolePairs * clusters floats.
  void run(const Card* board, float* out);
  // Hole pairs not touching the last board, ascending pair index (1,081 of them).
  const std::vector<std::int16_t>& live_pairs() const { return live_; }

 private:
  void sort_by_rank();
  template <bool kPlain>
  void sweep(float* out);

  std::vector<std::uint8_t> pair_cluster_;
  int clusters_;
  std::vector<std::int16_t> live_;
  std::vector<std::uint32_t> unsorted_, sorted_;  // rank << 11 | pair
  // Counts per (card, cluster) and per cluster: all live pairs (C, T), strictly weaker
  // pairs seen so far (Wc, W), the current group of equal rank (Gc, G).
  std::vector<std::int32_t> total_card_, weaker_card_, group_card_;
  std::vector<std::int32_t> total_, weaker_, group_;
};

// Every canonical river board swept once, in parallel on `threads` threads (0: all), each
// thread with its own copy of `sweep`: per board, visit(thread, index, values) for each hole
// pair not touching it, with index the pair's canonical river hand (HandIndexer::holdem(3))
// and values its sweep.clusters() values; then board_done(thread). Different canonical
// boards reach disjoint sets of canonical river hands (a hand's class fixes its board's
// class), so threads never visit the same index.
template <typename Visit, typename BoardDone>
void sweep_canonical_river_boards(const RiverBoardSweep& sweep, int threads, Visit visit,
                                  BoardDone board_done) {
  const HandIndexer& river = HandIndexer::holdem(3);
  const auto boards = canonical_boards(5);
  const auto& pairs = hole_pairs();
  const int num_boards = static_cast<int>(boards.size());
  const int clusters = sweep.clusters();
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    const int thread = omp_get_thread_num();
    RiverBoardSweep own = sweep;
    std::vector<float> values(static_cast<std::size_t>(kNumHolePairs) * clusters);
#pragma omp for schedule(dynamic, 64)
    for (int b = 0; b < num_boards; ++b) {
      const auto& board = boards[b];
      own.run(board.data(), values.data());
      Card cards[7] = {0, 0, board[0], board[1], board[2], board[3], board[4]};
      for (const std::int16_t p : own.live_pairs()) {
        cards[0] = pairs[p].low;
        cards[1] = pairs[p].high;
        visit(thread, river.index(cards), values.data() + static_cast<std::size_t>(p) * clusters);
      }
      board_done(thread);
    }
  }
}

// HS of every canonical river hand, row i = HandIndexer::holdem(3) index i: each canonical
// board is swept once and its pairs' values written to their canonical river indices.
// (Declared in hand_features.h as well.)
std::vector<float> river_hand_strength(int threads);

}  // namespace hulhe
