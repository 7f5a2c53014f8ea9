#include "best_response/best_response.h"

#include <span>

namespace hulhe {

BestResponse::BestResponse(const Policy& policy, int threads)
    : layout_(policy.tree(), policy.abstraction()), threads_(threads) {
  const BettingTree& tree = policy.tree();
  walker_ = std::make_unique<PublicTreeTraversal>(tree, policy.abstraction(), layout_);
  strategy_.assign(layout_.size(), 0.0);
  for (int r = 0; r < tree.game().num_rounds; ++r)
    for (std::int32_t id = 0; id < tree.num_decision_nodes(r); ++id) {
      const int a = layout_.num_actions(r, id);
      for (std::int32_t b = 0; b < policy.abstraction().num_buckets(r); ++b)
        policy.action_probabilities(r, id, b,
                                    std::span<double>(strategy_.data() + layout_.offset(r, id, b),
                                                      static_cast<std::size_t>(a)));
    }
}

double BestResponse::value(int responder) {
  return walker_->best_response_value(responder, strategy_.data(), threads_);
}

double BestResponse::profile_value(int player) {
  return walker_->expected_value(player, strategy_.data());
}

}  // namespace hulhe
