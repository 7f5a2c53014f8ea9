#include "solver/external_sampling_mccfr.h"

#include <omp.h>

namespace hulhe {

ExternalSamplingMccfr::ExternalSamplingMccfr(const BettingTree& tree,
                                             const CardAbstraction& abstraction,
                                             StrategyTables& tables, std::uint64_t seed)
    : nodes_(flatten_for_sampling(tree, tables)),
      sampler_(tree.game(), abstraction),
      tables_(tables),
      seed_(seed) {}

void ExternalSamplingMccfr::run(std::int64_t first, std::int64_t count, int threads) {
  double* regrets = tables_.regrets().data();
  double* average_sums = tables_.average_sums().data();
  if (threads <= 1) {
    for (std::int64_t t = first; t < first + count; ++t) iteration<false>(t, regrets, average_sums);
    return;
  }
  // Small chunks keep threads busy to the end; iterations are independent apart from the
  // tables they share.
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256)
  for (std::int64_t i = 0; i < count; ++i) iteration<true>(first + i, regrets, average_sums);
}

template <bool kAtomic>
void ExternalSamplingMccfr::iteration(std::int64_t t, double* regrets, double* average_sums) const {
  SplitMix64 rng = SplitMix64::for_iteration(seed_, t);
  SampledDeal deal;
  sampler_.deal(rng, deal);
  for (int traverser = 0; traverser < 2; ++traverser)
    traverse<kAtomic>(0, traverser, deal, rng, regrets, average_sums);
}

template <bool kAtomic>
double ExternalSamplingMccfr::traverse(std::int32_t n, int traverser, const SampledDeal& deal,
                                       SplitMix64& rng, double* regrets,
                                       double* average_sums) const {
  const SamplingNode& node = nodes_[n];
  if (node.kind != NodeKind::kDecision) return node.utility(traverser, deal.showdown);

  const int num_actions = node.num_actions;
  const std::int64_t off =
      node.table_offset +
      static_cast<std::int64_t>(deal.bucket[node.player][node.round]) * num_actions;
  double sigma[kNumActionKinds];
  regret_matching<kAtomic>(regrets + off, num_actions, sigma);

  if (node.player == traverser) {
    double value[kNumActionKinds];
    double expected = 0.0;
    for (int a = 0; a < num_actions; ++a) {
      value[a] = traverse<kAtomic>(node.child[a], traverser, deal, rng, regrets, average_sums);
      expected += sigma[a] * value[a];
    }
    for (int a = 0; a < num_actions; ++a)
      table_add<kAtomic>(regrets + off + a, value[a] - expected);
    return expected;
  }
  // Opponent: simple averaging, then follow one action sampled from σ.
  for (int a = 0; a < num_actions; ++a) table_add<kAtomic>(average_sums + off + a, sigma[a]);
  const int sampled = sample_slot(sigma, num_actions, rng);
  return traverse<kAtomic>(node.child[sampled], traverser, deal, rng, regrets, average_sums);
}

}  // namespace hulhe
