#include "resolving/resolve_agent_scheme.h"

#include <filesystem>

#include "agents/agent_factory.h"
#include "resolving/resolving_agent.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

AgentSource load_resolving_agent(const AgentSpec& spec, const std::optional<GameDefinition>& game) {
  const ResolvingAgentSpec parsed = ResolvingAgentSpec::parse(spec.spec);
  // Said here: the factory's message for a missing file offers bots, which are no blueprint.
  if (!std::filesystem::exists(parsed.path))
    throw InputError("agent '" + spec.spec + "': no blueprint strategy file " + parsed.path);
  // The blueprint goes through the factory: the same checks as a plain strategy file.
  const AgentSource blueprint = load_agent(parsed.path, game);
  if (!blueprint.policy)
    throw InputError("agent '" + spec.spec + "': the blueprint must be a strategy file");
  const GameDefinition& g = blueprint.game;
  if (g.num_players != 2 || g.betting_type != BettingType::kLimit || g.num_hole_cards != 2)
    throw InputError("agent '" + spec.spec +
                     "': re-solving needs a 2-player limit hold'em game with 2 hole cards");
  ResolvingAgentOptions options = parsed.options;
  try {
    options.first_round = parsed.first_round(g);
  } catch (const InputError& e) {
    throw InputError("agent '" + spec.spec + "': " + e.what());
  }
  auto tree = std::make_shared<const BettingTree>(g);
  AgentSource s;
  s.spec = spec.spec;
  s.name = "resolve:" + std::filesystem::path(parsed.path).filename().string();
  s.files = spec.files();
  s.game = g;
  s.policy = nullptr;  // it decides at play time: no table to show
  s.make = [policy = blueprint.policy, tree, options, name = s.name] {
    return std::make_unique<ResolvingAgent>(policy, tree, options, name);
  };
  return s;
}

}  // namespace

void register_resolving_agent() {
  register_agent_scheme("resolve", AgentScheme{load_resolving_agent});
}

}  // namespace hulhe
