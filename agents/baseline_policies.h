#pragma once
// Baseline bots as Policy: the reference points every strategy is measured against.
//   uniform       every legal action with equal probability
//   always-call   check/call everywhere (never folds, never raises)
//   always-raise  bet/raise whenever a raise is legal, else call
//   always-fold   fold whenever facing a bet, else check (exploitable for exactly 750 mbb/g
//                 in HULHE: it gives up its blind)
// They ignore the cards, so the abstraction only fixes which information sets exist.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "abstraction/policy.h"
#include "game/betting_tree.h"

namespace hulhe {

enum class BaselineKind { kUniform, kAlwaysCall, kAlwaysRaise, kAlwaysFold };

class BaselinePolicy final : public Policy {
 public:
  // `tree` and `abstraction` must outlive the policy.
  BaselinePolicy(BaselineKind kind, const BettingTree& tree, const CardAbstraction& abstraction)
      : kind_(kind), tree_(tree), abstraction_(abstraction) {}

  const BettingTree& tree() const override { return tree_; }
  const CardAbstraction& abstraction() const override { return abstraction_; }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override;
  BaselineKind kind() const { return kind_; }

 private:
  BaselineKind kind_;
  const BettingTree& tree_;
  const CardAbstraction& abstraction_;
};

// "uniform", "always-call", "always-raise", "always-fold".
const std::vector<std::string>& baseline_policy_names();
// Throws InputError naming the unknown name and listing the known ones.
std::unique_ptr<Policy> make_baseline_policy(std::string_view name, const BettingTree& tree,
                                             const CardAbstraction& abstraction);

}  // namespace hulhe
