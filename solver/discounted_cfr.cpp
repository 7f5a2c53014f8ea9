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
  for (float& r : tables_.regrets()) r = static_cast<float>(r * (r > 0.0F ? positive : negative));
  for (float& s : tables_.average_sums()) s = static_cast<float>(s * average);
}

}  // namespace hulhe
