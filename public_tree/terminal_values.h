#pragma once
// Counterfactual values at terminal nodes for every private hand at once, in O(n) per
// terminal (Johanson, Waugh, Bowling & Zinkevich 2011, "Accelerating best response
// calculation in large extensive games"; Johanson et al. 2012). The opponent's reach vector
// already holds card removal by the board (hands touching it have reach 0); removal between
// the two players' hands is done by inclusion-exclusion over per-card reach sums, which is
// exact for hands of 1 or 2 cards.
#include <cstdint>
#include <vector>

#include "game/card.h"
#include "game/game_definition.h"
#include "public_tree/private_hands.h"

namespace hulhe {

// The hands that do not touch a final-round board, sorted by showdown rank (weakest first).
struct ShowdownOrder {
  std::vector<std::int32_t> hands;
  std::vector<std::int32_t> ranks;  // aligned with `hands`; equal ranks tie
};

// Ranks hole cards + board with the game's evaluator (hand_evaluator.h).
ShowdownOrder make_showdown_order(const GameDefinition& game, const PrivateHands& hands,
                                  CardSet board);

// Fold: every hand h not touching the board (valid[h] >= 0) gets
// payoff · (reach of opponent hands disjoint from h); others get 0.
void fold_values(const PrivateHands& hands, const std::int32_t* valid, const double* opp_reach,
                 double payoff, double* out);

// Showdown: out[h] = win · (reach of disjoint weaker hands) + lose · (reach of disjoint
// stronger hands); ties count as neither. Hands not in `order` get 0.
void showdown_values(const PrivateHands& hands, const ShowdownOrder& order, const double* opp_reach,
                     double win, double lose, double* out);

}  // namespace hulhe
