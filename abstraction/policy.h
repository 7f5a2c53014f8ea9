#pragma once
// A strategy for every position of a 2-player limit game, seen through its card abstraction:
// action probabilities at an information set (round, node, bucket), where node is the
// decision node's id_in_round in the game's BettingTree and probabilities follow that
// node's `actions` order. Solver tables, strategy files and baseline bots all implement it;
// best response, matches and the ACPC player use only this.
#include <cstdint>
#include <span>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"

namespace hulhe {

class Policy {
 public:
  virtual ~Policy() = default;
  virtual const BettingTree& tree() const = 0;
  virtual const CardAbstraction& abstraction() const = 0;
  // out.size() == the node's num_actions; the values sum to 1.
  virtual void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                                    std::span<double> out) const = 0;
};

}  // namespace hulhe
