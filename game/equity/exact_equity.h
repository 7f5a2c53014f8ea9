#pragma once
// Exact equity by enumeration of every deal (players' combinations, then boards).
//
// Two savings make it fast (the spirit of OMPEval's enumeration, derived afresh here):
//  1. Suit isomorphism: deals that a permutation of suits maps onto each other (a permutation
//     that fixes the board and the dead cards) have the same outcome, so the players'
//     combinations are grouped into classes, each enumerated once with the sum of its weights.
//  2. Ranks, not cards: a board without three cards of one suit gives nobody a flush, so
//     the showdown depends only on the board's rank multiset; boards are counted by rank
//     multiset (with the number of ways to pick the cards), then corrected for the boards
//     with three or more cards of a suit, enumerated by that suit's cards. Preflop hand
//     against hand this visits about 40 thousand rank patterns instead of 1.7 million boards.
#include "game/equity/equity_calculator.h"

namespace hulhe::equity {

// `request` is validated; its ranges hold no combination that touches the board or dead cards.
EquityResult exact_equity(const EquityRequest& request);

}  // namespace hulhe::equity
