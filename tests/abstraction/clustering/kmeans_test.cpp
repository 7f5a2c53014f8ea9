// k-means on synthetic data with known clusters: recovery, monotone cost, determinism, and
// the pruned assignment (Hamerly, blocked products, EMD lower bounds) against brute force.
#include "abstraction/clustering/kmeans.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "tests/support/known_clusters.h"
#include "tests/support/planar_ground.h"

namespace hulhe {
namespace {

using testing::Blobs;
using testing::expect_same_partition;
using testing::make_blobs;
using testing::make_sparse;
using testing::SparseData;

std::vector<std::int32_t> brute_force_nearest(const FeatureMatrix& x, const FeatureMatrix& c,
                                              KMeansMetric metric) {
  std::vector<std::int32_t> out(x.rows);
  for (std::int64_t i = 0; i < x.rows; ++i) {
    double best = 1e300;
    for (std::int64_t j = 0; j < c.rows; ++j) {
      double d = 0;
      for (int t = 0; t < x.cols; ++t) {
        double diff = x.row(i)[t] - c.row(j)[t];
        d += metric == KMeansMetric::kL2 ? diff * diff : std::abs(diff);
      }
      if (d < best) best = d, out[i] = static_cast<std::int32_t>(j);
    }
  }
  return out;
}

TEST(KMeans, RecoversKnownClustersL2) {
  Blobs b = make_blobs(6, 150, 5, 0.15, 42);
  KMeansOptions o;
  o.clusters = 6;
  o.restarts = 4;
  o.seed = 9;
  KMeansResult r = kmeans(b.points, KMeansMetric::kL2, o);
  expect_same_partition(b.label, r.assignment, 6);
  // Every true centre has a found centre within a few noise widths.
  for (auto& t : b.truth) {
    double best = 1e9;
    for (std::int64_t c = 0; c < r.centres.rows; ++c)
      best = std::min(best, metric_distance(t.data(), r.centres.row(c), 5, KMeansMetric::kL2));
    EXPECT_LT(best, 0.1);
  }
}

TEST(KMeans, RecoversKnownClustersL1) {
  Blobs b = make_blobs(5, 120, 8, 0.1, 43);
  KMeansOptions o;
  o.clusters = 5;
  o.restarts = 4;
  KMeansResult r = kmeans(b.points, KMeansMetric::kL1, o);
  expect_same_partition(b.label, r.assignment, 5);
}

TEST(KMeans, CostNeverIncreasesAcrossLloydIterations) {
  // Structureless data makes Lloyd take many steps.
  for (KMeansMetric metric : {KMeansMetric::kL2, KMeansMetric::kL1}) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    FeatureMatrix x;
    x.rows = 3000;
    x.cols = 4;
    x.data.resize(x.rows * x.cols);
    for (float& v : x.data) v = u(rng);
    KMeansOptions o;
    o.clusters = 25;
    o.max_iterations = 200;
    o.tolerance = 0.0;
    KMeansResult r = kmeans(x, metric, o);
    ASSERT_GE(r.cost_history.size(), 5U) << "too few iterations to test anything";
    for (std::size_t t = 1; t < r.cost_history.size(); ++t)
      EXPECT_LE(r.cost_history[t], r.cost_history[t - 1] * (1 + 1e-6)) << "iteration " << t;
    EXPECT_LT(r.cost_history.back(), r.cost_history.front());
    // The final (Hamerly-pruned) assignment is the exact nearest centre.
    EXPECT_EQ(r.assignment, brute_force_nearest(x, r.centres, metric));
  }
}

TEST(KMeans, SameSeedSameResultWhateverTheThreadCount) {
  Blobs b = make_blobs(10, 200, 6, 1.5, 44);  // overlapping blobs: a nontrivial fit
  KMeansOptions o;
  o.clusters = 10;
  o.restarts = 2;
  o.seed = 123;
  o.threads = 2;
  KMeansResult a = kmeans(b.points, KMeansMetric::kL2, o);
  KMeansResult a2 = kmeans(b.points, KMeansMetric::kL2, o);
  o.threads = 1;
  KMeansResult a1 = kmeans(b.points, KMeansMetric::kL2, o);
  EXPECT_EQ(a.assignment, a2.assignment);
  EXPECT_EQ(a.centres.data, a2.centres.data);
  EXPECT_EQ(a.assignment, a1.assignment);
  EXPECT_EQ(a.centres.data, a1.centres.data);
  EXPECT_EQ(a.cost, a1.cost);
  o.seed = 124;
  KMeansResult other = kmeans(b.points, KMeansMetric::kL2, o);
  EXPECT_NE(other.centres.data, a.centres.data) << "the seed should matter";
}

TEST(KMeans, FitOnSampleThenAssignEveryRow) {
  Blobs b = make_blobs(4, 2000, 3, 0.2, 45);
  KMeansOptions o;
  o.clusters = 4;
  o.sample_size = 400;
  o.restarts = 3;
  for (KMeansMetric metric : {KMeansMetric::kL2, KMeansMetric::kL1}) {
    KMeansResult r = kmeans(b.points, metric, o);
    ASSERT_EQ(r.assignment.size(), static_cast<std::size_t>(b.points.rows));
    expect_same_partition(b.label, r.assignment, 4);
    EXPECT_EQ(r.assignment, brute_force_nearest(b.points, r.centres, metric));
  }
}

TEST(KMeans, BlockedAssignmentMatchesBruteForce) {
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  FeatureMatrix x, c;
  x.rows = 5000;  // several blocks of 2048 and a partial one
  x.cols = c.cols = 7;
  c.rows = 33;
  x.data.resize(x.rows * 7);
  c.data.resize(c.rows * 7);
  for (float& v : x.data) v = u(rng);
  for (float& v : c.data) v = u(rng);
  for (KMeansMetric metric : {KMeansMetric::kL2, KMeansMetric::kL1}) {
    std::vector<std::int32_t> a;
    double cost = assign_nearest(x, c, metric, a, 2);
    auto expect = brute_force_nearest(x, c, metric);
    // Float rounding in |x|^2 - 2x.c + |c|^2 may flip exact near-ties; allow a handful.
    int differ = 0;
    double expect_cost = 0.0;
    for (std::int64_t i = 0; i < x.rows; ++i) {
      differ += a[i] != expect[i];
      double d = metric_distance(x.row(i), c.row(expect[i]), 7, metric);
      expect_cost += metric == KMeansMetric::kL2 ? d * d : d;
    }
    EXPECT_LE(differ, 2);
    EXPECT_NEAR(cost, expect_cost, 1e-4 * expect_cost);
  }
}

TEST(KMeans, SampleRowsIsDistinctSortedAndSeeded) {
  auto a = sample_rows(1000, 100, 1);
  ASSERT_EQ(a.size(), 100U);
  for (std::size_t i = 1; i < a.size(); ++i) EXPECT_LT(a[i - 1], a[i]);
  EXPECT_EQ(a, sample_rows(1000, 100, 1));
  EXPECT_NE(a, sample_rows(1000, 100, 2));
  EXPECT_EQ(sample_rows(10, 50, 1).size(), 10U);
}

// ---- potential-aware: sparse histograms over next-round clusters, greedy EMD ----

TEST(KMeansEmd, RecoversKnownClustersMonotoneAndDeterministic) {
  SparseData s = make_sparse(200, 3);
  KMeansOptions o;
  o.clusters = 3;
  o.restarts = 3;
  o.threads = 2;
  KMeansResult r = kmeans_emd(s.x, s.ground, o);
  expect_same_partition(s.label, r.assignment, 3);
  for (std::size_t t = 1; t < r.cost_history.size(); ++t)
    EXPECT_LE(r.cost_history[t], r.cost_history[t - 1]);
  o.threads = 1;
  KMeansResult r1 = kmeans_emd(s.x, s.ground, o);
  EXPECT_EQ(r.assignment, r1.assignment);
  EXPECT_EQ(r.centres.data, r1.centres.data);
}

// Twelve centres fitted to `s` in three iterations; the pruned assignment to them must be the
// brute-force argmin of the greedy EMD. `each(i, centre)` runs for every row and centre.
void expect_pruned_assignment_is_the_argmin(
    const SparseData& s, const std::function<void(std::int64_t, const float*)>& each = {}) {
  KMeansOptions o;
  o.clusters = 12;
  o.max_iterations = 3;
  KMeansResult r = kmeans_emd(s.x, s.ground, o);
  std::vector<std::int32_t> pruned;
  assign_nearest_emd(s.x, r.centres, s.ground, 0, pruned, 2);
  GreedyEmd emd(20);
  for (std::int64_t i = 0; i < s.x.rows; ++i) {
    double best = 1e300;
    int best_c = -1;
    for (int c = 0; c < 12; ++c) {
      double d = emd(s.x.cluster_of(i), s.x.mass_of(i), s.x.size(i), r.centres.row(c), s.ground);
      if (d < best) best = d, best_c = c;
      if (each) each(i, r.centres.row(c));
    }
    double got =
        emd(s.x.cluster_of(i), s.x.mass_of(i), s.x.size(i), r.centres.row(pruned[i]), s.ground);
    EXPECT_NEAR(got, best, 1e-5) << "row " << i << " brute force " << best_c;
  }
}

TEST(KMeansEmd, PrunedAssignmentEqualsBruteForce) {
  // Lower-bound pruning must not change the argmin of the greedy EMD.
  expect_pruned_assignment_is_the_argmin(make_sparse(100, 4));
}

TEST(KMeansEmd, EmbeddingBoundKeepsThePrunedArgminAndNeverExceedsTheExactEmd) {
  // The line's clusters embedded at their positions: |x_i - x_j| is the ground distance, so
  // the mean-embedding bound is valid and pruning with it must keep the greedy argmin.
  SparseData s = make_sparse(100, 6);
  std::vector<float> coords(20);
  for (int i = 0; i < 20; ++i) coords[i] = static_cast<float>(i);
  s.ground.set_embedding(coords, 1, false);
  expect_pruned_assignment_is_the_argmin(s, [&](std::int64_t i, const float* q) {
    if (i >= 10) return;
    // The bound itself: |mean position difference| <= exact EMD.
    double mp = 0, mq = 0;
    for (int e = 0; e < s.x.size(i); ++e) mp += s.x.mass_of(i)[e] * s.x.cluster_of(i)[e];
    for (int j = 0; j < 20; ++j) mq += q[j] * j;
    EXPECT_LE(std::abs(mp - mq),
              emd_exact(s.x.cluster_of(i), s.x.mass_of(i), s.x.size(i), q, s.ground) + 1e-5);
  });
  EXPECT_THROW(s.ground.set_embedding(std::vector<float>(7), 1, false), std::invalid_argument);
}

// Single-hand centres over 500 next-round clusters (the shape of the large map's turn
// centres, where the sparse-sparse greedy EMD serves): every distance is the smaller of
// GreedyEmd's two directions, bit for bit, on 1 and 3 threads.
TEST(KMeansEmd, SparseCentreDistancesEqualGreedyBothWays) {
  std::mt19937_64 rng(31);
  GroundDistance g = testing::planar_ground(rng, 500);
  SparseHistograms h = testing::planar_histograms(40, g, 46, 30, 9);
  FeatureMatrix c;
  c.rows = h.rows;
  c.cols = g.size();
  c.data.assign(static_cast<std::size_t>(c.rows) * c.cols, 0.0f);
  for (std::int64_t i = 0; i < h.rows; ++i)
    for (int e = 0; e < h.size(i); ++e) c.row(i)[h.cluster_of(i)[e]] = h.mass_of(i)[e];
  const auto d1 = centre_distances_emd(c, g, 1);
  EXPECT_EQ(centre_distances_emd(c, g, 3), d1);
  GreedyEmd emd(g.size());
  const int k = static_cast<int>(c.rows);
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) {
      if (a == b) {
        EXPECT_EQ(d1[a * k + b], 0.0f);
        continue;
      }
      const auto ab =
          static_cast<float>(emd(h.cluster_of(a), h.mass_of(a), h.size(a), c.row(b), g));
      const auto ba =
          static_cast<float>(emd(h.cluster_of(b), h.mass_of(b), h.size(b), c.row(a), g));
      ASSERT_EQ(d1[a * k + b], std::min(ab, ba)) << a << " " << b;
    }
}

TEST(KMeansEmd, CentreDistancesAreSymmetricUpperBoundsOfExact) {
  SparseData s = make_sparse(60, 5);
  KMeansOptions o;
  o.clusters = 6;
  KMeansResult r = kmeans_emd(s.x, s.ground, o);
  auto d = centre_distances_emd(r.centres, s.ground, 2);
  for (int a = 0; a < 6; ++a) {
    EXPECT_EQ(d[a * 6 + a], 0.0f);
    std::vector<std::uint32_t> cl;
    std::vector<float> m;
    for (int j = 0; j < 20; ++j)
      if (r.centres.row(a)[j] > 0) cl.push_back(j), m.push_back(r.centres.row(a)[j]);
    for (int b = 0; b < 6; ++b) {
      EXPECT_EQ(d[a * 6 + b], d[b * 6 + a]);
      if (a == b) continue;
      double exact =
          emd_exact(cl.data(), m.data(), static_cast<int>(cl.size()), r.centres.row(b), s.ground);
      EXPECT_GE(d[a * 6 + b], exact - 1e-4);
      // The smaller of the two directions' greedy EMDs, to the bit.
      std::vector<std::uint32_t> clb;
      std::vector<float> mb;
      for (int j = 0; j < 20; ++j)
        if (r.centres.row(b)[j] > 0) clb.push_back(j), mb.push_back(r.centres.row(b)[j]);
      GreedyEmd emd(20);
      const float ab = static_cast<float>(
          emd(cl.data(), m.data(), static_cast<int>(cl.size()), r.centres.row(b), s.ground));
      const float ba = static_cast<float>(
          emd(clb.data(), mb.data(), static_cast<int>(clb.size()), r.centres.row(a), s.ground));
      EXPECT_EQ(d[a * 6 + b], std::min(ab, ba));
    }
  }
}

}  // namespace
}  // namespace hulhe
