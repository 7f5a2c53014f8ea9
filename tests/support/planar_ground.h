#pragma once
// Clusters as random points of the unit square with Euclidean ground distance: a metric like
// the distance between next-round cluster centres, for EMD tests and benchmarks. `embed` also
// gives the ground its coordinates (the mean-embedding lower bound, as for OCHS centres).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "abstraction/clustering/earth_movers_distance.h"

namespace hulhe::testing {

inline GroundDistance planar_ground(std::mt19937_64& rng, int n, bool embed = false) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = u(rng), y[i] = u(rng);
  std::vector<float> d(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      d[static_cast<std::size_t>(i) * n + j] =
          static_cast<float>(std::hypot(x[i] - x[j], y[i] - y[j]));
  GroundDistance g(n, std::move(d));
  if (embed) {
    std::vector<float> coords;
    for (int i = 0; i < n; ++i)
      coords.push_back(static_cast<float>(x[i])), coords.push_back(static_cast<float>(y[i]));
    g.set_embedding(std::move(coords), 2, false);
  }
  return g;
}

// Hands' next-round histograms over the clusters of `g`: each of `rows` hands draws `draws`
// next cards, three in four among the `nearby` clusters nearest a hand-specific home cluster
// and the rest anywhere, as a hand's next-round buckets crowd around its own strength.
inline SparseHistograms planar_histograms(std::int64_t rows, const GroundDistance& g, int draws,
                                          int nearby, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int n = g.size();
  SparseHistograms h;
  h.rows = rows;
  h.dims = n;
  std::vector<float> dense(n);
  for (std::int64_t i = 0; i < rows; ++i) {
    std::fill(dense.begin(), dense.end(), 0.0f);
    const int home = static_cast<int>(rng() % n);
    for (int t = 0; t < draws; ++t) {
      int c = rng() % 4 ? static_cast<int>(g.neighbours(home)[rng() % std::min(n, nearby)].cluster)
                        : static_cast<int>(rng() % n);
      dense[c] += 1.0f / draws;
    }
    for (int c = 0; c < n; ++c)
      if (dense[c] > 0) h.cluster.push_back(c), h.mass.push_back(dense[c]);
    h.offset.push_back(static_cast<std::int64_t>(h.cluster.size()));
  }
  return h;
}

}  // namespace hulhe::testing
