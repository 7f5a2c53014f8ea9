#pragma once
// The policies of `exploit`, `compare` and `lbr`, in the grammar of agents/agent_factory.h
// (PATH, bot:NAME), where a PATH may also be a solver checkpoint: checkpoints need solver/,
// which agents/ and strategy_files/ do not depend on, so they are told apart and loaded here;
// strategy files and baselines are the factory's.
#include <CLI/CLI.hpp>
#include <string>

#include "agents/agent_factory.h"
#include "game/game_definition.h"

namespace hulhe::cli {

// A checkpoint (magic "HULHECKP" or a .ckpt name), a strategy file or bot:NAME (a baseline of
// --game). `buckets`: the bucket map of a clustered strategy file (of --game, default HULHE).
PolicySource load_policy_spec(const std::string& spec, const std::string& buckets,
                              const std::string& game_path);
// The single-kind options: --strategy FILE [--buckets MAP], --checkpoint PATH, --policy NAME.
PolicySource load_strategy_file(const std::string& path, const std::string& buckets,
                                const std::string& game_path);
PolicySource load_checkpoint(const std::string& path);
PolicySource load_baseline(const std::string& name, const std::string& game_path);

// `--strategy FILE [--buckets MAP] | --checkpoint PATH | --game FILE --policy NAME`: the one
// policy `exploit` and `lbr` evaluate.
struct PolicyOptions {
  std::string strategy;
  std::string buckets;
  std::string checkpoint;
  std::string game;
  std::string policy;

  void add_policy_options(CLI::App& cmd);
  // Exactly one source, and --game only where it is read; InputError otherwise.
  void check_source() const;
  PolicySource load() const;
};

}  // namespace hulhe::cli
