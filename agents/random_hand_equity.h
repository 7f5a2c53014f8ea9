#pragma once
// A hand's equity (probability of winning at showdown, ties shared) against opponents holding
// random hands, with the board completed at random: the "win probability" the equity,
// rule-list and 4-D function bots reason with. Works for any ACPC deck: a standard deck is
// ranked by the 7-card evaluator, small decks (Kuhn, Leduc) like the ACPC dealer.
//
// Exact when the enumeration of every opponent hand and board completion has at most
// `exact_limit` deals (Kuhn, Leduc, the hold'em river heads-up: 990), else Monte Carlo with
// `samples` deals drawn from the caller's generator (standard error <= 0.5/sqrt(samples)).
#include <cstdint>
#include <vector>

#include "game/card.h"
#include "game/game_definition.h"
#include "game/game_state.h"
#include "util/split_mix64.h"

namespace hulhe {

class RandomHandEquity {
 public:
  RandomHandEquity(const GameDefinition& game, int samples, std::int64_t exact_limit = 2000);

  // hole: the game's hole cards; board: the `board_count` board cards seen so far.
  double equity(const Card* hole, const Card* board, int board_count, int opponents,
                SplitMix64& rng) const;
  // Deals the exact enumeration would visit (a double: preflop counts overflow 64 bits).
  double exact_deals(int board_count, int opponents) const;

  int samples() const { return samples_; }

 private:
  std::int32_t rank(const Card* cards, int n) const;

  std::vector<Card> deck_;
  int hole_cards_ = 0;
  int final_board_ = 0;
  bool standard_deck_ = false;
  int samples_ = 0;
  std::int64_t exact_limit_ = 0;
};

// The equity of the acting seat's hand against its live (not folded) opponents, computed
// once per hand, round and number of opponents. Agents call reset() in new_hand(), so what
// a hand draws from its generator never depends on the hands played before it.
class SeatEquity {
 public:
  SeatEquity(const GameDefinition& game, int samples) : equity_(game, samples) {}
  void reset() { valid_ = false; }
  double operator()(const GameState& state, int position, SplitMix64& rng);

 private:
  RandomHandEquity equity_;
  bool valid_ = false;
  int round_ = 0;
  int opponents_ = 0;
  double value_ = 0;
};

}  // namespace hulhe
