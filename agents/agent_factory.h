#pragma once
// The one way every command names an agent or a policy (`hulhe play`, `match`, `tournament`,
// `compare`, `exploit`, `lbr`):
//   PATH                         a strategy file (`hulhe export`), played by sampling its policy
//   bot:always-fold | bot:always-call | bot:always-raise | bot:uniform
//   bot:equity[:params.toml]     equity-threshold bot (agents/equity_threshold_bot.h)
//   bot:function[:params.toml]   4-D function bot (agents/function_bot.h)
//   bot:rules:rules.toml         rule-list bot (agents/rule_list_bot.h; the file is required)
//   SCHEME:FILE[:options]        an agent of a library above this one, registered at start-up
//                                (register_agent_scheme): resolve:FILE, resolving/resolving_agent.h
// Agents take every form. Policies (best response, `compare`) take strategy files and the four
// baselines, the bots that are policies over a betting tree; a solver checkpoint is a policy
// too, loaded a layer above (cli/policy_source.h) because it needs solver/.
// Each is checked against the game it will play: a strategy file of another game, a rule
// that cannot apply to it, an unknown bot or an unreadable file is an InputError naming it.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "abstraction/policy.h"
#include "agents/agent.h"
#include "game/game_definition.h"

namespace hulhe {

// A spec taken apart, before any file is read (so that outputs can be checked against the
// files it names first).
struct AgentSpec {
  std::string spec;    // as given
  bool bot = false;    // "bot:..."
  std::string path;    // the strategy file; empty for a bot
  std::string name;    // the bot's name; empty for a strategy file
  std::string params;  // the bot's parameters file; empty if none
  // A registered scheme's name ("resolve"); `path` is then the file after "NAME:".
  std::string scheme;
  // The files it reads (outputs must not be one).
  std::vector<std::string> files() const;

  static AgentSpec parse(const std::string& spec);
};

// An agent loaded once (files read, checked), from which any number of independent copies
// are made: one per thread and seat in a match. Copies share what was loaded, read-only.
struct AgentSource {
  std::string spec;                // as given
  std::string name;                // for tables and logs, e.g. "equity", "a.strategy"
  std::vector<std::string> files;  // the files it reads (outputs must not be one)
  std::function<std::unique_ptr<Agent>()> make;
  GameDefinition game;  // the game it plays (a strategy file's: with the file's name)
  // A strategy file's tables, shared with its agents (the strategy explorer of `hulhe serve`
  // shows them); null for bots.
  std::shared_ptr<const Policy> policy;
};

// Agents of a library above agents/ (resolving/'s `resolve:FILE[:options]`): the program
// registers each scheme once at start-up (cli/main.cpp), so every command's spec goes through
// load_agent while agents/ includes nothing it does not link (docs/DESIGN.md, layers).
struct AgentScheme {
  // The agent of `spec`; `game`: the game played, or none (the file's own).
  std::function<AgentSource(const AgentSpec& spec, const std::optional<GameDefinition>& game)> load;
};
void register_agent_scheme(const std::string& name, AgentScheme scheme);

AgentSource load_agent(const std::string& spec, const GameDefinition& game);
// For `hulhe play`, whose game may be left out: a strategy file plays its own game (and must
// be of `game` when one is given); a bot plays `game`, default heads-up limit hold'em.
AgentSource load_agent(const std::string& spec, const std::optional<GameDefinition>& game);
std::unique_ptr<Agent> make_agent(const std::string& spec, const GameDefinition& game);

// "always-fold", ..., "equity", "function", "rules".
const std::vector<std::string>& bot_names();

// A policy with everything it refers to (tree, abstraction, tables) kept alive by the one
// pointer, so that it can be handed around and played (PolicyAgent) as it is.
struct PolicySource {
  std::shared_ptr<const Policy> policy;
  std::string description;  // for reports: the path, or "NAME in GAME"
};

// PATH or bot:NAME (a baseline). `buckets`: the bucket map of a clustered strategy file, of
// `game`; empty for files that need none.
PolicySource load_policy(const std::string& spec, const std::string& buckets,
                         const GameDefinition& game);
PolicySource load_strategy_policy(const std::string& path, const std::string& buckets,
                                  const GameDefinition& game);
// A baseline of `game`. Hold'em games (2 hole cards) use one bucket per round (the baselines
// ignore the cards); others the lossless abstraction.
PolicySource load_baseline_policy(const std::string& name, const GameDefinition& game);

}  // namespace hulhe
