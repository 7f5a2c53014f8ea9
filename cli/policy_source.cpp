#include "cli/policy_source.h"

#include <fmt/format.h>

#include <filesystem>

#include "abstraction/abstraction_factory.h"
#include "abstraction/card_blind_abstraction.h"
#include "util/input_error.h"
#include "solver/average_policy.h"
#include "strategies/baseline_policies.h"
#include "strategies/strategy_file.h"

namespace hulhe::cli {

GameDefinition game_from_option(const std::string& game_path) {
  if (game_path.empty()) return GameDefinition::holdem_limit_2p();
  GameDefinition game = GameDefinition::from_file(game_path);
  game.name = std::filesystem::path(game_path).stem().string();
  return game;
}

PolicySource load_strategy_file(const std::string& path, const std::string& buckets,
                                const std::string& game_path) {
  PolicySource s;
  std::unique_ptr<StrategyFile> file;
  if (buckets.empty()) {
    file = std::make_unique<StrategyFile>(StrategyFile::read(path));
  } else {
    const GameDefinition game = game_from_option(game_path);
    std::shared_ptr<const CardAbstraction> abs = make_abstraction("buckets", game, buckets);
    file = std::make_unique<StrategyFile>(StrategyFile::read(path, abs));
  }
  s.description = path;
  s.policy = std::move(file);
  return s;
}

PolicySource load_checkpoint(const std::string& path) {
  PolicySource s;
  s.checkpoint = std::make_unique<Checkpoint>(read_checkpoint(path));
  const Checkpoint& c = *s.checkpoint;
  const GameDefinition game = c.game();
  s.tree = std::make_unique<BettingTree>(game);
  s.abstraction = make_abstraction(c.abstraction_kind, game, c.bucket_map);
  check_checkpoint_matches(c, path, game, *s.abstraction);
  s.policy = std::make_unique<AveragePolicy>(*s.tree, *s.abstraction, c.tables);
  s.description = fmt::format("{} ({} iterations of {})", path, c.iterations, c.params.algorithm);
  return s;
}

PolicySource load_baseline(const std::string& name, const std::string& game_path) {
  PolicySource s;
  const GameDefinition game = game_from_option(game_path);
  s.tree = std::make_unique<BettingTree>(game);
  if (game.num_hole_cards == 2)
    s.abstraction = std::make_shared<CardBlindAbstraction>(game);
  else
    s.abstraction = make_abstraction("lossless", game, "");
  s.policy = make_baseline_policy(name, *s.tree, *s.abstraction);
  s.description = fmt::format("{} in {}", name, game.name);
  return s;
}

PolicySource load_agent(const std::string& spec, const std::string& buckets,
                        const std::string& game_path) {
  if (spec.rfind("bot:", 0) == 0) return load_baseline(spec.substr(4), game_path);
  if (spec.size() > 5 && spec.substr(spec.size() - 5) == ".ckpt") return load_checkpoint(spec);
  return load_strategy_file(spec, buckets, game_path);
}

}  // namespace hulhe::cli
