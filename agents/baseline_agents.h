#pragma once
// The baseline agents, for every game (2 or more players, limit or no-limit):
//   always-fold   folds whenever it faces a bet, checks otherwise
//   always-call   checks or calls, never folds, never raises
//   always-raise  raises whenever a raise is legal (no-limit: the minimum raise), else calls
//   uniform       a legal action kind (fold when facing a bet, call, raise when legal) with
//                 equal probability; a no-limit raise-to amount uniform over the legal range
// They ignore the cards. (Over a betting tree the same bots exist as Policy, for best
// response: agents/baseline_policies.h.)
#include <string>
#include <vector>

#include "agents/agent.h"

namespace hulhe {

enum class BaselineAgentKind { kAlwaysFold, kAlwaysCall, kAlwaysRaise, kUniform };

class BaselineAgent final : public Agent {
 public:
  explicit BaselineAgent(BaselineAgentKind kind) : kind_(kind) {}
  std::string name() const override;
  BetAction act(const GameState& state, int position, SplitMix64& rng) override;
  std::optional<ActionProbabilities> action_probabilities(const GameState& state,
                                                          int position) override;

 private:
  BaselineAgentKind kind_;
};

// "always-fold", "always-call", "always-raise", "uniform", in BaselineAgentKind order.
const std::vector<std::string>& baseline_agent_names();

}  // namespace hulhe
