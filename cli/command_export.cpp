// `hulhe export --checkpoint PATH --out FILE`: the checkpoint's average strategy as a
// compact strategy file (strategies/strategy_file.h).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "game/betting_tree.h"
#include "game/input_file.h"
#include "game/output_file.h"
#include "solver/average_policy.h"
#include "abstraction/abstraction_factory.h"
#include "solver/checkpoint.h"
#include "strategies/strategy_file.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string checkpoint;
  std::string out;
};

void run(const Options& o) {
  require_input_file(o.checkpoint, "checkpoint");
  check_output_path(o.out, "strategy file", {o.checkpoint});
  const Checkpoint c = read_checkpoint(o.checkpoint);
  check_output_path(o.out, "strategy file", {o.checkpoint, c.bucket_map});
  const GameDefinition game = c.game();
  const BettingTree tree(game);
  const auto abstraction = make_abstraction(c.abstraction_kind, game, c.bucket_map);
  check_checkpoint_matches(c, o.checkpoint, game, *abstraction);
  const AveragePolicy policy(tree, *abstraction, c.tables);
  StrategyFileMetadata meta;
  meta.checkpoint_hash = file_hash(o.checkpoint);
  meta.algorithm = c.params.algorithm;
  meta.iterations = c.iterations;
  meta.abstraction_kind = c.abstraction_kind;
  meta.bucket_map = c.bucket_map;
  write_strategy_file(o.out, policy, meta);
  fmt::print("exported {} ({}, {} iterations of {}, {} information sets) to {}\n", o.checkpoint,
             game.name, c.iterations, c.params.algorithm, c.tables.num_information_sets(), o.out);
}

}  // namespace

void add_export_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd =
      app.add_subcommand("export", "Write a checkpoint's average strategy to a strategy file");
  cmd->add_option("--checkpoint", o->checkpoint, "solver checkpoint (.ckpt)")->required();
  cmd->add_option("--out", o->out, "strategy file to write (.strategy)")->required();
  cmd->callback([o] { run(*o); });
}

}  // namespace hulhe::cli
