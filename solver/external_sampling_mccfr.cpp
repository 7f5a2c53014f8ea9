#include "solver/external_sampling_mccfr.h"

namespace hulhe {

ExternalSamplingMccfr::ExternalSamplingMccfr(const BettingTree& tree,
                                             const CardAbstraction& abstraction,
                                             StrategyTables& tables, std::uint64_t seed)
    : nodes_(flatten_for_sampling(tree, tables)),
      sampler_(tree.game(), abstraction),
      tables_(tables),
      seed_(seed) {}

void ExternalSamplingMccfr::run(std::int64_t first, std::int64_t count, int threads) {
  run_sampled_iterations(tables_, first, count, threads,
                         [this](std::int64_t t, const auto& view) { iteration(t, view); });
}

template <typename Tables>
void ExternalSamplingMccfr::iteration(std::int64_t t, const Tables& tables) const {
  SplitMix64 rng = SplitMix64::for_iteration(seed_, t);
  SampledDeal deal;
  sampler_.deal(rng, deal);
  for (int traverser = 0; traverser < 2; ++traverser) traverse(0, traverser, deal, rng, tables);
}

template <typename Tables>
double ExternalSamplingMccfr::traverse(std::int32_t n, int traverser, const SampledDeal& deal,
                                       SplitMix64& rng, const Tables& tables) const {
  const SamplingNode& node = nodes_[n];
  if (node.kind != NodeKind::kDecision) return node.utility(traverser, deal.showdown);

  const int num_actions = node.num_actions;
  const std::int64_t off =
      node.table_offset +
      static_cast<std::int64_t>(deal.bucket[node.player][node.round]) * num_actions;
  double sigma[kNumActionKinds];
  regret_matching(tables, off, num_actions, sigma);

  if (node.player == traverser) {
    double value[kNumActionKinds];
    double expected = 0.0;
    for (int a = 0; a < num_actions; ++a) {
      value[a] = traverse(node.child[a], traverser, deal, rng, tables);
      expected += sigma[a] * value[a];
    }
    for (int a = 0; a < num_actions; ++a) tables.add_regret(off + a, value[a] - expected);
    return expected;
  }
  // Opponent: simple averaging, then follow one action sampled from σ.
  for (int a = 0; a < num_actions; ++a) tables.add_average(off + a, sigma[a]);
  const int sampled = sample_slot(sigma, num_actions, rng);
  return traverse(node.child[sampled], traverser, deal, rng, tables);
}

}  // namespace hulhe
