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

inline constexpr double kKuhnValue = -1.0 / 18.0;
inline constexpr double kLeducValue = -0.085606424078;

}  // namespace hulhe::testing
