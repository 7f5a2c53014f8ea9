#include "solver/external_sampling_mccfr.h"

#include "solver/linear_discounting.h"

namespace hulhe {

ExternalSamplingMccfr::ExternalSamplingMccfr(const BettingTree& tree,
                                             const CardAbstraction& abstraction,
                                             StrategyTables& tables, const CfrParameters& params)
    : nodes_(flatten_betting_tree(tree, &tables)),
      sampler_(tree.game(), abstraction),
      tables_(tables),
      params_(params) {}

void ExternalSamplingMccfr::run(std::int64_t first, std::int64_t count, int threads) {
  run_with_linear_discounting(
      params_, tables_, first, count, threads, [&](std::int64_t from, std::int64_t n) {
        run_sampled_iterations(
            tables_, from, n, threads,
            [this](std::int64_t t, const auto& view) { iteration(t, view); }, trunk_rounds_);
      });
}

template <typename Tables>
void ExternalSamplingMccfr::iteration(std::int64_t t, const Tables& tables) const {
  SplitMix64 rng = SplitMix64::for_iteration(params_.seed, t);
  SampledDeal deal;
  sampler_.deal(rng, deal);
  IterationFlags flags;
  flags.accumulate_average = t > params_.average_delay;
  if (params_.prune_after > 0 && t > params_.prune_after)
    flags.prune = rng.uniform() < params_.prune_probability;
  for (int traverser = 0; traverser < 2; ++traverser)
    traverse(0, traverser, deal, rng, tables, flags);
}

template <typename Tables>
double ExternalSamplingMccfr::traverse(std::int32_t n, int traverser, const SampledDeal& deal,
                                       SplitMix64& rng, const Tables& tables,
                                       IterationFlags flags) const {
  const FlatNode& node = nodes_[n];
  if (node.kind != NodeKind::kDecision) return node.utility(traverser, deal.showdown);

  const int num_actions = node.num_actions;
  const std::int64_t off = node.offset(deal.bucket[node.player][node.round]);
  // The children's information sets are lines in other blocks of the tables: ask for them
  // now, so that their loads overlap this node's work and the walks of earlier siblings.
  for (int a = 0; a < num_actions; ++a) {
    const FlatNode& child = nodes_[node.child[a]];
    if (child.kind == NodeKind::kDecision)
      tables.prefetch(child.offset(deal.bucket[child.player][child.round]));
  }
  double sigma[kNumActionKinds];
  regret_matching(tables, off, num_actions, sigma);

  if (node.player == traverser) {
    double value[kNumActionKinds];
    bool explored[kNumActionKinds] = {true, true, true};
    if (flags.prune) {
      // MCCFR-P (Pluribus): skip actions whose regret is below the threshold, unless that
      // would leave none.
      int kept = 0;
      for (int a = 0; a < num_actions; ++a)
        kept += explored[a] = tables.regret(off + a) >= params_.prune_threshold;
      if (kept == 0)
        for (int a = 0; a < num_actions; ++a) explored[a] = true;
    }
    double expected = 0.0;
    for (int a = 0; a < num_actions; ++a) {
      if (!explored[a]) continue;
      value[a] = traverse(node.child[a], traverser, deal, rng, tables, flags);
      expected += sigma[a] * value[a];
    }
    for (int a = 0; a < num_actions; ++a) {
      if (!explored[a]) continue;
      tables.add_regret(off + a, params_.regret_weight * (value[a] - expected));
      if (params_.prune_after > 0 && tables.regret(off + a) < params_.regret_floor)
        tables.add_regret(off + a, params_.regret_floor - tables.regret(off + a));
    }
    return expected;
  }
  // Opponent: simple averaging, then follow one action sampled from σ.
  if (flags.accumulate_average)
    for (int a = 0; a < num_actions; ++a) tables.add_average(off + a, sigma[a]);
  const int sampled = sample_slot(sigma, num_actions, rng);
  return traverse(node.child[sampled], traverser, deal, rng, tables, flags);
}

}  // namespace hulhe
