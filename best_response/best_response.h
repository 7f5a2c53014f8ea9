#pragma once
// Exact best response to any Policy of a small 2-player limit game, in the real game:
// the responder's information set is (public node, its own cards), so it maximises per real
// hand over the public tree while the policy plays through its own abstraction (Johanson,
// Waugh, Bowling & Zinkevich 2011). One vector-form walk per responder.
#include <memory>
#include <vector>

#include "abstraction/policy.h"
#include "public_tree/public_tree_traversal.h"
#include "public_tree/strategy_tables.h"

namespace hulhe {

class BestResponse {
 public:
  // Reads the policy's action probabilities at every information set once, up front.
  // Throws InputError for games too large to walk exactly.
  explicit BestResponse(const Policy& policy, int threads = 1);

  // Chips per hand a best response in `responder` position wins against the policy.
  double value(int responder);
  // Chips per hand the policy wins in position `player` against itself in the other seat.
  double profile_value(int player);

 private:
  StrategyTables layout_;
  std::vector<double> strategy_;
  std::unique_ptr<PublicTreeTraversal> walker_;
  int threads_ = 1;
};

}  // namespace hulhe
