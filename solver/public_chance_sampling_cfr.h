#pragma once
// Public chance sampling CFR (Johanson, Bard, Lanctot, Gibson & Bowling 2012, "Efficient
// Nash equilibrium approximation through Monte Carlo counterfactual regret minimization"):
// each iteration samples only the public chance events (one board of every round, from the
// (seed, iteration) stream) and walks the public tree once per player with reach vectors
// over all private hands, so every information set on the sampled board is updated.
// Regret matching with simultaneous updates and uniform averaging, as in the paper.
//
// Two scales. Small games (boards enumerable, e.g. Leduc): as in the paper, simultaneous
// updates from one sigma snapshot; with T threads, T consecutive iterations share one
// snapshot and run concurrently, each into its own buffers, summed in iteration order (so
// results depend on T). Games too large to list their boards (HULHE): each iteration deals
// one board from the deck and looks up the buckets of all 1,326 hands on it once; sigma is
// regret-matched at each node as the walk reaches it (no copy of the tables), player 0's
// pass then player 1's (alternating updates, as CFR+); with T threads, T iterations run at
// once on the shared tables with relaxed-atomic updates (hogwild, as Pluribus), so only a
// 1-thread run is reproducible. Linear discounting and the average delay of CfrParameters
// apply at this scale.
#include <vector>

#include "solver/vector_form_cfr.h"

namespace hulhe {

class PublicChanceSamplingCfr final : public VectorFormCfr {
 public:
  // Picks the deck-sampling scale when the game's boards x hands exceed what the walker
  // enumerates.
  PublicChanceSamplingCfr(const CfrParameters& params, const BettingTree& tree,
                          const CardAbstraction& abstraction, StrategyTables& tables);
  void run(std::int64_t first, std::int64_t count, int threads) override;

 private:
  void run_enumerated(std::int64_t first, std::int64_t count, int threads);
  void run_dealt(std::int64_t first, std::int64_t count, int threads);
  std::vector<std::vector<double>> regret_buffers_, average_buffers_;
};

}  // namespace hulhe
