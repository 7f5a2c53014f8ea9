#include "solver/public_chance_sampling_cfr.h"

#include <algorithm>

#include "solver/sampled_deal.h"

namespace hulhe {

void PublicChanceSamplingCfr::run(std::int64_t first, std::int64_t count, int threads) {
  threads = std::max(1, threads);
  const std::int64_t end = first + count;
  if (threads == 1) {
    for (std::int64_t t = first; t < end; ++t) {
      SplitMix64 rng = SplitMix64::for_iteration(params_.seed, t);
      BoardChain chain{};
      walker_.sample_chain(rng, chain);
      snapshot_strategy();
      for (int player = 0; player < 2; ++player) {
        CfrPass pass;
        pass.traverser = player;
        pass.strategy = sigma_.data();
        pass.regrets = tables_.regrets().data();
        pass.average_sums = tables_.average_sums().data();
        pass.sampled = &chain;
        walker_.cfr_pass_on(0, pass);
      }
    }
    return;
  }
  walker_.reserve_workers(threads);
  const std::size_t size = static_cast<std::size_t>(tables_.size());
  regret_buffers_.resize(threads);
  average_buffers_.resize(threads);
  for (std::int64_t batch = first; batch < end; batch += threads) {
    const int workers = static_cast<int>(std::min<std::int64_t>(threads, end - batch));
    snapshot_strategy();
    // Small games: the same batch on one thread (no fork/join per iteration).
    const int team = walker_.parallel_worthwhile() ? workers : 1;
#pragma omp parallel for num_threads(team) schedule(static, 1)
    for (int w = 0; w < workers; ++w) {
      regret_buffers_[w].assign(size, 0.0);
      average_buffers_[w].assign(size, 0.0);
      SplitMix64 rng = SplitMix64::for_iteration(params_.seed, batch + w);
      BoardChain chain{};
      walker_.sample_chain(rng, chain);
      for (int player = 0; player < 2; ++player) {
        CfrPass pass;
        pass.traverser = player;
        pass.strategy = sigma_.data();
        pass.regrets = regret_buffers_[w].data();
        pass.average_sums = average_buffers_[w].data();
        pass.sampled = &chain;
        walker_.cfr_pass_on(w, pass);
      }
    }
    for (int w = 0; w < workers; ++w) {
      double* regrets = tables_.regrets().data();
      double* sums = tables_.average_sums().data();
      for (std::size_t i = 0; i < size; ++i) {
        regrets[i] += regret_buffers_[w][i];
        sums[i] += average_buffers_[w][i];
      }
    }
  }
}

}  // namespace hulhe
