#pragma once
// The HULHE strategy file a benchmark reads: $HULHE_STRATEGY when set, else a policy over a
// synthetic 169-50-50-50 table (hulhe_fixtures.h's modulo buckets) written once to a
// temporary file that lives until the program ends.
#include <cstdlib>
#include <memory>
#include <string>

#include "abstraction/policy.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"

namespace hulhe::testing {

// make_policy(tree, abstraction) returns the policy to write as a std::unique_ptr<Policy>;
// `name` is the temporary file's.
template <typename MakePolicy>
std::string strategy_file_under_test(const std::string& name, MakePolicy make_policy) {
  if (const char* p = std::getenv("HULHE_STRATEGY")) return std::string(p);
  static const TempFolder dir;  // lives until the program ends
  const std::string path = dir / name;
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const BettingTree tree(game);
  const PackedBucketAbstraction abstraction(modulo_packed_rounds({169, 50, 50, 50}), 1,
                                            "synthetic 169-50-50-50");
  const std::unique_ptr<const Policy> policy = make_policy(tree, abstraction);
  write_strategy_file(path, *policy, StrategyFileMetadata{});
  return path;
}

}  // namespace hulhe::testing
