#pragma once
// Lookup tables for equity enumeration, all derived from the hand evaluator (`evaluate`).
//
// A 7-card hand's rank is max(best hand from its ranks alone, best flush from its cards of one
// suit): a flush needs five cards of a suit and beats every hand of the same ranks that is not
// one, so splitting the two is exact. With hole cards fixed, the rank part depends only on the
// multiset of the five board ranks (C(17,5) = 6,188 of them) and the hole rank pair (91), and
// the flush part only on a 13-bit rank mask. Enumeration then works on rank multisets and
// suit masks rather than on cards; see exact_equity.cpp.
#include <cstdint>

#include "game/hand_evaluator.h"

namespace hulhe::equity {

inline constexpr int kNumBoardRankMultisets = 6188;  // multisets of 5 ranks from 13
inline constexpr int kNumHoleRankPairs = 91;         // multisets of 2 ranks from 13

// Colex index of a sorted multiset of five ranks (a[0] <= ... <= a[4]): the multiset maps to
// the strictly increasing set b_i = a_i + i, whose combinatorial-number-system rank is
// sum C(b_i, i + 1) (Knuth TAOCP 7.2.1.3).
int board_rank_index(const int* sorted_ranks);
constexpr int hole_rank_index(int r1, int r2) {
  return r1 < r2 ? r2 * (r2 + 1) / 2 + r1 : r1 * (r1 + 1) / 2 + r2;
}

struct EquityTables {
  // flush_value[13-bit rank mask of one suit], for masks of 5..7 ranks: the best flush or
  // straight flush; 0 for fewer ranks.
  const HandRank* flush_value;
  // category[HandRank] = category_of(rank), as a small integer.
  const std::uint8_t* category;

  // Column of hole rank pair h: column[board_rank_index] = HandRank of the best hand that
  // uses ranks only (no flush); 0 where the seven ranks include one rank five times.
  // Columns are built on first use (6,188 evaluations each), so a spot pays only for the
  // hole rank pairs it holds; thread-safe.
  const HandRank* rank_column(int hole_rank_index) const;
};

// Built once, then shared; thread-safe.
const EquityTables& equity_tables();

}  // namespace hulhe::equity
