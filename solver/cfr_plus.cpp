#include "solver/cfr_plus.h"

#include <algorithm>

namespace hulhe {

void CfrPlus::run(std::int64_t first, std::int64_t count, int threads) {
  for (std::int64_t t = first; t < first + count; ++t) {
    const double weight =
        static_cast<double>(std::max<std::int64_t>(t - params_.cfr_plus_delay, 0));
    for (int player = 0; player < 2; ++player) {
      snapshot_strategy();  // alternating: player 1 sees player 0's update of this iteration
      full_pass(player, weight, threads);
      floor_regrets();
    }
  }
}

}  // namespace hulhe
