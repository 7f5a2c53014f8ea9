#pragma once
// A Leduc strategy with uneven probabilities for tests that need a real policy: `iterations`
// of CFR+ over the lossless abstraction, kept alive with its tree, abstraction and tables
// (the policy reads them), so an object of this type must outlive the policy's users.
#include <memory>

#include "abstraction/lossless_abstraction.h"
#include "abstraction/policy.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "public_tree/strategy_tables.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "tests/support/shipped_games.h"

namespace hulhe::testing {

struct SolvedLeduc {
  explicit SolvedLeduc(int iterations) {
    CfrParameters params;
    params.algorithm = "cfr+";
    make_cfr_algorithm(params, tree, abstraction, tables)->run(1, iterations, 1);
    policy = std::make_shared<AveragePolicy>(tree, abstraction, tables);
  }
  SolvedLeduc(const SolvedLeduc&) = delete;
  SolvedLeduc& operator=(const SolvedLeduc&) = delete;

  const GameDefinition& game = shipped_game("leduc");
  BettingTree tree{game};
  LosslessAbstraction abstraction{game};
  StrategyTables tables{tree, abstraction};
  std::shared_ptr<const Policy> policy;
};

}  // namespace hulhe::testing
