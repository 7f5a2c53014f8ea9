// Card-abstraction kernels: EMD (greedy vs exact, with the greedy's error as counters),
// nearest-centre assignment (blocked L2, L1, pruned EMD) and whole k-means fits, on
// synthetic data shaped like HULHE's (8-D OCHS rows, 50-bin CDFs, 47-card next-round
// histograms over 1,000 clusters). End-to-end times per stage of `hulhe abstract` are in
// docs/benchmarks.md, measured with the command itself.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "abstraction/abstraction_builder.h"
#include "abstraction/bucket_map.h"
#include "abstraction/clustering/earth_movers_distance.h"
#include "abstraction/clustering/kmeans.h"
#include "abstraction/features/hand_features.h"
#include "abstraction/features/next_round_buckets.h"
#include "game/hand_indexer.h"
#include "tests/support/planar_ground.h"

namespace hulhe {
namespace {

// Hands' next-round histograms, mostly among the 30 clusters nearest a hand's home.
SparseHistograms sparse_points(std::int64_t rows, const GroundDistance& g, int draws,
                               std::uint64_t seed) {
  return testing::planar_histograms(rows, g, draws, 30, seed);
}

std::vector<float> dense_mean(const SparseHistograms& h, std::int64_t first, std::int64_t count) {
  std::vector<float> m(h.dims, 0.0f);
  for (std::int64_t i = first; i < first + count; ++i)
    for (int e = 0; e < h.size(i); ++e) m[h.cluster_of(i)[e]] += h.mass_of(i)[e] / count;
  return m;
}

// Greedy EMD (Ganzfried & Sandholm 2014, Algorithm 2): one flop-like hand (47 draws) against
// a dense cluster mean over N next-round clusters.
void BM_GreedyEmd(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::mt19937_64 rng(1);
  GroundDistance g = testing::planar_ground(rng, n);
  SparseHistograms h = sparse_points(256, g, 47, 2);
  std::vector<float> mean = dense_mean(h, 0, 256);
  GreedyEmd emd(n);
  std::int64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(emd(h.cluster_of(i), h.mass_of(i), h.size(i), mean.data(), g));
    i = (i + 1) % h.rows;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GreedyEmd)->Arg(50)->Arg(200)->Arg(1000);

// Exact transport for the same problem, and the greedy's relative error over the cases
// (counters: mean_rel_error, max_rel_error).
void BM_ExactEmdAndGreedyError(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::mt19937_64 rng(3);
  GroundDistance g = testing::planar_ground(rng, n);
  SparseHistograms h = sparse_points(64, g, 47, 4);
  GreedyEmd emd(n);
  double sum_rel = 0, max_rel = 0;
  std::int64_t cases = 0, i = 0;
  for (auto _ : state) {
    std::vector<float> mean = dense_mean(h, (i * 7) % 32, 32);
    double exact = emd_exact(h.cluster_of(i), h.mass_of(i), h.size(i), mean.data(), g);
    state.PauseTiming();
    double approx = emd(h.cluster_of(i), h.mass_of(i), h.size(i), mean.data(), g);
    double rel = (approx - exact) / exact;
    sum_rel += rel;
    max_rel = std::max(max_rel, rel);
    ++cases;
    i = (i + 1) % h.rows;
    state.ResumeTiming();
  }
  state.counters["mean_rel_error"] = sum_rel / cases;
  state.counters["max_rel_error"] = max_rel;
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ExactEmdAndGreedyError)->Arg(20)->Arg(50)->Unit(benchmark::kMillisecond);

FeatureMatrix uniform_rows(std::int64_t rows, int cols, std::uint64_t seed, bool cdf) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  FeatureMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.data.resize(static_cast<std::size_t>(rows) * cols);
  for (std::int64_t i = 0; i < rows; ++i) {
    float run = 0;
    for (int j = 0; j < cols; ++j) {
      float v = u(rng);
      run += cdf ? v / cols : 0;
      m.row(i)[j] = cdf ? std::min(run, 1.0f) : v;
    }
  }
  return m;
}

KMeansAlgorithm algorithm_arg(std::int64_t a) {
  return a != 0 ? KMeansAlgorithm::kBounded : KMeansAlgorithm::kExact;
}

// Nearest of k centres for 8-D OCHS-like rows: args threads, k, algorithm (0 = kExact's
// blocked Eigen products, 1 = kBounded's projection search), per hand.
void BM_AssignL2Ochs(benchmark::State& state) {
  FeatureMatrix x = uniform_rows(200000, 8, 1, false);
  FeatureMatrix c = uniform_rows(state.range(1), 8, 2, false);
  std::vector<std::int32_t> a;
  for (auto _ : state)
    benchmark::DoNotOptimize(assign_nearest(x, c, KMeansMetric::kL2, a,
                                            static_cast<int>(state.range(0)), {},
                                            algorithm_arg(state.range(2))));
  state.SetItemsProcessed(state.iterations() * x.rows);
}
BENCHMARK(BM_AssignL2Ochs)
    ->Args({1, 1000, 0})
    ->Args({2, 1000, 0})
    ->Args({2, 1000, 1})
    ->Args({2, 9000, 0})
    ->Args({2, 9000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Nearest of 1,000 centres under the 1-D EMD (L1 on 50-bin CDFs), per hand; arg: algorithm.
void BM_AssignL1Cdf(benchmark::State& state) {
  FeatureMatrix x = uniform_rows(20000, 50, 3, true);
  FeatureMatrix c = uniform_rows(1000, 50, 4, true);
  std::vector<std::int32_t> a;
  for (auto _ : state)
    benchmark::DoNotOptimize(
        assign_nearest(x, c, KMeansMetric::kL1, a, 2, {}, algorithm_arg(state.range(0))));
  state.SetItemsProcessed(state.iterations() * x.rows);
}
BENCHMARK(BM_AssignL1Cdf)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Nearest of 1,000 mean histograms under the greedy EMD, potential-aware: first arg =
// candidate cap (0 = exact argmin with lower-bound pruning), second = 1 when the ground
// distance has an embedding (mean-embedding bound on top of the pivot bounds), per hand.
void BM_AssignEmdPotential(benchmark::State& state) {
  std::mt19937_64 rng(5);
  const int k = state.range(3) != 0 ? static_cast<int>(state.range(3)) : 1000;
  GroundDistance g = testing::planar_ground(rng, 1000, state.range(1) != 0);
  SparseHistograms x = sparse_points(4000, g, 47, 6);
  SparseHistograms seeds = sparse_points(static_cast<std::int64_t>(k) * 8, g, 47, 7);
  FeatureMatrix c;
  c.rows = k;
  c.cols = 1000;
  for (int j = 0; j < k; ++j) {
    auto m = dense_mean(seeds, j * 8, 8);
    c.data.insert(c.data.end(), m.begin(), m.end());
  }
  std::vector<std::int32_t> a;
  for (auto _ : state)
    benchmark::DoNotOptimize(assign_nearest_emd(x, c, g, static_cast<int>(state.range(0)), a, 2, {},
                                                algorithm_arg(state.range(2))));
  state.SetItemsProcessed(state.iterations() * x.rows);
}
// Third arg: algorithm (0 = kExact, 1 = kBounded, the same assignment); fourth: centres
// (0 = 1,000).
BENCHMARK(BM_AssignEmdPotential)
    ->Args({0, 0, 0, 0})
    ->Args({16, 0, 0, 0})
    ->Args({4, 0, 0, 0})
    ->Args({4, 1, 0, 0})
    ->Args({4, 1, 1, 0})
    ->Args({2, 1, 0, 0})
    ->Args({1, 1, 0, 0})
    ->Args({16, 1, 0, 9000})
    ->Args({16, 1, 1, 9000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The standard config's turn assignment in miniature: hands of 46 river cards over 740 river
// clusters (with a 2-D embedding, as OCHS centres have an 8-D one), against 3,000 centres that
// are single hands (on the real turn no Lloyd step beats the k-means++ seeds, so the centres
// are as sparse as the hands), 4 candidates, bounded kernels. Args: threads, river clusters
// (740: the standard map; 9,000: the large map, where the hands and centres are far sparser
// than the ground and the greedy EMD walks long neighbour lists).
void BM_AssignEmdTurnLike(benchmark::State& state) {
  std::mt19937_64 rng(5);
  const int clusters = static_cast<int>(state.range(1));
  GroundDistance g = testing::planar_ground(rng, clusters, true);
  SparseHistograms x = sparse_points(clusters > 1000 ? 2000 : 8000, g, 46, 6);
  SparseHistograms seeds = sparse_points(3000, g, 46, 7);
  FeatureMatrix c;
  c.rows = 3000;
  c.cols = clusters;
  for (int j = 0; j < 3000; ++j) {
    auto m = dense_mean(seeds, j, 1);
    c.data.insert(c.data.end(), m.begin(), m.end());
  }
  std::vector<std::int32_t> a;
  for (auto _ : state)
    benchmark::DoNotOptimize(assign_nearest_emd(x, c, g, 4, a, static_cast<int>(state.range(0)), {},
                                                KMeansAlgorithm::kBounded));
  state.SetItemsProcessed(state.iterations() * x.rows);
}
BENCHMARK(BM_AssignEmdTurnLike)
    ->Args({1, 740})
    ->Args({2, 740})
    ->Args({1, 9000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The potential-aware fit of the standard config's turn: 30,000 sampled hands, k = 1,000
// centres over 1,000 next-round clusters (k-means++ by the lower bound, Lloyd with 4
// candidates), 3 Lloyd iterations, 2 threads.
void BM_KMeansEmdFit(benchmark::State& state) {
  std::mt19937_64 rng(5);
  GroundDistance g = testing::planar_ground(rng, 1000, true);
  SparseHistograms x = sparse_points(30000, g, 46, 8);
  KMeansOptions o;
  o.clusters = 1000;
  o.max_iterations = 3;
  o.candidates = 4;
  o.threads = 2;
  o.algorithm = algorithm_arg(state.range(0));
  for (auto _ : state) {
    KMeansResult r = kmeans_emd(x, g, o);
    state.counters["seed_cost"] = r.cost_history.front() / static_cast<double>(x.rows);
    state.counters["fit_cost"] = r.cost / static_cast<double>(x.rows);
    state.counters["lloyd_steps_kept"] = static_cast<double>(r.cost_history.size() - 1);
  }
}
// Arg: algorithm (0 = kExact, 1 = kBounded), the same sample and seed; counters are the
// objective (mean greedy EMD per hand).
BENCHMARK(BM_KMeansEmdFit)->Arg(0)->Arg(1)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

// A whole k-means fit (k-means++, Hamerly-pruned Lloyd): 100,000 8-D rows, args k and
// algorithm (0 = kExact, 1 = kBounded); counter cost = the k-means objective (sum of
// squared distances) of the fit, the same sample and seed for both algorithms.
void BM_KMeansFitL2(benchmark::State& state) {
  FeatureMatrix x = uniform_rows(100000, 8, 8, false);
  KMeansOptions o;
  o.clusters = static_cast<int>(state.range(0));
  o.max_iterations = 10;
  o.threads = 2;
  o.algorithm = algorithm_arg(state.range(1));
  for (auto _ : state) state.counters["cost"] = kmeans(x, KMeansMetric::kL2, o).cost;
}
BENCHMARK(BM_KMeansFitL2)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({9000, 0})
    ->Args({9000, 1})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);

// The real turn sample of BM_RealTurnFit and BM_RealTurnAssign, built once: HULHE_BUCKETS's
// river gives the ground distance; nullptr (and `why`) without a usable map.
struct RealTurnSample {
  GroundDistance ground;
  SparseHistograms x;      // the sampled turn hands' next-round histograms
  SparseHistograms check;  // every 20th of them
  int k = 9000;
};

const RealTurnSample* real_turn_sample(const char*& why) {
  static std::unique_ptr<RealTurnSample> sample;
  static const char* error = nullptr;
  static bool built = false;
  if (!built) {
    built = true;
    const char* path = std::getenv("HULHE_BUCKETS");
    if (path == nullptr) {
      error = "set HULHE_BUCKETS to a bucket map with a k-means river";
    } else {
      BucketMap map = BucketMap::load(path);
      const RoundBuckets& river = map.rounds[3];
      if (river.centres.rows == 0) {
        error = "the map's river has no centres";
      } else {
        sample = std::make_unique<RealTurnSample>(
            RealTurnSample{GroundDistance(static_cast<int>(river.centres.rows),
                                          centre_distances(river.centres, KMeansMetric::kL2)),
                           {},
                           {},
                           9000});
        RealTurnSample& s = *sample;
        s.ground.set_embedding(river.centres.data, river.centres.cols, false);
        const char* k_env = std::getenv("HULHE_TURN_BUCKETS");
        const char* n_env = std::getenv("HULHE_TURN_SAMPLE");
        if (k_env) s.k = std::atoi(k_env);
        const std::int64_t n = n_env ? std::atoll(n_env) : 200000;
        const HandIndexer& turn = HandIndexer::holdem(2);
        const int per_row = next_round_successors(2);
        const std::vector<std::int64_t> rows =
            sample_rows(static_cast<std::int64_t>(turn.size()), n, 7);
        std::vector<std::int32_t> lists(rows.size() * per_row);
        for (std::size_t i = 0; i < rows.size(); ++i) {
          Card cards[7];
          turn.unindex(static_cast<std::uint64_t>(rows[i]), cards);
          next_round_buckets_of(
              2, cards, [&](std::uint64_t next) { return river[static_cast<std::int64_t>(next)]; },
              lists.data() + i * per_row);
        }
        s.x = histograms_from_lists(lists.data(), static_cast<std::int64_t>(rows.size()), per_row,
                                    s.ground.size(), 2);
        // Every 20th sampled hand, for the exact argmin (thousands of EMDs a hand at 9,000
        // centres).
        s.check.dims = s.x.dims;
        for (std::int64_t i = 0; i < s.x.rows; i += 20) {
          s.check.cluster.insert(s.check.cluster.end(), s.x.cluster_of(i),
                                 s.x.cluster_of(i) + s.x.size(i));
          s.check.mass.insert(s.check.mass.end(), s.x.mass_of(i), s.x.mass_of(i) + s.x.size(i));
          s.check.offset.push_back(static_cast<std::int64_t>(s.check.cluster.size()));
          ++s.check.rows;
        }
      }
    }
  }
  why = error;
  return sample.get();
}

// The turn's k-means options of hulhe abstract for the large config (seed = 1).
KMeansOptions real_turn_options(const RealTurnSample& s, int candidates, int iterations) {
  KMeansOptions o;
  o.clusters = s.k;
  o.max_iterations = iterations;
  o.candidates = candidates;
  o.threads = 2;
  o.seed = 1000003ULL + 2;  // the turn's seed in hulhe abstract with seed = 1
  o.algorithm = KMeansAlgorithm::kBounded;
  return o;
}

// The turn's fit on real hands, for the large map's parameters: HULHE_BUCKETS names a bucket
// map whose river is k-means (its centres give the ground distance, as in hulhe abstract),
// HULHE_TURN_BUCKETS (default 9,000) the centres and HULHE_TURN_SAMPLE (default 200,000) the
// sampled turn hands. Args: candidates (EMDs per hand; 0 = the exact argmin of the greedy
// EMD), Lloyd iterations. The same sample and k-means++ seeds for every arg; counters:
// fit_cost (mean greedy EMD per hand of the fit) and exact_cost (the fitted centres with
// every 20th sampled hand at its exact greedy-EMD argmin), so fits with few and many
// candidates compare on one objective. Skipped without HULHE_BUCKETS.
void BM_RealTurnFit(benchmark::State& state) {
  const char* why = nullptr;
  const RealTurnSample* s = real_turn_sample(why);
  if (s == nullptr) {
    state.SkipWithError(why);
    return;
  }
  const SparseHistograms& x = s->x;
  const SparseHistograms& check = s->check;
  const GroundDistance& ground = s->ground;
  const KMeansOptions o =
      real_turn_options(*s, static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    KMeansResult r = kmeans_emd(x, ground, o);
    std::vector<std::int32_t> a;
    const double exact =
        assign_nearest_emd(check, r.centres, ground, 0, a, 2, {}, KMeansAlgorithm::kBounded);
    state.counters["seed_cost"] = r.cost_history.front() / static_cast<double>(x.rows);
    state.counters["fit_cost"] = r.cost / static_cast<double>(x.rows);
    state.counters["exact_cost"] = exact / static_cast<double>(check.rows);
    state.counters["lloyd_steps_kept"] = static_cast<double>(r.cost_history.size() - 1);
  }
}
BENCHMARK(BM_RealTurnFit)
    ->Args({4, 20})
    ->Args({16, 20})
    ->Args({128, 20})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);

// The large turn's final assignment on real hands (the step that labels all 13,960,050 turn
// hands in hulhe abstract): the sample of BM_RealTurnFit against its k-means++ centres (fitted
// once, no Lloyd step), arg = candidates. Items = hands; counter cost = mean greedy EMD.
void BM_RealTurnAssign(benchmark::State& state) {
  const char* why = nullptr;
  const RealTurnSample* s = real_turn_sample(why);
  if (s == nullptr) {
    state.SkipWithError(why);
    return;
  }
  static const FeatureMatrix centres =
      kmeans_emd(s->x, s->ground, real_turn_options(*s, 4, 1)).centres;
  std::vector<std::int32_t> a;
  double cost = 0.0;
  for (auto _ : state)
    cost = assign_nearest_emd(s->x, centres, s->ground, static_cast<int>(state.range(0)), a, 2, {},
                              KMeansAlgorithm::kBounded);
  state.counters["cost"] = cost / static_cast<double>(s->x.rows);
  state.SetItemsProcessed(state.iterations() * s->x.rows);
}
BENCHMARK(BM_RealTurnAssign)
    ->Arg(4)
    ->Arg(16)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
}  // namespace hulhe

BENCHMARK_MAIN();
