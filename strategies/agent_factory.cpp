#include "strategies/agent_factory.h"

#include <filesystem>

#include "util/input_error.h"
#include "strategies/baseline_agents.h"
#include "strategies/equity_threshold_bot.h"
#include "strategies/function_bot.h"
#include "strategies/policy_agent.h"
#include "strategies/rule_list_bot.h"
#include "strategies/strategy_file.h"

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

AgentSource load_strategy_file(const std::string& path, const GameDefinition& game) {
  auto file = std::make_shared<const StrategyFile>(StrategyFile::read(path));
  if (file->game().hash() != game.hash())
    throw InputError("agent '" + path + "' is a strategy for " + describe_game(file->game()) +
                     ", not for the game played (" + describe_game(game) + ")");
  AgentSource s;
  s.spec = path;
  s.name = std::filesystem::path(path).filename().string();
  s.files = {path};
  const std::string name = s.name;
  s.make = [file, name] { return std::make_unique<PolicyAgent>(file, name); };
  return s;
}

}  // namespace

const std::vector<std::string>& bot_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = baseline_agent_names();
    n.insert(n.end(), {"equity", "function", "rules"});
    return n;
  }();
  return names;
}

AgentSource load_agent(const std::string& spec, const GameDefinition& game) {
  if (!spec.starts_with("bot:")) {
    if (!std::filesystem::exists(spec))
      throw InputError("unknown agent '" + spec +
                       "': not a file; name a strategy file or bot:NAME[:params.toml] (bots: " +
                       join(bot_names()) + ")");
    return load_strategy_file(spec, game);
  }
  const std::string rest = spec.substr(4);
  const auto colon = rest.find(':');
  const std::string bot = rest.substr(0, colon);
  const std::string params = colon == std::string::npos ? "" : rest.substr(colon + 1);
  AgentSource s;
  s.spec = spec;
  s.name = bot;
  if (!params.empty()) {
    s.files = {params};
    s.name += ':';
    s.name += std::filesystem::path(params).stem().string();
  }
  const auto& baselines = baseline_agent_names();
  for (std::size_t k = 0; k < baselines.size(); ++k)
    if (bot == baselines[k]) {
      if (!params.empty())
        throw InputError("agent '" + spec + "': bot '" + bot + "' takes no parameters file");
      const auto kind = static_cast<BaselineAgentKind>(k);
      s.make = [kind] { return std::make_unique<BaselineAgent>(kind); };
      return s;
    }
  if (bot == "equity") {
    BotConfig config = BotConfig::from_file(params, bot);
    const EquityThresholdParams p = EquityThresholdParams::from_config(config);
    s.make = [game, p] { return std::make_unique<EquityThresholdBot>(game, p); };
    return s;
  }
  if (bot == "function") {
    BotConfig config = BotConfig::from_file(params, bot);
    const FunctionBotParams p = FunctionBotParams::from_config(config);
    s.make = [game, p] { return std::make_unique<FunctionBot>(game, p); };
    return s;
  }
  if (bot == "rules") {
    if (params.empty())
      throw InputError("agent '" + spec +
                       "': the rule-list bot needs its rules, bot:rules:FILE.toml");
    auto rules = std::make_shared<const RuleList>(RuleList::from_file(params, game));
    s.make = [game, rules] { return std::make_unique<RuleListBot>(game, rules); };
    return s;
  }
  throw InputError("unknown agent '" + spec + "': no bot named '" + bot +
                   "' (bots: " + join(bot_names()) + ")");
}

std::unique_ptr<Agent> make_agent(const std::string& spec, const GameDefinition& game) {
  return load_agent(spec, game).make();
}

}  // namespace hulhe
