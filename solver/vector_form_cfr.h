#pragma once
// What the vector-form CFR algorithms (vanilla CFR, CFR+, DCFR, public chance sampling)
// share: the tables, the public-tree walker and the snapshot of the current strategy
// sigma^t that a pass reads while it adds to the regrets.
#include <vector>

#include "public_tree/public_tree_traversal.h"
#include "solver/cfr_algorithm.h"

namespace hulhe {

class VectorFormCfr : public CfrAlgorithm {
 public:
  VectorFormCfr(const CfrParameters& params, const BettingTree& tree,
                const CardAbstraction& abstraction, StrategyTables& tables,
                BoardMode mode = BoardMode::kEnumerate)
      : params_(params),
        tables_(tables),
        walker_(tree, abstraction, tables, PublicTreeTraversal::kDefaultMaxBoardHands, mode) {}
  StrategyTables& tables() override { return tables_; }

 protected:
  // sigma^t of every information set, by regret matching of the current regrets.
  void snapshot_strategy() { tables_.all_current_strategies(sigma_); }

  // One pass of `traverser` over every board.
  void full_pass(int traverser, double average_weight, int threads) {
    CfrPass pass;
    pass.traverser = traverser;
    pass.strategy = sigma_.data();
    pass.set_tables(tables_);
    pass.average_weight = average_weight;
    pass.threads = threads;
    walker_.cfr_pass(pass);
  }

  // Regret matching+ (Tammelin 2014): cumulative regrets are floored at 0 after an update.
  void floor_regrets() {
    tables_.visit([]<typename T>(TableArrays<T> t) {
      for (std::int64_t i = 0; i < t.size; ++i) t.regrets[i] = t.regrets[i] > 0 ? t.regrets[i] : 0;
    });
  }

  CfrParameters params_;
  StrategyTables& tables_;
  PublicTreeTraversal walker_;
  std::vector<double> sigma_;
};

}  // namespace hulhe
