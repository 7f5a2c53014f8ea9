#include "agents/baseline_policies.h"

#include <algorithm>

#include "util/input_error.h"

namespace hulhe {

void BaselinePolicy::action_probabilities(int round, std::int32_t node, std::int32_t /*bucket*/,
                                          std::span<double> out) const {
  const BettingNode& n = tree_.node(tree_.decision_node(round, node));
  std::fill(out.begin(), out.end(), 0.0);
  if (kind_ == BaselineKind::kUniform) {
    std::fill(out.begin(), out.end(), 1.0 / static_cast<double>(out.size()));
    return;
  }
  // Call is legal at every decision node of a limit game; raise only below the cap.
  const Action wanted = kind_ == BaselineKind::kAlwaysRaise  ? Action::kRaise
                        : kind_ == BaselineKind::kAlwaysFold ? Action::kFold
                                                             : Action::kCall;
  int call_slot = -1;
  for (int a = 0; a < n.num_actions; ++a) {
    if (n.actions[a] == wanted) {
      out[a] = 1.0;
      return;
    }
    if (n.actions[a] == Action::kCall) call_slot = a;
  }
  out[std::max(call_slot, 0)] = 1.0;  // call is always legal in limit games
}

const std::vector<std::string>& baseline_policy_names() {
  static const std::vector<std::string> names{"uniform", "always-call", "always-raise",
                                              "always-fold"};
  return names;
}

std::unique_ptr<Policy> make_baseline_policy(std::string_view name, const BettingTree& tree,
                                             const CardAbstraction& abstraction) {
  static constexpr BaselineKind kinds[] = {BaselineKind::kUniform, BaselineKind::kAlwaysCall,
                                           BaselineKind::kAlwaysRaise, BaselineKind::kAlwaysFold};
  const auto& names = baseline_policy_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return std::make_unique<BaselinePolicy>(kinds[i], tree, abstraction);
  throw InputError("unknown policy '" + std::string(name) +
                   "': expected uniform, always-call, always-raise or always-fold");
}

}  // namespace hulhe
