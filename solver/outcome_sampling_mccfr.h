#pragma once
// Outcome-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich & Bowling 2009; Lanctot's
// thesis 2013, section 4.1.2, Algorithm 3).
//
// Iteration t deals one hand from SplitMix64(seed, t), then samples one trajectory per
// position (position 0 first, alternating updates). At the traverser's nodes actions are
// drawn from the ε-exploring q(a) = ε/|A| + (1 − ε)·σ(a) (ε = 0.6 by default), at the
// opponent's from σ; chance is sampled from its own distribution, so its probability cancels.
// Walking back up, a node returns the importance-weighted value estimate
// ṽ(h) = σ(a')·ṽ(ha')/q(a') (terminal: the utility), the baseline-free estimator of
// open_spiel's outcome sampling. At the traverser's information set, with W = π_-i(h)/s(h)
// (opponent reach over the probability s(h) of sampling h),
//   r(I,a) += W·(ṽ(ha) − ṽ(h)),  ṽ(ha) = ṽ(ha')/q(a') for the sampled a', 0 otherwise,
// an unbiased estimate of the counterfactual regret.
//
// Average strategy: stochastically-weighted averaging (thesis, section 4.1.2): at the
// opponent's information sets s(I,a) += π_opp(h)·σ(I,a)/s(h), the opponent's own reach over
// the sampling probability, an unbiased estimate of the reach-weighted sum CFR accumulates.
// (Lazy weighting needs an extra table of partial weights; the stochastic weights here are
// bounded by (|A|/ε)^depth because the opponent is sampled on-policy.)
//
// Threads: as external sampling (run_sampled_iterations; 1 thread deterministic).
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

class OutcomeSamplingMccfr final : public CfrAlgorithm {
 public:
  // Throws InputError unless 0 < epsilon <= 1.
  OutcomeSamplingMccfr(const BettingTree& tree, const CardAbstraction& abstraction,
                       StrategyTables& tables, std::uint64_t seed, double epsilon = 0.6);

  void run(std::int64_t first, std::int64_t count, int threads) override;
  StrategyTables& tables() override { return tables_; }

 private:
  struct Reach {
    double opponent;  // π_-i: the opponent's σ-reach (chance cancels with its sampling)
    double sample;    // s: probability that the sampling reached this history
  };
  template <typename Tables>
  void iteration(std::int64_t t, const Tables& tables) const;
  template <typename Tables>
  double traverse(std::int32_t n, int traverser, const SampledDeal& deal, SplitMix64& rng,
                  Reach reach, const Tables& tables) const;

  std::vector<FlatNode> nodes_;
  DealSampler sampler_;
  StrategyTables& tables_;
  std::uint64_t seed_;
  double epsilon_;
};

}  // namespace hulhe
