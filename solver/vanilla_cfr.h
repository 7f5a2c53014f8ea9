#pragma once
// Vanilla CFR (Zinkevich, Johanson, Bowling & Piccione 2007): every iteration both players'
// regrets are updated simultaneously from sigma^t by a full traversal of every board, and
// the average strategy accumulates pi_i(I) * sigma^t(I, a) with weight 1.
#include "solver/vector_form_cfr.h"

namespace hulhe {

class VanillaCfr final : public VectorFormCfr {
 public:
  using VectorFormCfr::VectorFormCfr;
  void run(std::int64_t first, std::int64_t count, int threads) override;
};

}  // namespace hulhe
