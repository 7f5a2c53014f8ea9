#pragma once
// Clusters as random points of the unit square with Euclidean ground distance: a metric like
// the distance between next-round cluster centres, for EMD tests and benchmarks. `embed` also
// gives the ground its coordinates (the mean-embedding lower bound, as for OCHS centres).
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "abstraction/earth_movers_distance.h"

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

}  // namespace hulhe::testing
