#include "solver/outcome_sampling_mccfr.h"

#include <string>

#include "util/input_error.h"

namespace hulhe {

OutcomeSamplingMccfr::OutcomeSamplingMccfr(const BettingTree& tree,
                                           const CardAbstraction& abstraction,
                                           StrategyTables& tables, std::uint64_t seed,
                                           double epsilon)
    : nodes_(flatten_betting_tree(tree, &tables)),
      sampler_(tree.game(), abstraction),
      tables_(tables),
      seed_(seed),
      epsilon_(epsilon) {
  // ε = 0 would stop exploring the traverser's actions (infinite importance weights).
  if (!(epsilon > 0.0 && epsilon <= 1.0))
    throw InputError("outcome sampling exploration ε must be in (0, 1], not " +
                     std::to_string(epsilon));
}

void OutcomeSamplingMccfr::run(std::int64_t first, std::int64_t count, int threads) {
  run_sampled_iterations(tables_, first, count, threads,
                         [this](std::int64_t t, const auto& view) { iteration(t, view); });
}

template <typename Tables>
void OutcomeSamplingMccfr::iteration(std::int64_t t, const Tables& tables) const {
  SplitMix64 rng = SplitMix64::for_iteration(seed_, t);
  SampledDeal deal;
  sampler_.deal(rng, deal);
  for (int traverser = 0; traverser < 2; ++traverser)
    traverse(0, traverser, deal, rng, Reach{1.0, 1.0}, tables);
}

template <typename Tables>
double OutcomeSamplingMccfr::traverse(std::int32_t n, int traverser, const SampledDeal& deal,
                                      SplitMix64& rng, Reach reach, const Tables& tables) const {
  const FlatNode& node = nodes_[n];
  if (node.kind != NodeKind::kDecision) return node.utility(traverser, deal.showdown);

  const int num_actions = node.num_actions;
  const std::int64_t off = node.offset(deal.bucket[node.player][node.round]);
  double sigma[kNumActionKinds];
  regret_matching(tables, off, num_actions, sigma);

  if (node.player != traverser) {
    // On-policy for the opponent; stochastically-weighted averaging of its strategy.
    const double weight = reach.opponent / reach.sample;
    for (int a = 0; a < num_actions; ++a) tables.add_average(off + a, weight * sigma[a]);
    const int sampled = sample_slot(sigma, num_actions, rng);
    const Reach child{reach.opponent * sigma[sampled], reach.sample * sigma[sampled]};
    // σ(a')/q(a') = 1 here: the value estimate passes through unchanged.
    return traverse(node.child[sampled], traverser, deal, rng, child, tables);
  }

  double q[kNumActionKinds];
  const double explore = epsilon_ / num_actions;
  for (int a = 0; a < num_actions; ++a) q[a] = explore + (1.0 - epsilon_) * sigma[a];
  const int sampled = sample_slot(q, num_actions, rng);
  const Reach child{reach.opponent, reach.sample * q[sampled]};
  const double sampled_value =  // ṽ(ha') / q(a')
      traverse(node.child[sampled], traverser, deal, rng, child, tables) / q[sampled];
  const double value = sigma[sampled] * sampled_value;  // ṽ(h)
  const double w = reach.opponent / reach.sample;
  for (int a = 0; a < num_actions; ++a)
    tables.add_regret(off + a, w * ((a == sampled ? sampled_value : 0.0) - value));
  return value;
}

}  // namespace hulhe
