// Earth mover's distance: the 1-D closed form and the greedy approximation checked against
// the exact transport solver, which is itself checked on hand-solved cases.
#include "abstraction/clustering/earth_movers_distance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "tests/support/planar_ground.h"

namespace hulhe {
namespace {

std::vector<double> random_histogram(std::mt19937_64& rng, int n, double zero_prob = 0.0) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> h(n);
  for (double& x : h) x = u(rng) < zero_prob ? 0.0 : u(rng);
  if (std::accumulate(h.begin(), h.end(), 0.0) == 0.0) h[0] = 1.0;
  double s = std::accumulate(h.begin(), h.end(), 0.0);
  for (double& x : h) x /= s;
  return h;
}

std::vector<double> line_cost(int n, int m) {
  std::vector<double> c(static_cast<std::size_t>(n) * m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) c[static_cast<std::size_t>(i) * m + j] = std::abs(i - j);
  return c;
}

TEST(EarthMoversDistance, TransportSolvesHandCases) {
  // All mass from bin 0 to bin 3 on a line: distance 3.
  std::vector<double> a{1, 0, 0, 0}, b{0, 0, 0, 1};
  EXPECT_NEAR(emd_transport(a, b, line_cost(4, 4)), 3.0, 1e-12);
  // Half to each neighbour: 0.5*1 + 0.5*1.
  std::vector<double> c{0, 1, 0}, d{0.5, 0, 0.5};
  EXPECT_NEAR(emd_transport(c, d, line_cost(3, 3)), 1.0, 1e-12);
  // A case where the greedy cheapest-arc-first choice is wrong: supply s0, s1; demand
  // d0, d1; costs s0->d0 = 1, s0->d1 = 2, s1->d0 = 2, s1->d1 = 100 (units of 1 each). The
  // optimum sends s0->d1 and s1->d0: 4, not 1 + 100.
  std::vector<double> s{1, 1}, t{1, 1};
  std::vector<double> cost{1, 2, 2, 100};
  EXPECT_NEAR(emd_transport(s, t, cost), 4.0, 1e-12);
  // Random 2 x 2 problems: the plans form a segment x00 = t in
  // [max(0, b0 - a1), min(a0, b0)], the cost is linear in t, so the optimum is an end.
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    double a0 = u(rng), b0 = u(rng);
    std::vector<double> sa{a0, 1 - a0}, sb{b0, 1 - b0};
    std::vector<double> cc{u(rng), u(rng), u(rng), u(rng)};
    auto plan_cost = [&](double x) {
      return cc[0] * x + cc[1] * (a0 - x) + cc[2] * (b0 - x) + cc[3] * (1 - a0 - b0 + x);
    };
    double lo = std::max(0.0, b0 - (1 - a0)), hi = std::min(a0, b0);
    EXPECT_NEAR(emd_transport(sa, sb, cc), std::min(plan_cost(lo), plan_cost(hi)), 1e-9);
  }
}

TEST(EarthMoversDistance, OneDimensionalEqualsTransport) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    int bins = 2 + trial % 14;
    auto a = random_histogram(rng, bins, 0.3);
    auto b = random_histogram(rng, bins, 0.3);
    std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
    EXPECT_NEAR(emd_1d(af.data(), bf.data(), bins), emd_transport(a, b, line_cost(bins, bins)),
                1e-5)
        << "bins " << bins << " trial " << trial;
  }
}

struct Sparse {
  std::vector<std::uint32_t> cluster;
  std::vector<float> mass;
};

// A hand's next-round histogram: `draws` next cards, each landing in a random cluster.
Sparse random_sparse(std::mt19937_64& rng, int n, int draws) {
  std::vector<float> dense(n, 0.0f);
  for (int t = 0; t < draws; ++t) dense[rng() % n] += 1.0f / draws;
  Sparse s;
  for (int i = 0; i < n; ++i)
    if (dense[i] > 0) s.cluster.push_back(i), s.mass.push_back(dense[i]);
  return s;
}

TEST(EarthMoversDistance, ExactNextRoundEmdEqualsTransportAndOneDimensional) {
  // On a line ground distance (clusters 0..n-1 at positions 0..n-1) the next-round EMD is
  // the 1-D EMD: two independent formulas must agree.
  std::mt19937_64 rng(11);
  const int n = 12;
  std::vector<float> d(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) d[i * n + j] = static_cast<float>(std::abs(i - j));
  GroundDistance line(n, d);
  for (int trial = 0; trial < 100; ++trial) {
    Sparse p = random_sparse(rng, n, 1 + trial % 9);
    auto q = random_histogram(rng, n);
    std::vector<float> qf(q.begin(), q.end()), pd(n, 0.0f);
    for (std::size_t e = 0; e < p.cluster.size(); ++e) pd[p.cluster[e]] = p.mass[e];
    double exact = emd_exact(p.cluster.data(), p.mass.data(), static_cast<int>(p.cluster.size()),
                             qf.data(), line);
    EXPECT_NEAR(exact, emd_1d(pd.data(), qf.data(), n), 1e-5);
  }
}

TEST(EarthMoversDistance, GreedyIsExactForOnePointMass) {
  // With one source entry there is only one feasible plan.
  std::mt19937_64 rng(3);
  GroundDistance g = testing::planar_ground(rng, 15);
  GreedyEmd greedy(15);
  for (int trial = 0; trial < 50; ++trial) {
    std::uint32_t c = static_cast<std::uint32_t>(rng() % 15);
    float one = 1.0f;
    auto q = random_histogram(rng, 15, 0.5);
    std::vector<float> qf(q.begin(), q.end());
    double expect = 0.0;
    for (int j = 0; j < 15; ++j) expect += qf[j] * g(c, j);
    EXPECT_NEAR(greedy(&c, &one, 1, qf.data(), g), expect, 1e-5);
    EXPECT_NEAR(emd_exact(&c, &one, 1, qf.data(), g), expect, 1e-5);
  }
}

TEST(EarthMoversDistance, GreedyIsZeroAgainstItself) {
  std::mt19937_64 rng(5);
  GroundDistance g = testing::planar_ground(rng, 30);
  GreedyEmd greedy(30);
  for (int trial = 0; trial < 50; ++trial) {
    Sparse p = random_sparse(rng, 30, 47);
    std::vector<float> dense(30, 0.0f);
    for (std::size_t e = 0; e < p.cluster.size(); ++e) dense[p.cluster[e]] = p.mass[e];
    EXPECT_NEAR(greedy(p.cluster.data(), p.mass.data(), static_cast<int>(p.cluster.size()),
                       dense.data(), g),
                0.0, 1e-6);
  }
}

// The approximation's error against the exact solver on random next-round histograms (47
// draws over 20 clusters against a dense mean, like a flop hand against a cluster centre).
// The greedy plan is feasible, so it is never below the exact EMD; its mean relative error
// is measured and bounded here (and reported by bench_abstraction).
TEST(EarthMoversDistance, GreedyApproximationErrorIsBounded) {
  std::mt19937_64 rng(17);
  double sum_rel = 0.0, max_rel = 0.0;
  const int trials = 300;
  for (int trial = 0; trial < trials; ++trial) {
    const int n = 20;
    GroundDistance g = testing::planar_ground(rng, n);
    GreedyEmd greedy(n);
    Sparse p = random_sparse(rng, n, trial % 2 ? 47 : 6);
    auto q = random_histogram(rng, n, 0.2);
    std::vector<float> qf(q.begin(), q.end());
    const int size = static_cast<int>(p.cluster.size());
    double exact = emd_exact(p.cluster.data(), p.mass.data(), size, qf.data(), g);
    double approx = greedy(p.cluster.data(), p.mass.data(), size, qf.data(), g);
    ASSERT_GE(approx, exact - 1e-5) << "the greedy plan is feasible, so never below exact";
    double rel = (approx - exact) / exact;
    sum_rel += rel;
    max_rel = std::max(max_rel, rel);
  }
  const double mean_rel = sum_rel / trials;
  std::printf("greedy EMD vs exact: mean relative error %.4f, max %.4f over %d cases\n", mean_rel,
              max_rel, trials);
  RecordProperty("mean_relative_error", std::to_string(mean_rel));
  RecordProperty("max_relative_error", std::to_string(max_rel));
  EXPECT_LT(mean_rel, 0.15);
  EXPECT_LT(max_rel, 0.6);
}

// Algorithm 2 of Ganzfried & Sandholm 2014 as the paper writes it, round by round over every
// entry still holding mass: GreedyEmd jumps over the clusters without mass left and takes the
// claims from a heap, and must give the same float, bit for bit, stopping at the same round
// when given a bound.
double round_robin_greedy_emd(const std::uint32_t* cluster, const float* mass, int size,
                              const float* dense, const GroundDistance& g, double bound) {
  const int n = g.size();
  std::vector<float> used(n, 0.0f), remaining(mass, mass + size);
  std::vector<int> active(size);
  std::iota(active.begin(), active.end(), 0);
  double total = 0.0;
  for (int j = 0; j < n && !active.empty(); ++j) {
    std::vector<int> kept;
    for (int i : active) {
      const auto nb = g.neighbours(static_cast<int>(cluster[i]))[j];
      const float available = dense[nb.cluster] - used[nb.cluster];
      if (available > 0.0f) {
        if (available < remaining[i]) {
          total += static_cast<double>(available) * nb.distance;
          remaining[i] -= available;
          used[nb.cluster] = dense[nb.cluster];
        } else {
          total += static_cast<double>(remaining[i]) * nb.distance;
          used[nb.cluster] += remaining[i];
          remaining[i] = 0.0f;
          continue;
        }
      }
      kept.push_back(i);
    }
    active = kept;
    if (total >= bound) break;
  }
  return total;
}

// A trial's ground distance over `n` clusters: a random planar one (drawn from `rng` every
// trial), or on every third trial a coarse grid, |a / group - b / group|, with ties
// everywhere.
GroundDistance trial_ground(std::mt19937_64& rng, int n, int trial, int group) {
  GroundDistance g = testing::planar_ground(rng, n);
  if (trial % 3 != 0) return g;
  std::vector<float> d(static_cast<std::size_t>(n) * n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) d[a * n + b] = static_cast<float>(std::abs(a / group - b / group));
  return GroundDistance(n, d);
}

TEST(EarthMoversDistance, GreedyEqualsTheRoundRobinAlgorithmBitForBit) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int stopped = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // Sizes around the 16-wide scan, sparse and dense means, duplicated clusters (distance 0
    // ties broken by index) and a coarse grid of distances (ties everywhere).
    const int n = std::vector<int>{5, 16, 17, 40, 300}[trial % 5];
    const GroundDistance g = trial_ground(rng, n, trial, 3);
    GreedyEmd greedy(n);
    Sparse p = random_sparse(rng, n, trial % 2 ? 47 : 6);
    auto q = random_histogram(rng, n, trial % 4 == 0 ? 0.9 : 0.2);
    std::vector<float> qf(q.begin(), q.end());
    const int size = static_cast<int>(p.cluster.size());
    const double full = round_robin_greedy_emd(p.cluster.data(), p.mass.data(), size, qf.data(), g,
                                               std::numeric_limits<double>::infinity());
    ASSERT_EQ(greedy(p.cluster.data(), p.mass.data(), size, qf.data(), g), full) << trial;
    for (double bound : {0.0, full * u(rng), full, full * 1.5}) {
      const double want =
          round_robin_greedy_emd(p.cluster.data(), p.mass.data(), size, qf.data(), g, bound);
      ASSERT_EQ(greedy(p.cluster.data(), p.mass.data(), size, qf.data(), g, bound), want)
          << trial << " bound " << bound;
      stopped += want < full ? 1 : 0;
    }
  }
  EXPECT_GT(stopped, 100) << "the bounds must cut some walks short";
}

// SparseGreedyEmd (both sides sparse, rounds read from the neighbour ranks) and GreedyEmd's
// support overload (jumps to the dense side's non-zero clusters) against GreedyEmd over the
// other side's dense form: the same float, with and without bounds, on planar grounds and on
// a coarse grid of distances where ties decide the order.
TEST(EarthMoversDistance, SparseGreedyEqualsGreedyBitForBit) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int stopped = 0;
  GreedyEmd supported;  // one across trials of every size: its scratch must be left clean
  for (int trial = 0; trial < 300; ++trial) {
    const int n = std::vector<int>{7, 40, 300, 1000}[trial % 4];
    const GroundDistance g = trial_ground(rng, n, trial, 5);
    const NeighbourRanks ranks(g);
    GreedyEmd greedy(n);
    SparseGreedyEmd sparse;
    Sparse p = random_sparse(rng, n, trial % 2 ? 46 : 5);
    Sparse q = random_sparse(rng, n, trial % 5 ? 46 : 3);
    std::vector<float> dense(n, 0.0f);
    for (std::size_t e = 0; e < q.cluster.size(); ++e) dense[q.cluster[e]] = q.mass[e];
    const int ps = static_cast<int>(p.cluster.size()), qs = static_cast<int>(q.cluster.size());
    // The support overload may be given clusters where the dense side is zero too.
    std::vector<std::uint32_t> support = q.cluster;
    if (trial % 7 == 0) support.push_back(static_cast<std::uint32_t>(rng() % n));
    const double full = greedy(p.cluster.data(), p.mass.data(), ps, dense.data(), g);
    ASSERT_EQ(
        sparse(p.cluster.data(), p.mass.data(), ps, q.cluster.data(), q.mass.data(), qs, g, ranks),
        full)
        << trial;
    ASSERT_EQ(supported(p.cluster.data(), p.mass.data(), ps, dense.data(), support, g), full)
        << trial;
    for (double bound : {0.0, full * u(rng), full, full * 2}) {
      const double want = greedy(p.cluster.data(), p.mass.data(), ps, dense.data(), g, bound);
      ASSERT_EQ(sparse(p.cluster.data(), p.mass.data(), ps, q.cluster.data(), q.mass.data(), qs, g,
                       ranks, bound),
                want)
          << trial << " bound " << bound;
      ASSERT_EQ(supported(p.cluster.data(), p.mass.data(), ps, dense.data(), support, g, bound),
                want)
          << trial << " bound " << bound;
      stopped += want < full ? 1 : 0;
    }
  }
  EXPECT_GT(stopped, 50) << "the bounds must cut some walks short";
}

}  // namespace
}  // namespace hulhe
