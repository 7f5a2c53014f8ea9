#include "agents/agent_factory.h"

#include <filesystem>
#include <map>
#include <mutex>

#include "abstraction/abstraction_factory.h"
#include "abstraction/card_blind_abstraction.h"
#include "agents/baseline_agents.h"
#include "agents/baseline_policies.h"
#include "agents/equity_threshold_bot.h"
#include "agents/function_bot.h"
#include "agents/policy_agent.h"
#include "agents/rule_list_bot.h"
#include "game/betting_tree.h"
#include "strategy_files/strategy_file.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& x : items) {
    if (!s.empty()) s += ", ";
    s += x;
  }
  return s;
}

// A game in words, for messages (a strategy file keeps the rules, not the file's name).
std::string describe_game(const GameDefinition& g) {
  if (!g.name.empty()) return "'" + g.name + "'";
  return "a " + std::to_string(g.num_players) + "-player " +
         (g.betting_type == BettingType::kLimit ? "limit" : "no-limit") + " game of " +
         std::to_string(g.num_rounds) + " round" + (g.num_rounds == 1 ? "" : "s") + " and " +
         std::to_string(g.deck_size()) + " cards";
}

// `game`: the game played, or none (the file's own).
AgentSource load_strategy_file(const AgentSpec& spec, const GameDefinition* game) {
  if (!std::filesystem::exists(spec.path))
    throw InputError("unknown agent '" + spec.spec +
                     "': not a file; name a strategy file or bot:NAME[:params.toml] (bots: " +
                     join(bot_names()) + ")");
  auto file = std::make_shared<const StrategyFile>(StrategyFile::read(spec.path));
  if (game != nullptr && file->game().hash() != game->hash())
    throw InputError("agent '" + spec.spec + "' is a strategy for " + describe_game(file->game()) +
                     ", not for the game played (" + describe_game(*game) + ")");
  AgentSource s;
  s.spec = spec.spec;
  s.name = std::filesystem::path(spec.path).filename().string();
  s.files = spec.files();
  s.game = file->game();
  s.make = [file, name = s.name] { return std::make_unique<PolicyAgent>(file, name); };
  s.policy = file;
  return s;
}

AgentSource load_bot(const AgentSpec& spec, const GameDefinition& game) {
  AgentSource s;
  s.spec = spec.spec;
  s.name = spec.name;
  s.files = spec.files();
  s.game = game;
  if (!spec.params.empty()) s.name += ':' + std::filesystem::path(spec.params).stem().string();
  const auto& baselines = baseline_agent_names();
  for (std::size_t k = 0; k < baselines.size(); ++k)
    if (spec.name == baselines[k]) {
      if (!spec.params.empty())
        throw InputError("agent '" + spec.spec + "': bot '" + spec.name +
                         "' takes no parameters file");
      const auto kind = static_cast<BaselineAgentKind>(k);
      s.make = [kind] { return std::make_unique<BaselineAgent>(kind); };
      return s;
    }
  if (spec.name == "equity") {
    BotConfig config = BotConfig::from_file(spec.params, spec.name);
    const EquityThresholdParams p = EquityThresholdParams::from_config(config);
    s.make = [game, p] { return std::make_unique<EquityThresholdBot>(game, p); };
    return s;
  }
  if (spec.name == "function") {
    BotConfig config = BotConfig::from_file(spec.params, spec.name);
    const FunctionBotParams p = FunctionBotParams::from_config(config);
    s.make = [game, p] { return std::make_unique<FunctionBot>(game, p); };
    return s;
  }
  if (spec.name == "rules") {
    if (spec.params.empty())
      throw InputError("agent '" + spec.spec +
                       "': the rule-list bot needs its rules, bot:rules:FILE.toml");
    auto rules = std::make_shared<const RuleList>(RuleList::from_file(spec.params, game));
    s.make = [game, rules] { return std::make_unique<RuleListBot>(game, rules); };
    return s;
  }
  throw InputError("unknown agent '" + spec.spec + "': no bot named '" + spec.name +
                   "' (bots: " + join(bot_names()) + ")");
}

struct SchemeRegistry {
  std::mutex mutex;
  std::map<std::string, AgentScheme> schemes;
};
SchemeRegistry& scheme_registry() {
  static SchemeRegistry registry;
  return registry;
}
const AgentScheme* find_scheme(const std::string& name) {
  SchemeRegistry& r = scheme_registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.schemes.find(name);
  return it == r.schemes.end() ? nullptr : &it->second;  // map nodes never move
}

// `owner` holds the policy and what it refers to; the result shares its ownership.
template <typename Owner>
PolicySource own(std::shared_ptr<Owner> owner, const Policy* policy, std::string description) {
  return {std::shared_ptr<const Policy>(std::move(owner), policy), std::move(description)};
}

}  // namespace

AgentSpec AgentSpec::parse(const std::string& spec) {
  AgentSpec s;
  s.spec = spec;
  if (const auto colon = spec.find(':');
      colon != std::string::npos && colon > 0 && find_scheme(spec.substr(0, colon)) != nullptr) {
    s.scheme = spec.substr(0, colon);
    const std::string rest = spec.substr(colon + 1);
    s.path = rest.substr(0, rest.find(':'));
    return s;
  }
  if (!spec.starts_with("bot:")) {
    s.path = spec;
    return s;
  }
  s.bot = true;
  const std::string rest = spec.substr(4);
  const auto colon = rest.find(':');
  s.name = rest.substr(0, colon);
  if (colon != std::string::npos) s.params = rest.substr(colon + 1);
  return s;
}

std::vector<std::string> AgentSpec::files() const {
  if (!bot) return {path};
  if (!params.empty()) return {params};
  return {};
}

const std::vector<std::string>& bot_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = baseline_agent_names();
    n.insert(n.end(), {"equity", "function", "rules"});
    return n;
  }();
  return names;
}

void register_agent_scheme(const std::string& name, AgentScheme scheme) {
  SchemeRegistry& r = scheme_registry();
  std::lock_guard lock(r.mutex);
  r.schemes[name] = std::move(scheme);
}

AgentSource load_agent(const std::string& spec, const GameDefinition& game) {
  const AgentSpec s = AgentSpec::parse(spec);
  if (!s.scheme.empty()) return find_scheme(s.scheme)->load(s, game);
  return s.bot ? load_bot(s, game) : load_strategy_file(s, &game);
}

AgentSource load_agent(const std::string& spec, const std::optional<GameDefinition>& game) {
  const AgentSpec s = AgentSpec::parse(spec);
  if (!s.scheme.empty()) return find_scheme(s.scheme)->load(s, game);
  if (s.bot) return load_bot(s, game ? *game : GameDefinition::holdem_limit_2p());
  return load_strategy_file(s, game ? &*game : nullptr);
}

std::unique_ptr<Agent> make_agent(const std::string& spec, const GameDefinition& game) {
  return load_agent(spec, game).make();
}

PolicySource load_strategy_policy(const std::string& path, const std::string& buckets,
                                  const GameDefinition& game) {
  if (buckets.empty())
    return {std::make_shared<const StrategyFile>(StrategyFile::read(path)), path};
  std::shared_ptr<const CardAbstraction> abstraction = make_abstraction("buckets", game, buckets);
  return {std::make_shared<const StrategyFile>(StrategyFile::read(path, abstraction)), path};
}

PolicySource load_baseline_policy(const std::string& name, const GameDefinition& game) {
  struct Baseline {
    std::unique_ptr<BettingTree> tree;
    std::unique_ptr<CardAbstraction> abstraction;
    std::unique_ptr<Policy> policy;
  };
  auto b = std::make_shared<Baseline>();
  b->tree = std::make_unique<BettingTree>(game);
  if (game.num_hole_cards == 2)
    b->abstraction = std::make_unique<CardBlindAbstraction>(game);
  else
    b->abstraction = make_abstraction("lossless", game, "");
  b->policy = make_baseline_policy(name, *b->tree, *b->abstraction);
  const Policy* policy = b->policy.get();
  return own(std::move(b), policy, name + " in " + game.name);
}

PolicySource load_policy(const std::string& spec, const std::string& buckets,
                         const GameDefinition& game) {
  const AgentSpec s = AgentSpec::parse(spec);
  if (!s.scheme.empty())
    throw InputError("agent '" + spec + "' decides at play time: it is not a policy (name its " +
                     "strategy file instead)");
  if (!s.bot) return load_strategy_policy(s.path, buckets, game);
  // Only the baselines are tables over a betting tree; the other bots decide at play time
  // (an unknown policy, listing the baselines).
  return load_baseline_policy(spec.substr(4), game);
}

}  // namespace hulhe
