#pragma once
// Discounted CFR (Brown & Sandholm 2019, "Solving imperfect-information games via
// discounted regret minimization"): after iteration t, positive cumulative regrets are
// multiplied by t^alpha / (t^alpha + 1), negative ones by t^beta / (t^beta + 1), and the
// average-strategy sums by (t / (t + 1))^gamma. Defaults alpha = 3/2, beta = 0, gamma = 2
// (the paper's recommendation); alternating updates as in the paper's experiments.
#include "solver/vector_form_cfr.h"

namespace hulhe {

class DiscountedCfr final : public VectorFormCfr {
 public:
  using VectorFormCfr::VectorFormCfr;
  void run(std::int64_t first, std::int64_t count, int threads) override;

 private:
  void discount(std::int64_t t);
};

}  // namespace hulhe
