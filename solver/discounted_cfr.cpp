#include "solver/discounted_cfr.h"

#include <cmath>

namespace hulhe {

void DiscountedCfr::run(std::int64_t first, std::int64_t count, int threads) {
  for (std::int64_t t = first; t < first + count; ++t) {
    for (int player = 0; player < 2; ++player) {
      snapshot_strategy();
      full_pass(player, 1.0, threads);
    }
    discount(t);
  }
}

void DiscountedCfr::discount(std::int64_t t) {
  const double td = static_cast<double>(t);
  const double ta = std::pow(td, params_.dcfr_alpha);
  const double tb = std::pow(td, params_.dcfr_beta);
  const double positive = ta / (ta + 1.0);
  const double negative = tb / (tb + 1.0);
  const double average = std::pow(td / (td + 1.0), params_.dcfr_gamma);
  tables_.visit([&]<typename T>(TableArrays<T> tab) {
    for (std::int64_t i = 0; i < tab.size; ++i) {
      const T r = tab.regrets[i];
      tab.regrets[i] = static_cast<T>(r * (r > 0 ? positive : negative));
      tab.average_sums[i] = static_cast<T>(tab.average_sums[i] * average);
    }
  });
}

}  // namespace hulhe
