#pragma once
// A deliberately lossy card abstraction of the reduced-deck hold'em games, for blueprints whose
// abstraction error re-solving can remove: preflop, the hole cards' ranks and whether they
// are suited (pairs by rank); later rounds, only how many board cards pair the hole cards
// (0, 1, 2 or more) and whether the hole cards are a pair. Kickers, suits and the board's own
// pairs are thrown away, so hands that play very differently share a bucket.
#include <algorithm>
#include <string>

#include "abstraction/card_abstraction.h"
#include "game/game_definition.h"

namespace hulhe::testing {

class CoarseHoldemAbstraction final : public CardAbstraction {
 public:
  explicit CoarseHoldemAbstraction(const GameDefinition& game) : game_(game) {}
  int num_rounds() const override { return game_.num_rounds; }
  std::int32_t num_buckets(int round) const override { return round == 0 ? 13 * 13 : 6; }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override {
    const int r0 = rank_of(hole[0]), r1 = rank_of(hole[1]);
    if (round == 0) {
      const int hi = std::max(r0, r1), lo = std::min(r0, r1);
      return suit_of(hole[0]) == suit_of(hole[1]) ? hi * 13 + lo : lo * 13 + hi;
    }
    int matches = 0;
    for (int i = 0; i < game_.total_board_cards(round); ++i)
      matches += (rank_of(board[i]) == r0) + (rank_of(board[i]) == r1);
    return std::min(matches, 2) * 2 + (r0 == r1 ? 1 : 0);
  }
  std::uint64_t hash() const override { return 0xC0A25EULL; }
  std::string describe() const override { return "coarse (tests)"; }

 private:
  GameDefinition game_;
};

}  // namespace hulhe::testing
