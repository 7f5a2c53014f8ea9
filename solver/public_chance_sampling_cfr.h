#pragma once
// Public chance sampling CFR (Johanson, Bard, Lanctot, Gibson & Bowling 2012, "Efficient
// Nash equilibrium approximation through Monte Carlo counterfactual regret minimization"):
// each iteration samples only the public chance events (one board of every round, from the
// (seed, iteration) stream) and walks the public tree once per player with reach vectors
// over all private hands, so every information set on the sampled board is updated.
// Regret matching with simultaneous updates and uniform averaging, as in the paper.
// With T threads, T consecutive iterations share one sigma snapshot and run concurrently,
// each into its own buffers, summed in iteration order.
#include <vector>

#include "solver/vector_form_cfr.h"

namespace hulhe {

class PublicChanceSamplingCfr final : public VectorFormCfr {
 public:
  using VectorFormCfr::VectorFormCfr;
  void run(std::int64_t first, std::int64_t count, int threads) override;

 private:
  std::vector<std::vector<double>> regret_buffers_, average_buffers_;
};

}  // namespace hulhe
