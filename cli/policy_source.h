#pragma once
// Where `exploit` and `compare` get a strategy from, with everything it refers to kept
// alive: a strategy file (`--strategy`; clustered ones need their bucket map), a solver
// checkpoint (`--checkpoint`), or a built-in baseline of a game (`bot:NAME` / `--policy`).
#include <memory>
#include <optional>
#include <string>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "solver/checkpoint.h"
#include "abstraction/policy.h"

namespace hulhe::cli {

struct PolicySource {
  std::unique_ptr<BettingTree> tree;
  std::shared_ptr<const CardAbstraction> abstraction;
  std::unique_ptr<Checkpoint> checkpoint;
  std::unique_ptr<Policy> policy;
  std::string description;
};

// A strategy file. `buckets`: the bucket map of a clustered strategy (of `game`, default
// HULHE); empty for lossless ones.
PolicySource load_strategy_file(const std::string& path, const std::string& buckets,
                                const std::string& game_path);
PolicySource load_checkpoint(const std::string& path);
// A baseline policy of a game. Hold'em games (2 hole cards) use one bucket per round (the
// baselines ignore the cards); others the lossless abstraction, as before.
PolicySource load_baseline(const std::string& name, const std::string& game_path);
// "bot:NAME" or a strategy-file path.
PolicySource load_agent(const std::string& spec, const std::string& buckets,
                        const std::string& game_path);

// The game of `--game FILE`, or HULHE when empty.
GameDefinition game_from_option(const std::string& game_path);

}  // namespace hulhe::cli
