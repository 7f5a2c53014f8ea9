#pragma once
// Data with a known clustering, for the k-means tests (dense blobs, next-round histograms),
// and the check that a found clustering is that one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "abstraction/clustering/earth_movers_distance.h"
#include "abstraction/features/hand_features.h"

namespace hulhe::testing {

// `per` points around each of `k` centres with noise sigma, row i in cluster i % k (no
// cluster is a contiguous block of rows). Centres random in [0, 10]^dims, or with
// `separated` at 10 e_c (the c-th unit vector times 10; dims >= k), 14 apart.
struct Blobs {
  FeatureMatrix points;
  std::vector<int> label;
  std::vector<std::vector<float>> truth;
};

inline Blobs make_blobs(int k, int per, int dims, double sigma, std::uint64_t seed,
                        bool separated = false) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 10.0);
  std::normal_distribution<double> noise(0.0, sigma);
  Blobs b;
  b.truth.resize(k, std::vector<float>(dims));
  for (int c = 0; c < k; ++c)
    for (int j = 0; j < dims; ++j)
      b.truth[c][j] = separated ? (j == c ? 10.0F : 0.0F) : static_cast<float>(u(rng));
  b.points.rows = static_cast<std::int64_t>(k) * per;
  b.points.cols = dims;
  b.points.data.resize(b.points.rows * dims);
  for (std::int64_t i = 0; i < b.points.rows; ++i) {
    int c = static_cast<int>(i % k);
    b.label.push_back(c);
    for (int j = 0; j < dims; ++j)
      b.points.row(i)[j] = static_cast<float>(b.truth[c][j] + noise(rng));
  }
  return b;
}

// Every found cluster is exactly one true cluster (a bijection between labels).
inline void expect_same_partition(const std::vector<int>& label,
                                  const std::vector<std::int32_t>& found, int k) {
  std::map<int, std::set<int>> seen;
  for (std::size_t i = 0; i < label.size(); ++i) seen[label[i]].insert(found[i]);
  std::set<int> used;
  for (auto& [l, s] : seen) {
    ASSERT_EQ(s.size(), 1U) << "true cluster " << l << " split";
    used.insert(*s.begin());
  }
  EXPECT_EQ(static_cast<int>(used.size()), k) << "two true clusters merged";
}

// Next-round histograms over 20 clusters at positions 0..19 on a line (ground distance
// |i - j|), three hand types, row i of type i % 3. By default the types' next cards land
// near 2, near 10 or spread over 14..19 (47 draws a hand); with `separated` each hand puts
// all but one of 200 draws on 1, 10 or 18 and the last one next to it, so hands of one type
// are at most 0.01 apart and hands of different types at least 7.98.
struct SparseData {
  SparseHistograms x;
  std::vector<int> label;
  GroundDistance ground;
};

inline SparseData make_sparse(int per_type, std::uint64_t seed, bool separated = false) {
  const int n = 20;
  std::vector<float> d(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) d[i * n + j] = static_cast<float>(std::abs(i - j));
  SparseData s{{}, {}, GroundDistance(n, d)};
  s.x.dims = n;
  std::mt19937_64 rng(seed);
  const int draws = separated ? 200 : 47;
  for (int i = 0; i < 3 * per_type; ++i) {
    int type = i % 3;
    std::vector<float> dense(n, 0.0f);
    if (separated) {
      const int at = type == 0 ? 1 : type == 1 ? 10 : 18;
      dense[at] = static_cast<float>(draws - 1) / draws;
      dense[at + (rng() % 2 == 0 ? -1 : 1)] = 1.0f / draws;
    } else {
      for (int t = 0; t < draws; ++t) {
        int c = type == 0   ? 1 + static_cast<int>(rng() % 3)
                : type == 1 ? 9 + static_cast<int>(rng() % 3)
                            : 14 + static_cast<int>(rng() % 6);
        dense[c] += 1.0f / draws;
      }
    }
    for (int c = 0; c < n; ++c)
      if (dense[c] > 0) s.x.cluster.push_back(c), s.x.mass.push_back(dense[c]);
    s.x.offset.push_back(static_cast<std::int64_t>(s.x.cluster.size()));
    s.label.push_back(type);
  }
  s.x.rows = 3 * per_type;
  return s;
}

}  // namespace hulhe::testing
