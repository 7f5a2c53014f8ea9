#include "agents/baseline_agents.h"

#include "agents/bet_sizing.h"

namespace hulhe {

const std::vector<std::string>& baseline_agent_names() {
  static const std::vector<std::string> names{"always-fold", "always-call", "always-raise",
                                              "uniform"};
  return names;
}

std::string BaselineAgent::name() const {
  return baseline_agent_names()[static_cast<int>(kind_)];
}

BetAction BaselineAgent::act(const GameState& state, int /*position*/, SplitMix64& rng) {
  switch (kind_) {
    case BaselineAgentKind::kAlwaysFold:
      return fold_or_check(state);
    case BaselineAgentKind::kAlwaysCall:
      return {Action::kCall, 0};
    case BaselineAgentKind::kAlwaysRaise: {
      std::int32_t lo = 0;
      if (!state.can_raise(&lo)) return {Action::kCall, 0};
      return {Action::kRaise, state.game().betting_type == BettingType::kLimit ? 0 : lo};
    }
    case BaselineAgentKind::kUniform: {
      Action kinds[kNumActionKinds];
      int n = 0;
      if (state.can_fold()) kinds[n++] = Action::kFold;
      kinds[n++] = Action::kCall;
      std::int32_t lo = 0, hi = 0;
      if (state.can_raise(&lo, &hi)) kinds[n++] = Action::kRaise;
      const Action a = kinds[rng.below(static_cast<std::uint32_t>(n))];
      if (a != Action::kRaise || state.game().betting_type == BettingType::kLimit) return {a, 0};
      return {a,
              lo + static_cast<std::int32_t>(rng.below(static_cast<std::uint32_t>(hi - lo + 1)))};
    }
  }
  return {Action::kCall, 0};
}

std::optional<ActionProbabilities> BaselineAgent::action_probabilities(const GameState& state,
                                                                       int /*position*/) {
  // The kinds act() chooses from, each with its chance (the card-blind rules above).
  ActionProbabilities p{};
  auto at = [&p](Action a) -> double& { return p[static_cast<int>(a)]; };
  switch (kind_) {
    case BaselineAgentKind::kAlwaysFold:
      at(fold_or_check(state).type) = 1.0;
      break;
    case BaselineAgentKind::kAlwaysCall:
      at(Action::kCall) = 1.0;
      break;
    case BaselineAgentKind::kAlwaysRaise:
      at(state.can_raise() ? Action::kRaise : Action::kCall) = 1.0;
      break;
    case BaselineAgentKind::kUniform: {
      const int n = 1 + int{state.can_fold()} + int{state.can_raise()};
      at(Action::kCall) = 1.0 / n;
      if (state.can_fold()) at(Action::kFold) = 1.0 / n;
      if (state.can_raise()) at(Action::kRaise) = 1.0 / n;
      break;
    }
  }
  return p;
}

}  // namespace hulhe
