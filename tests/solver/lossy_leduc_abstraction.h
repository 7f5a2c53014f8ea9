#pragma once
#include <string>

#include "abstraction/card_abstraction.h"
#include "game/card.h"

namespace hulhe::testing {

// A lossy abstraction of Leduc (deck Q K A, two suits): the preflop sees the hole card's rank
// (lossless up to suit), the flop only the hole rank and whether the board pairs it, not the
// board's rank (6 buckets instead of 9 rank pairs): with a K unpaired, an A on board (only Q
// left below) and a Q (A above) look alike.
class LeducPairAbstraction final : public CardAbstraction {
 public:
  int num_rounds() const override { return 2; }
  std::int32_t num_buckets(int round) const override { return round == 0 ? 3 : 6; }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override {
    const int rank = rank_of(hole[0]) - (kMaxRanks - 3);  // 0, 1, 2: Q, K, A
    if (round == 0) return rank;
    return 2 * rank + (rank_of(board[0]) == rank_of(hole[0]) ? 1 : 0);
  }
  std::uint64_t hash() const override { return 0x4c45445543504149ULL; }
  std::string describe() const override { return "Leduc: hole rank; flop hole rank + paired"; }
};

}  // namespace hulhe::testing
