#pragma once
// CFR+ (Tammelin 2014; Bowling, Burch, Johanson & Tammelin 2015, Cepheus): regret
// matching+ (regrets floored at 0 after every update), alternating updates (player 0's
// pass, then player 1's against the updated sigma), and linear averaging: iteration t's
// contribution to the average strategy is weighted by max(t - d, 0), d the delay.
#include "solver/vector_form_cfr.h"

namespace hulhe {

class CfrPlus final : public VectorFormCfr {
 public:
  using VectorFormCfr::VectorFormCfr;
  void run(std::int64_t first, std::int64_t count, int threads) override;
};

}  // namespace hulhe
