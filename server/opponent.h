#pragma once
// What a person plays against in `hulhe serve`: a strategy file (loaded once, shared by every
// session) or a built-in bot, and the policy the strategy explorer shows: the strategy file's,
// or a baseline bot's (always-fold, always-call, always-raise, uniform); the other bots decide
// at play time and have no table to show.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "agents/agent_factory.h"
#include "game/game_definition.h"

namespace hulhe::server {

struct Opponent {
  std::string name;  // for the page and the store: the file's name or the bot's
  GameDefinition game;
  std::function<std::unique_ptr<Agent>()> make_agent;  // one agent per session
  std::shared_ptr<const Policy> policy;                // null: no explorer
};

// `spec` in the agent factory's grammar (a strategy-file path or bot:NAME[:params]); `game`
// as `hulhe play` takes it (a strategy file plays its own game). InputError for a bad file
// or bot.
Opponent load_opponent(const std::string& spec, const std::optional<GameDefinition>& game);

}  // namespace hulhe::server
