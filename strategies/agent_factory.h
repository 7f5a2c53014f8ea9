#pragma once
// Agents by name, as the command line gives them:
//   PATH                     a strategy file (`hulhe export`), played by sampling its policy
//   bot:always-fold | bot:always-call | bot:always-raise | bot:uniform
//   bot:equity[:params.toml]     equity-threshold bot (strategies/equity_threshold_bot.h)
//   bot:function[:params.toml]   4-D function bot (strategies/function_bot.h)
//   bot:rules:rules.toml         rule-list bot (strategies/rule_list_bot.h; the file is required)
// Each is checked against the game it will play: a strategy file of another game, a rule
// that cannot apply to it, an unknown bot or an unreadable file is an InputError naming the
// agent.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "game/game_definition.h"
#include "strategies/agent.h"

namespace hulhe {

// An agent loaded once (files read, checked), from which any number of independent copies
// are made: one per thread and seat in a match. Copies share what was loaded, read-only.
struct AgentSource {
  std::string spec;                // as given
  std::string name;                // for tables and logs, e.g. "equity", "a.strategy"
  std::vector<std::string> files;  // the files it reads (outputs must not be one)
  std::function<std::unique_ptr<Agent>()> make;
};

AgentSource load_agent(const std::string& spec, const GameDefinition& game);
std::unique_ptr<Agent> make_agent(const std::string& spec, const GameDefinition& game);

// "always-fold", ..., "equity", "function", "rules".
const std::vector<std::string>& bot_names();

}  // namespace hulhe
