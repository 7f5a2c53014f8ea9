#pragma once
// External-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich & Bowling 2009, "Monte Carlo
// sampling for regret minimization in extensive games"; Lanctot's thesis 2013, ch. 4).
//
// Tables: bucket-major (default_table_layout), and each node asks for its children's lines
// before its own work (prefetch), as the walk is bound by memory latency on big tables.
//
// Iteration t deals one hand from SplitMix64(seed, t) (buckets of both positions looked up
// once), then walks the tree once per position, position 0 first (alternating updates). The
// traverser explores all its own actions; chance and the opponent are sampled, the opponent
// from its current regret-matching strategy σ. At the traverser's information set I the
// sampled regret r(I,a) = ṽ(I,a) − Σ_b σ(I,b)·ṽ(I,b) needs no importance weight: the
// probability of sampling a history is exactly the opponent-and-chance reach that
// counterfactual values weight by. Average strategy: "simple" averaging, σ(I,·) added at
// the opponent's sampled information sets (as open_spiel and Pluribus do); the opponent's
// own reach is what makes it visit I, so the expected increment is reach-weighted.
//
// Threads (run_sampled_iterations in sampled_iterations.h): iterations run concurrently on
// the shared tables with lock-free relaxed-atomic updates and per-thread preflop deltas (no
// undefined behaviour; an update can rarely be lost, so a multi-threaded run is not
// reproducible). A 1-thread run uses
// plain arithmetic and is deterministic, and run(1, N) followed by run(N + 1, N) equals
// run(1, 2N) exactly.
//
// At scale (HULHE over a bucket map) three options of CfrParameters apply, all off by
// default: Linear CFR by periodic discounting (linear_discounting.h), a delay before the
// average strategy is accumulated, and regret-based pruning with a regret floor (Pluribus's
// MCCFR-P: in 95% of iterations after a warm-up, actions with very negative regret are not
// explored). Pruning is decided per iteration from the iteration's own stream.
#include <cstdint>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"
#include "public_tree/flat_betting_tree.h"
#include "public_tree/sampled_deal.h"
#include "public_tree/strategy_tables.h"
#include "solver/cfr_algorithm.h"
#include "solver/sampled_iterations.h"

namespace hulhe {

class ExternalSamplingMccfr final : public CfrAlgorithm {
 public:
  ExternalSamplingMccfr(const BettingTree& tree, const CardAbstraction& abstraction,
                        StrategyTables& tables, const CfrParameters& params);
  // The plain algorithm with `seed`.
  ExternalSamplingMccfr(const BettingTree& tree, const CardAbstraction& abstraction,
                        StrategyTables& tables, std::uint64_t seed)
      : ExternalSamplingMccfr(tree, abstraction, tables, CfrParameters{.seed = seed}) {}

  void run(std::int64_t first, std::int64_t count, int threads) override;
  StrategyTables& tables() override { return tables_; }
  // The rounds whose updates threads keep in private deltas (sampled_iterations.h; default
  // 1, the preflop; 0 = every update in place); bench_hulhe_solver measures the difference.
  void set_trunk_rounds(int rounds) { trunk_rounds_ = rounds; }

 private:
  template <typename Tables>
  void iteration(std::int64_t t, const Tables& tables) const;
  // What one iteration's walk knows besides the deal.
  struct IterationFlags {
    bool accumulate_average = true;
    bool prune = false;
  };
  template <typename Tables>
  double traverse(std::int32_t n, int traverser, const SampledDeal& deal, SplitMix64& rng,
                  const Tables& tables, IterationFlags flags) const;

  std::vector<FlatNode> nodes_;
  DealSampler sampler_;
  StrategyTables& tables_;
  CfrParameters params_;
  int trunk_rounds_ = 1;
};

}  // namespace hulhe
