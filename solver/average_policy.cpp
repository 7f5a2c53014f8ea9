#include "solver/average_policy.h"

namespace hulhe {

void AveragePolicy::action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                                         std::span<double> out) const {
  tables_.average_strategy(tables_.offset(round, node, bucket), tables_.num_actions(round, node),
                           out.data());
}

}  // namespace hulhe
