#pragma once
// The solver tables' average strategy seen as a Policy (the strategy CFR converges to;
// Zinkevich et al. 2007): what best response, export and matches read.
#include "abstraction/policy.h"
#include "public_tree/strategy_tables.h"

namespace hulhe {

class AveragePolicy final : public Policy {
 public:
  // Keeps references: all three must outlive the policy.
  AveragePolicy(const BettingTree& tree, const CardAbstraction& abstraction,
                const StrategyTables& tables)
      : tree_(tree), abstraction_(abstraction), tables_(tables) {}

  const BettingTree& tree() const override { return tree_; }
  const CardAbstraction& abstraction() const override { return abstraction_; }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override;

 private:
  const BettingTree& tree_;
  const CardAbstraction& abstraction_;
  const StrategyTables& tables_;
};

}  // namespace hulhe
