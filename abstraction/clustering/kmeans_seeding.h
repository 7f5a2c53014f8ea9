#pragma once
// k-means++ seeding (Arthur & Vassilvitskii 2007) for the dense and the EMD k-means
// (abstraction/clustering/kmeans.h), in its two kernels: plus_plus_seeds (KMeansAlgorithm::kExact,
// the original) and plus_plus_seeds_bounded (kBounded: the same draws' distribution with less
// work). Internal to abstraction/.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "abstraction/clustering/kmeans.h"
#include "util/split_mix64.h"

namespace hulhe::kmeans_internal {

// k-means++ (Arthur & Vassilvitskii 2007): each new centre is a point drawn with probability
// proportional to its current cost (D^2 for L2; D for L1 and EMD, the k-median variant).
// `cost_to(i, c)` is the cost of point i to the centre made from point c.
// `prepare(c)` runs once, serially, before the costs to a new centre c are computed.
template <typename Prepare, typename CostTo>
std::vector<std::int64_t> plus_plus_seeds(std::int64_t n, int k, SplitMix64& rng, int threads,
                                          const ProgressCallback& progress, Prepare prepare,
                                          CostTo cost_to) {
  std::vector<std::int64_t> seeds;
  seeds.push_back(static_cast<std::int64_t>(rng.below_wide(n)));
  prepare(seeds[0]);
  std::vector<double> d(n);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) d[i] = cost_to(i, seeds[0]);
  for (int c = 1; c < k; ++c) {
    double total = 0.0;
    for (double x : d) total += x;
    std::int64_t pick = -1;
    if (total > 0.0) {
      double r = rng.uniform() * total;
      double run = 0.0;
      for (std::int64_t i = 0; i < n; ++i) {
        run += d[i];
        if (run > r && d[i] > 0.0) {
          pick = i;
          break;
        }
      }
    }
    // Fewer distinct points than clusters (or rounding at the end): any point will do;
    // the duplicate centre stays empty and is reseeded by Lloyd.
    if (pick < 0) pick = static_cast<std::int64_t>(rng.below_wide(n));
    seeds.push_back(pick);
    prepare(pick);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < n; ++i) d[i] = std::min(d[i], cost_to(i, pick));
    if (progress && (c % 16 == 0 || c + 1 == k)) progress(progress_step("seed", c + 1, k));
  }
  return seeds;
}

// k-means++ as plus_plus_seeds, with two savings that leave the draws' distribution
// unchanged (kBounded):
// - Triangle inequality (as in Elkan 2003, Lemma 1): a point whose nearest seed o is at
//   distance D_i cannot get closer to a new seed s when D(s, o) >= 2 D_i, so only D(s, o)
//   for the k seeds so far is computed, not D(i, s). `distance(i, j)` must be a metric (or
//   pseudo-metric) between points i and j; the cost is distance^2 (`squared`) or distance.
// - The draw walks fixed blocks of kSeedBlock points by their cost sums, kept per block and
//   recomputed only for blocks where a point moved, instead of summing all n costs per seed.
// Blocks are fixed and each point is independent, so the seeds do not depend on the
// thread count.
template <typename Distance>
std::vector<std::int64_t> plus_plus_seeds_bounded(std::int64_t n, int k, bool squared,
                                                  SplitMix64& rng, int threads,
                                                  const ProgressCallback& progress,
                                                  Distance distance) {
  constexpr std::int64_t kSeedBlock = 1024;
  const std::int64_t blocks = (n + kSeedBlock - 1) / kSeedBlock;
  std::vector<std::int64_t> seeds;
  seeds.reserve(k);
  std::vector<float> dist(n);
  std::vector<std::int32_t> owner(n, 0);
  std::vector<double> block_cost(blocks, 0.0);
  std::vector<float> to_seed;  // D(new seed, seed j)
  auto cost = [squared](float d) {
    return squared ? static_cast<double>(d) * d : static_cast<double>(d);
  };
  seeds.push_back(static_cast<std::int64_t>(rng.below_wide(n)));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    double sum = 0.0;
    for (std::int64_t i = b * kSeedBlock; i < std::min(n, (b + 1) * kSeedBlock); ++i) {
      dist[i] = static_cast<float>(distance(i, seeds[0]));
      sum += cost(dist[i]);
    }
    block_cost[b] = sum;
  }
  for (int c = 1; c < k; ++c) {
    double total = 0.0;
    for (double x : block_cost) total += x;
    std::int64_t pick = -1;
    if (total > 0.0) {
      const double r = rng.uniform() * total;
      double run = 0.0;
      std::int64_t last_block = -1;
      for (std::int64_t b = 0; b < blocks && pick < 0; ++b) {
        if (block_cost[b] <= 0.0) continue;
        last_block = b;
        if (run + block_cost[b] <= r) {
          run += block_cost[b];
          continue;
        }
        for (std::int64_t i = b * kSeedBlock; i < std::min(n, (b + 1) * kSeedBlock); ++i) {
          const double ci = cost(dist[i]);
          run += ci;
          if (run > r && ci > 0.0) {
            pick = i;
            break;
          }
        }
      }
      // Rounding at the end of the walk: the last point with a positive cost.
      if (pick < 0 && last_block >= 0)
        for (std::int64_t i = std::min(n, (last_block + 1) * kSeedBlock) - 1;
             i >= last_block * kSeedBlock && pick < 0; --i)
          if (dist[i] > 0.0f) pick = i;
    }
    // Fewer distinct points than clusters: any point will do (the duplicate centre stays
    // empty and is reseeded by Lloyd).
    if (pick < 0) pick = static_cast<std::int64_t>(rng.below_wide(n));
    to_seed.resize(seeds.size());
    // Serial: at most k short distances, less than an OpenMP fork on a busy machine.
    for (std::size_t j = 0; j < seeds.size(); ++j)
      to_seed[j] = static_cast<float>(distance(pick, seeds[j]));
    seeds.push_back(pick);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
    for (std::int64_t b = 0; b < blocks; ++b) {
      bool moved = false;
      for (std::int64_t i = b * kSeedBlock; i < std::min(n, (b + 1) * kSeedBlock); ++i) {
        // The slack keeps float rounding of the three distances from skipping a point that
        // does get closer.
        if (to_seed[owner[i]] > 2.0001f * dist[i] + 1e-6f) continue;
        const float d = static_cast<float>(distance(i, pick));
        if (d < dist[i]) {
          dist[i] = d;
          owner[i] = c;
          moved = true;
        }
      }
      if (moved) {
        double sum = 0.0;
        for (std::int64_t i = b * kSeedBlock; i < std::min(n, (b + 1) * kSeedBlock); ++i)
          sum += cost(dist[i]);
        block_cost[b] = sum;
      }
    }
    if (progress && (c % 16 == 0 || c + 1 == k)) progress(progress_step("seed", c + 1, k));
  }
  return seeds;
}

}  // namespace hulhe::kmeans_internal
