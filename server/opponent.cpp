#include "server/opponent.h"

#include <algorithm>

namespace hulhe::server {

Opponent load_opponent(const std::string& spec, const std::optional<GameDefinition>& game) {
  const AgentSpec parsed = AgentSpec::parse(spec);
  const AgentSource source = load_agent(spec, game);
  Opponent o;
  o.name = source.name;
  o.game = source.game;
  o.make_agent = source.make;
  o.policy = source.policy;  // a strategy file's tables, read once for agents and explorer
  static const std::vector<std::string> kBaselines = {"always-fold", "always-call", "always-raise",
                                                      "uniform"};
  if (parsed.bot && parsed.params.empty() &&
      std::find(kBaselines.begin(), kBaselines.end(), parsed.name) != kBaselines.end())
    o.policy = load_baseline_policy(parsed.name, o.game).policy;
  return o;
}

}  // namespace hulhe::server
