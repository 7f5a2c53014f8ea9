#pragma once
// What a blueprint says about a subgame: each position's range at the subgame's root (its
// reach over the trunk, the product of the blueprint's probabilities of the actions it took,
// per real hand, with card removal by the board), and the blueprint's strategy copied between
// range solvers (a re-solved subgame into a whole-game solver, to evaluate the combined
// strategy exactly).
#include <cstdint>
#include <span>
#include <vector>

#include "abstraction/policy.h"
#include "game/betting_tree.h"
#include "public_tree/private_hands.h"
#include "resolving/range_solver.h"

namespace hulhe {

// Position `position`'s reach of `node` for every hand of `hands`: the product, over its own
// decisions on the path from the tree's root to `node`, of `policy`'s probability of the
// action taken, the policy seeing each round's board through its abstraction. `board` holds
// at least total_board_cards(round of node) cards in dealing order; hands that touch those
// cards get 0. `tree` is the policy's game's tree.
std::vector<double> blueprint_reach(const Policy& policy, const BettingTree& tree,
                                    const PrivateHands& hands, std::int32_t node,
                                    std::span<const Card> board, int position);

// The same for a blueprint held by a range solver whose subgame contains `node`: its range at
// its root times its average strategy along the path from there.
std::vector<double> blueprint_reach(const RangeSolver& blueprint, std::int32_t node,
                                    std::span<const Card> board, int position);

// Writes `from`'s average strategy of `position` into `to` wherever both hold the information
// set (the same game's tree): a re-solved subgame into a whole-game solver, or a solved
// subgame's strategy into a smaller subgame below it.
void copy_strategy(const RangeSolver& from, int position, RangeSolver& to);

}  // namespace hulhe
