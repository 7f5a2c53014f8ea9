#pragma once
// Games and helpers shared by the solver tests: the shipped Kuhn and Leduc definitions with
// their lossless abstractions,.
#include <memory>
#include <span>
#include <string>

#include "abstraction/lossless_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"

namespace hulhe::testing {

struct SmallGame {
  GameDefinition game;
  BettingTree tree;
  LosslessAbstraction abstraction;

  explicit SmallGame(const std::string& name)
      : game(GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name +
                                       ".game")),
        tree(game),
        abstraction(game) {}
};

// The first node of `round` after every earlier round was checked (or called) through.
inline std::int32_t checked_to(const BettingTree& tree, int round) {
  std::int32_t i = tree.root();
  while (tree.node(i).round < round) {
    const BettingNode& n = tree.node(i);
    int slot = 0;
    while (n.actions[slot] != Action::kCall) ++slot;
    i = n.child[slot];
  }
  return i;
}

inline constexpr double kKuhnValue = -1.0 / 18.0;
inline constexpr double kLeducValue = -0.085606424078;

}  // namespace hulhe::testing
