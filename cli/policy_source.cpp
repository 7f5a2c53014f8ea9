#include "cli/policy_source.h"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "abstraction/abstraction_factory.h"
#include "solver/average_policy.h"
#include "solver/checkpoint.h"
#include "util/input_error.h"

namespace hulhe::cli {
namespace {

// Checkpoints by name as before (.ckpt), and by their magic whatever the name.
bool is_checkpoint(const std::string& path) {
  if (path.ends_with(".ckpt") && path.size() > 5) return true;
  char magic[8] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(magic, sizeof magic) && std::memcmp(magic, "HULHECKP", sizeof magic) == 0;
}

}  // namespace

PolicySource load_strategy_file(const std::string& path, const std::string& buckets,
                                const std::string& game_path) {
  // --game is read only for a bucket map: a lossless file carries its game.
  return load_strategy_policy(
      path, buckets,
      buckets.empty() ? GameDefinition::holdem_limit_2p() : GameDefinition::from_option(game_path));
}

PolicySource load_checkpoint(const std::string& path) {
  struct Loaded {
    std::unique_ptr<Checkpoint> checkpoint;
    std::unique_ptr<BettingTree> tree;
    std::unique_ptr<CardAbstraction> abstraction;
    std::unique_ptr<AveragePolicy> policy;
  };
  auto s = std::make_shared<Loaded>();
  s->checkpoint = std::make_unique<Checkpoint>(read_checkpoint(path));
  const Checkpoint& c = *s->checkpoint;
  const GameDefinition game = c.game();
  s->tree = std::make_unique<BettingTree>(game);
  s->abstraction = make_abstraction(c.abstraction_kind, game, c.bucket_map);
  check_checkpoint_matches(c, path, game, *s->abstraction);
  s->policy = std::make_unique<AveragePolicy>(*s->tree, *s->abstraction, c.tables);
  std::string description =
      fmt::format("{} ({} iterations of {})", path, c.iterations, c.params.algorithm);
  const Policy* policy = s->policy.get();
  return {std::shared_ptr<const Policy>(std::move(s), policy), std::move(description)};
}

PolicySource load_baseline(const std::string& name, const std::string& game_path) {
  return load_baseline_policy(name, GameDefinition::from_option(game_path));
}

PolicySource load_policy_spec(const std::string& spec, const std::string& buckets,
                              const std::string& game_path) {
  const AgentSpec s = AgentSpec::parse(spec);
  if (s.bot) return load_baseline(spec.substr(4), game_path);
  if (is_checkpoint(s.path)) return load_checkpoint(s.path);
  return load_strategy_file(s.path, buckets, game_path);
}

void PolicyOptions::add_policy_options(CLI::App& cmd) {
  cmd.add_option("--strategy", strategy, "strategy file (.strategy)");
  cmd.add_option("--buckets", buckets,
                 "bucket map of a clustered strategy file (of --game, default HULHE)");
  cmd.add_option("--checkpoint", checkpoint, "solver checkpoint (.ckpt)");
  cmd.add_option("--game", game, "game definition (.game), with --policy or --buckets");
  cmd.add_option("--policy", policy,
                 "built-in policy: uniform, always-call, always-raise, always-fold");
}

void PolicyOptions::check_source() const {
  const int sources = !strategy.empty() + !checkpoint.empty() + !policy.empty();
  if (sources != 1)
    throw InputError(
        "give exactly one of --strategy FILE, --checkpoint PATH, --game FILE --policy NAME");
  if (!policy.empty() && game.empty()) throw InputError("--policy needs --game FILE");
  if (!game.empty() && policy.empty() && buckets.empty())
    throw InputError("--game is used with --policy NAME or --buckets MAP only");
}

PolicySource PolicyOptions::load() const {
  return !strategy.empty()     ? load_strategy_file(strategy, buckets, game)
         : !checkpoint.empty() ? load_checkpoint(checkpoint)
                               : load_baseline(policy, game);
}

}  // namespace hulhe::cli
