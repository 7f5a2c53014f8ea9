#include "abstraction/kmeans.h"

#include <omp.h>

#include "abstraction/nearest_centre.h"
#include "util/split_mix64.h"
#include "util/thread_start.h"

// GCC 12 reports false "maybe-uninitialized" inside its own AVX-512 intrinsics when it
// inlines Eigen's matrix product (a known GCC bug); nothing in this file is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
// Eigen stays single-threaded: parallelism is ours (OpenMP over blocks), and a fixed
// product order keeps results independent of the thread count.
#define EIGEN_DONT_PARALLELIZE
#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>

namespace hulhe {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr double kInf = std::numeric_limits<double>::infinity();

double cost_of(double distance, KMeansMetric metric) {
  return metric == KMeansMetric::kL2 ? distance * distance : distance;
}

// Progress from a parallel loop: workers bump a counter, thread 0 reports at most every
// half second.
class ParallelProgress {
 public:
  ParallelProgress(const KMeansProgress& progress, const char* stage, std::int64_t total)
      : progress_(progress), stage_(stage), total_(total) {}
  void add(std::int64_t n) {
    std::int64_t done = done_.fetch_add(n, std::memory_order_relaxed) + n;
    // The last step is reported once, by finish().
    if (!progress_ || omp_get_thread_num() != 0 || done >= total_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(500)) return;
    last_ = now;
    progress_(stage_, done, total_);
  }
  void finish() {
    if (progress_) progress_(stage_, total_, total_);
  }

 private:
  const KMeansProgress& progress_;
  const char* stage_;
  std::int64_t total_;
  std::atomic<std::int64_t> done_{0};
  std::chrono::steady_clock::time_point last_{};
};

FeatureMatrix take_rows(const FeatureMatrix& points, const std::vector<std::int64_t>& rows) {
  FeatureMatrix out;
  out.rows = static_cast<std::int64_t>(rows.size());
  out.cols = points.cols;
  out.data.resize(static_cast<std::size_t>(out.rows) * out.cols);
  for (std::int64_t i = 0; i < out.rows; ++i)
    std::copy(points.row(rows[i]), points.row(rows[i]) + points.cols, out.row(i));
  return out;
}

SparseHistograms take_rows(const SparseHistograms& points, const std::vector<std::int64_t>& rows) {
  SparseHistograms out;
  out.rows = static_cast<std::int64_t>(rows.size());
  out.dims = points.dims;
  for (std::int64_t r : rows) {
    out.cluster.insert(out.cluster.end(), points.cluster_of(r),
                       points.cluster_of(r) + points.size(r));
    out.mass.insert(out.mass.end(), points.mass_of(r), points.mass_of(r) + points.size(r));
    out.offset.push_back(static_cast<std::int64_t>(out.cluster.size()));
  }
  return out;
}

// Members of every cluster in ascending row order (a counting sort), so per-cluster sums
// have a fixed order whatever the thread count.
struct Members {
  std::vector<std::int64_t> start;  // clusters + 1
  std::vector<std::int64_t> rows;
};

Members group_members(const std::vector<std::int32_t>& assignment, int clusters) {
  Members m;
  m.start.assign(clusters + 1, 0);
  for (std::int32_t a : assignment) ++m.start[a + 1];
  for (int c = 0; c < clusters; ++c) m.start[c + 1] += m.start[c];
  m.rows.resize(assignment.size());
  std::vector<std::int64_t> next(m.start.begin(), m.start.end() - 1);
  for (std::size_t i = 0; i < assignment.size(); ++i) m.rows[next[assignment[i]]++] = i;
  return m;
}

// k-means++ (Arthur & Vassilvitskii 2007): each new centre is a point drawn with probability
// proportional to its current cost (D^2 for L2; D for L1 and EMD, the k-median variant).
// `cost_to(i, c)` is the cost of point i to the centre made from point c.
// `prepare(c)` runs once, serially, before the costs to a new centre c are computed.
template <typename Prepare, typename CostTo>
std::vector<std::int64_t> plus_plus_seeds(std::int64_t n, int k, SplitMix64& rng, int threads,
                                          const KMeansProgress& progress, Prepare prepare,
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
    if (progress && (c % 16 == 0 || c + 1 == k)) progress("seed", c + 1, k);
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
                                                  const KMeansProgress& progress,
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
    if (progress && (c % 16 == 0 || c + 1 == k)) progress("seed", c + 1, k);
  }
  return seeds;
}

// Centre update given the assignment: mean (L2) or coordinate-wise lower median (L1). An
// empty cluster keeps its centre.
void update_centres(const FeatureMatrix& x, const std::vector<std::int32_t>& assignment,
                    KMeansMetric metric, FeatureMatrix& centres, int threads) {
  const int k = static_cast<int>(centres.rows);
  const int dims = x.cols;
  Members m = group_members(assignment, k);
#pragma omp parallel num_threads(threads)
  {
    std::vector<double> sum(dims);
    std::vector<float> values;
#pragma omp for schedule(dynamic, 4)
    for (int c = 0; c < k; ++c) {
      const std::int64_t begin = m.start[c], end = m.start[c + 1];
      if (begin == end) continue;
      float* centre = centres.row(c);
      if (metric == KMeansMetric::kL2) {
        std::fill(sum.begin(), sum.end(), 0.0);
        for (std::int64_t r = begin; r < end; ++r) {
          const float* p = x.row(m.rows[r]);
          for (int j = 0; j < dims; ++j) sum[j] += p[j];
        }
        for (int j = 0; j < dims; ++j) centre[j] = static_cast<float>(sum[j] / (end - begin));
      } else {
        values.resize(end - begin);
        for (int j = 0; j < dims; ++j) {
          for (std::int64_t r = begin; r < end; ++r) values[r - begin] = x.row(m.rows[r])[j];
          auto mid = values.begin() + (values.size() - 1) / 2;
          std::nth_element(values.begin(), mid, values.end());
          centre[j] = *mid;
        }
      }
    }
  }
}

// Euclidean or L1 distance between all centre pairs, flat k x k.
std::vector<float> pairwise(const FeatureMatrix& centres, KMeansMetric metric, int threads) {
  const int k = static_cast<int>(centres.rows);
  std::vector<float> d(static_cast<std::size_t>(k) * k, 0.0f);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 8)
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b)
      d[static_cast<std::size_t>(a) * k + b] =
          static_cast<float>(metric_distance(centres.row(a), centres.row(b), centres.cols, metric));
  return d;
}

struct LloydRun {
  FeatureMatrix centres;
  std::vector<std::int32_t> assignment;
  std::vector<double> history;
  double cost = kInf;
};

// Restarts keep the cheapest run (the first of equals).
void keep_cheaper(LloydRun&& run, int restart, LloydRun& best, KMeansResult& result) {
  if (run.cost < best.cost) {
    best = std::move(run);
    result.best_restart = restart;
  }
}

// The cheapest run's centres and cost history into `result`, and its assignment and cost
// when it was fitted on every point (after a sample the caller assigns them all).
void take_best(LloydRun& best, bool sampled, KMeansResult& result) {
  result.centres = std::move(best.centres);
  result.cost_history = std::move(best.history);
  result.iterations = static_cast<int>(result.cost_history.size());
  if (sampled) return;
  result.assignment = std::move(best.assignment);
  result.cost = best.cost;
}

// One restart of Lloyd's algorithm on `x` with Hamerly's bounds: u = upper bound of the
// distance to the own centre, l = lower bound of the distance to any other. A point whose
// u <= max(l, s(own)/...) cannot change cluster and skips the scan of all k centres.
LloydRun lloyd(const FeatureMatrix& x, KMeansMetric metric, const KMeansOptions& o,
               std::uint64_t seed, const KMeansProgress& progress) {
  const int threads = thread_count_or_default(o.threads);
  const std::int64_t n = x.rows;
  const int dims = x.cols;
  const int k = o.clusters;
  SplitMix64 rng(seed);
  const bool bounded = o.algorithm == KMeansAlgorithm::kBounded;
  auto seeds =
      bounded ? plus_plus_seeds_bounded(n, k, metric == KMeansMetric::kL2, rng, threads, progress,
                                        [&](std::int64_t i, std::int64_t c) {
                                          return metric_distance(x.row(i), x.row(c), dims, metric);
                                        })
              : plus_plus_seeds(
                    n, k, rng, threads, progress, [](std::int64_t) {},
                    [&](std::int64_t i, std::int64_t c) {
                      return cost_of(metric_distance(x.row(i), x.row(c), dims, metric), metric);
                    });
  LloydRun run;
  run.centres = take_rows(x, seeds);
  run.assignment.assign(n, 0);
  std::vector<double> upper(n, kInf), lower(n, 0.0);
  std::vector<float> dist_to_own(n);
  std::vector<double> half_gap(k), moved(k, 0.0);
  bool first = true;
  for (int it = 0; it < o.max_iterations; ++it) {
    // s(c) = half the distance from c to its nearest other centre.
    std::optional<NearestCentre> search;
    if (bounded) {
      search.emplace(run.centres, metric);
#pragma omp parallel for num_threads(threads) schedule(static)
      for (int c = 0; c < k; ++c) {
        // The nearest centre of a centre is itself (or an equal one): the other is second.
        NearestCentre::Hit h = search->nearest(run.centres.row(c), true);
        half_gap[c] = k > 1 ? (h.best == c ? h.second_distance : h.best_distance) / 2 : kInf;
      }
    } else {
      std::vector<float> cc = pairwise(run.centres, metric, threads);
      for (int c = 0; c < k; ++c) {
        double best = kInf;
        for (int b = 0; b < k; ++b)
          if (b != c) best = std::min<double>(best, cc[static_cast<std::size_t>(c) * k + b]);
        half_gap[c] = k > 1 ? best / 2 : kInf;
      }
    }
    // Bounds follow the centres' moves (Hamerly): own centre moved[a], others at most the
    // largest move of any other centre.
    int far1 = 0, far2 = -1;
    for (int c = 1; c < k; ++c) {
      if (moved[c] > moved[far1]) {
        far2 = far1;
        far1 = c;
      } else if (far2 < 0 || moved[c] > moved[far2]) {
        far2 = c;
      }
    }
    std::int64_t changed = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(+ : changed)
    for (std::int64_t i = 0; i < n; ++i) {
      const float* p = x.row(i);
      int own = run.assignment[i];
      if (!first) {
        upper[i] += moved[own];
        lower[i] -= own == far1 ? (far2 >= 0 ? moved[far2] : 0.0) : moved[far1];
        double bound = std::max(half_gap[own], lower[i]);
        if (upper[i] <= bound) continue;
        upper[i] = metric_distance(p, run.centres.row(own), dims, metric);
        if (upper[i] <= bound) continue;
      }
      if (bounded) {
        NearestCentre::Hit h = search->nearest(p, true);
        if (h.best != own) ++changed;
        run.assignment[i] = h.best;
        upper[i] = h.best_distance;
        lower[i] = h.second_distance;
        continue;
      }
      double best = kInf, second = kInf;
      int best_c = own;
      for (int c = 0; c < k; ++c) {
        double d = metric_distance(p, run.centres.row(c), dims, metric);
        if (d < best) {
          second = best;
          best = d;
          best_c = c;
        } else if (d < second) {
          second = d;
        }
      }
      if (best_c != own) ++changed;
      run.assignment[i] = best_c;
      upper[i] = best;
      lower[i] = second;
    }
    // The exact cost of this assignment with these centres (and tight upper bounds).
    double cost = 0.0;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      dist_to_own[i] = static_cast<float>(
          metric_distance(x.row(i), run.centres.row(run.assignment[i]), dims, metric));
      upper[i] = dist_to_own[i];
    }
    for (std::int64_t i = 0; i < n; ++i) cost += cost_of(dist_to_own[i], metric);
    run.history.push_back(cost);
    run.cost = cost;
    if (progress) progress("lloyd", it + 1, o.max_iterations);
    if (!first && (changed == 0 || run.history[run.history.size() - 2] - cost <=
                                       o.tolerance * run.history[run.history.size() - 2]))
      break;
    first = false;
    FeatureMatrix old = run.centres;
    update_centres(x, run.assignment, metric, run.centres, threads);
    // An empty cluster takes the point farthest from its centre (ties: lowest row), which
    // can only lower the cost.
    std::vector<std::int64_t> size(k, 0);
    for (std::int32_t a : run.assignment) ++size[a];
    for (int c = 0; c < k; ++c) {
      if (size[c] > 0) continue;
      std::int64_t far = 0;
      for (std::int64_t i = 1; i < n; ++i)
        if (dist_to_own[i] > dist_to_own[far]) far = i;
      if (dist_to_own[far] <= 0.0f) break;  // every point sits on a centre already
      std::copy(x.row(far), x.row(far) + dims, run.centres.row(c));
      --size[run.assignment[far]];
      ++size[c];
      dist_to_own[far] = 0.0f;
      lower[far] = 0.0;  // force a rescan
      upper[far] = kInf;
    }
    for (int c = 0; c < k; ++c)
      moved[c] = metric_distance(old.row(c), run.centres.row(c), dims, metric);
  }
  const auto steps = static_cast<std::int64_t>(run.history.size());
  if (progress && steps < o.max_iterations) progress("lloyd", steps, steps);  // converged early
  return run;
}

}  // namespace

double metric_distance(const float* a, const float* b, int dims, KMeansMetric metric) {
  float s = 0.0f;
  if (metric == KMeansMetric::kL2) {
    for (int j = 0; j < dims; ++j) {
      float t = a[j] - b[j];
      s += t * t;
    }
    return std::sqrt(static_cast<double>(s));
  }
  for (int j = 0; j < dims; ++j) s += std::abs(a[j] - b[j]);
  return s;
}

namespace {

// assign_nearest by the exact projection-bounded search (abstraction/nearest_centre.h):
// the same nearest centres as a brute-force scan in index order.
double assign_nearest_bounded(const FeatureMatrix& points, const FeatureMatrix& centres,
                              KMeansMetric metric, std::vector<std::int32_t>& assignment,
                              int threads_in, const KMeansProgress& progress) {
  const int threads = thread_count_or_default(threads_in);
  const std::int64_t n = points.rows;
  assignment.assign(n, 0);
  const NearestCentre search(centres, metric);
  constexpr std::int64_t kBlock = 4096;
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<double> block_cost(blocks, 0.0);
  ParallelProgress report(progress, "assign", n);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t begin = b * kBlock, end = std::min(n, begin + kBlock);
    double cost = 0.0;
    for (std::int64_t i = begin; i < end; ++i) {
      NearestCentre::Hit h = search.nearest(points.row(i), false);
      assignment[i] = h.best;
      cost += cost_of(h.best_distance, metric);
    }
    block_cost[b] = cost;
    report.add(end - begin);
  }
  report.finish();
  return std::accumulate(block_cost.begin(), block_cost.end(), 0.0);
}

}  // namespace

std::vector<std::int64_t> sample_rows(std::int64_t rows, std::int64_t count, std::uint64_t seed) {
  std::vector<std::int64_t> out;
  if (count <= 0 || count >= rows) {
    out.resize(rows);
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  // Selection sampling (Knuth's Algorithm S): one pass, ascending, exactly `count` rows.
  SplitMix64 rng(seed);
  out.reserve(count);
  std::int64_t needed = count;
  for (std::int64_t i = 0; i < rows && needed > 0; ++i) {
    if (static_cast<double>(rows - i) * rng.uniform() < static_cast<double>(needed)) {
      out.push_back(i);
      --needed;
    }
  }
  return out;
}

double assign_nearest(const FeatureMatrix& points, const FeatureMatrix& centres,
                      KMeansMetric metric, std::vector<std::int32_t>& assignment, int threads_in,
                      const KMeansProgress& progress, KMeansAlgorithm algorithm) {
  if (algorithm == KMeansAlgorithm::kBounded)
    return assign_nearest_bounded(points, centres, metric, assignment, threads_in, progress);
  const int threads = thread_count_or_default(threads_in);
  const std::int64_t n = points.rows;
  const int k = static_cast<int>(centres.rows);
  const int dims = points.cols;
  assignment.assign(n, 0);
  constexpr std::int64_t kBlock = 2048;
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  Eigen::Map<const RowMatrix> c(centres.data.data(), k, dims);
  const Eigen::VectorXf c_norm = c.rowwise().squaredNorm();
  std::vector<double> block_cost(blocks, 0.0);
  ParallelProgress report(progress, "assign", n);
#pragma omp parallel num_threads(threads)
  {
    RowMatrix dots;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::int64_t begin = b * kBlock, end = std::min(n, begin + kBlock);
      double cost = 0.0;
      if (metric == KMeansMetric::kL2) {
        // |x - c|^2 = |x|^2 - 2 x.c + |c|^2; |x|^2 is the same for every centre, so the
        // argmin needs only one matrix product per block.
        Eigen::Map<const RowMatrix> xb(points.row(begin), end - begin, dims);
        dots.noalias() = xb * c.transpose();
        for (std::int64_t i = begin; i < end; ++i) {
          const float* row = dots.data() + (i - begin) * k;
          int best = 0;
          float best_v = c_norm[0] - 2 * row[0];
          for (int j = 1; j < k; ++j) {
            float v = c_norm[j] - 2 * row[j];
            if (v < best_v) {
              best_v = v;
              best = j;
            }
          }
          assignment[i] = best;
          cost += cost_of(metric_distance(points.row(i), centres.row(best), dims, metric), metric);
        }
      } else {
        for (std::int64_t i = begin; i < end; ++i) {
          const float* p = points.row(i);
          int best = 0;
          float best_d = std::numeric_limits<float>::infinity();
          for (int j = 0; j < k; ++j) {
            const float* q = centres.row(j);
            float s = 0.0f;
            // Partial distance: give up on a centre once it is already worse.
            for (int t = 0; t < dims && s < best_d; ++t) s += std::abs(p[t] - q[t]);
            if (s < best_d) {
              best_d = s;
              best = j;
            }
          }
          assignment[i] = best;
          cost += metric_distance(p, centres.row(best), dims, metric);
        }
      }
      block_cost[b] = cost;
      report.add(end - begin);
    }
  }
  report.finish();
  return std::accumulate(block_cost.begin(), block_cost.end(), 0.0);
}

KMeansResult kmeans(const FeatureMatrix& points, KMeansMetric metric, const KMeansOptions& o,
                    const KMeansProgress& progress) {
  if (o.clusters <= 0 || points.rows <= 0)
    throw std::invalid_argument("kmeans: need at least one cluster and one point");
  KMeansOptions opts = o;
  opts.clusters = static_cast<int>(std::min<std::int64_t>(o.clusters, points.rows));
  const bool sampled = o.sample_size > 0 && o.sample_size < points.rows;
  FeatureMatrix sample;
  if (sampled) sample = take_rows(points, sample_rows(points.rows, o.sample_size, o.seed ^ 0x5A));
  const FeatureMatrix& fit = sampled ? sample : points;
  LloydRun best;
  KMeansResult result;
  for (int r = 0; r < std::max(1, o.restarts); ++r) {
    keep_cheaper(lloyd(fit, metric, opts, o.seed + 0x9E3779B97F4A7C15ULL * (r + 1), progress), r,
                 best, result);
  }
  take_best(best, sampled, result);
  if (sampled)
    result.cost = assign_nearest(points, result.centres, metric, result.assignment, o.threads,
                                 progress, o.algorithm);
  return result;
}

std::vector<float> centre_distances(const FeatureMatrix& centres, KMeansMetric metric) {
  return pairwise(centres, metric, 1);
}

// ---------------------------------------------------------------------------------------
// Potential-aware: sparse histograms, greedy EMD, mean centres.

namespace {

// Lower bounds of the EMD from pivot potentials: f_r(i) = ground(i, r) is 1-Lipschitz when
// the ground distance obeys the triangle inequality, so by Kantorovich duality
// EMD(p, q) >= |sum_i p_i f_r(i) - sum_i q_i f_r(i)| for every pivot r. When the ground
// distance has an embedding (GroundDistance::set_embedding), the distance between mean
// embeddings is a second bound; the larger one is used. A histogram's projection is its
// pivot potentials followed by its mean embedding (stride() floats).
struct PivotBounds {
  std::vector<int> pivots;
  std::vector<float> pivot_rows;  // n x pivots: ground(i, pivots[r])
  int edims = 0;
  bool l1 = false;
  static constexpr int kPivots = 16;
  static constexpr int kMaxStride = 64;  // embeddings wider than 48 are not used

  explicit PivotBounds(const GroundDistance& g) {
    // Farthest-first traversal from cluster 0 spreads the pivots.
    const int n = g.size();
    const int count = std::min(kPivots, n);
    std::vector<float> nearest(n, std::numeric_limits<float>::infinity());
    int next = 0;
    for (int p = 0; p < count; ++p) {
      pivots.push_back(next);
      int far = 0;
      for (int i = 0; i < n; ++i) {
        nearest[i] = std::min(nearest[i], g(i, next));
        if (nearest[i] > nearest[far]) far = i;
      }
      next = far;
    }
    // Each cluster's distances to the pivots side by side: a hand's projection reads one
    // short row per entry instead of one cache line of the n x n matrix per pivot.
    const int np = size();
    pivot_rows.resize(static_cast<std::size_t>(n) * np);
    for (int i = 0; i < n; ++i)
      for (int r = 0; r < np; ++r)
        pivot_rows[static_cast<std::size_t>(i) * np + r] = g(i, pivots[r]);
    if (g.embedding_dims() > 0 && count + g.embedding_dims() <= kMaxStride) {
      edims = g.embedding_dims();
      l1 = g.embedding_l1();
    }
  }
  int size() const { return static_cast<int>(pivots.size()); }
  int stride() const { return size() + edims; }
  void project_sparse(const std::uint32_t* cl, const float* m, int size_, const GroundDistance& g,
                      float* out) const {
    // Every pivot's sum takes the entries in the same order as a loop per pivot would, so
    // the projection is the same float for float.
    const int np = size();
    std::fill(out, out + np, 0.0f);
    for (int e = 0; e < size_; ++e) {
      const float* d = pivot_rows.data() + static_cast<std::size_t>(cl[e]) * np;
      const float w = m[e];
      for (int r = 0; r < np; ++r) out[r] += w * d[r];
    }
    float* emb = out + size();
    std::fill(emb, emb + edims, 0.0f);
    for (int e = 0; e < size_; ++e) {
      const float* x = g.embedding(static_cast<int>(cl[e]));
      for (int t = 0; t < edims; ++t) emb[t] += m[e] * x[t];
    }
  }
  void project_dense(const float* q, const GroundDistance& g, float* out) const {
    // Reads the pivot rows, not the columns of the n x n matrix (a cache miss per term at
    // 9,000 clusters); each pivot's sum still adds its terms in cluster order, and the zero
    // terms it skips add nothing (distances are >= 0), so the result is the same float.
    const int np = size();
    std::fill(out, out + np, 0.0f);
    for (int i = 0; i < g.size(); ++i) {
      if (q[i] == 0.0f) continue;
      const float* d = pivot_rows.data() + static_cast<std::size_t>(i) * np;
      for (int r = 0; r < np; ++r) out[r] += q[i] * d[r];
    }
    float* emb = out + size();
    std::fill(emb, emb + edims, 0.0f);
    for (int i = 0; i < g.size(); ++i) {
      if (q[i] == 0.0f) continue;
      const float* x = g.embedding(i);
      for (int t = 0; t < edims; ++t) emb[t] += q[i] * x[t];
    }
  }
  // The lower bound between two projections.
  float bound(const float* a, const float* b) const {
    float lb = 0.0f;
    const int np = size();
    for (int r = 0; r < np; ++r) lb = std::max(lb, std::abs(a[r] - b[r]));
    if (edims > 0) {
      float s = 0.0f;
      if (l1) {
        for (int t = np; t < np + edims; ++t) s += std::abs(a[t] - b[t]);
      } else {
        for (int t = np; t < np + edims; ++t) s += (a[t] - b[t]) * (a[t] - b[t]);
        s = std::sqrt(s);
      }
      lb = std::max(lb, s);
    }
    return lb;
  }
};

// Each row's non-zero entries: the sparse side of a greedy EMD against centres.
SparseHistograms nonzero_entries(const FeatureMatrix& rows) {
  SparseHistograms sparse;
  sparse.rows = rows.rows;
  sparse.dims = rows.cols;
  for (std::int64_t a = 0; a < rows.rows; ++a) {
    for (int j = 0; j < rows.cols; ++j)
      if (rows.row(a)[j] > 0.0f) {
        sparse.cluster.push_back(static_cast<std::uint32_t>(j));
        sparse.mass.push_back(rows.row(a)[j]);
      }
    sparse.offset.push_back(static_cast<std::int64_t>(sparse.cluster.size()));
  }
  return sparse;
}

// Each centre's non-zero clusters where they are few (at most one in eight, as for a
// single hand's histogram), else none: the greedy EMD against such a centre jumps between
// them (GreedyEmd's support overload, the same value) instead of walking every cluster.
struct CentreSupports {
  SparseHistograms entries;

  explicit CentreSupports(const FeatureMatrix& centres) : entries(nonzero_entries(centres)) {}
  std::span<const std::uint32_t> of(int c) const {
    const int n = entries.size(c);
    if (n * 8 > entries.dims || n > 255) return {};
    return {entries.cluster_of(c), static_cast<std::size_t>(n)};
  }
};

// The greedy EMD's nearest centre among `order`'s (lower bound, centre) pairs, ascending:
// stops at the first bound above the best distance found (the greedy EMD is >= the exact
// EMD >= the bound), ties to the lower centre. Both EMD assigners end with it.
std::pair<int, double> nearest_among_candidates(std::span<const std::pair<float, int>> order,
                                                const std::uint32_t* cl, const float* m, int size,
                                                const FeatureMatrix& centres,
                                                const CentreSupports& supports,
                                                const GroundDistance& ground, GreedyEmd& emd) {
  double best = kInf;
  int best_c = order[0].second;
  for (const auto& [bound, c] : order) {
    // A small slack keeps float rounding in the projections from pruning a true winner.
    if (bound > best * (1 + 1e-5) + 1e-7) break;
    const std::span<const std::uint32_t> support = supports.of(c);
    const double d = support.empty() || size > 255
                         ? emd(cl, m, size, centres.row(c), ground, best)
                         : emd(cl, m, size, centres.row(c), support, ground, best);
    if (d < best || (d == best && c < best_c)) {
      best = d;
      best_c = c;
    }
  }
  return {best_c, best};
}

// Nearest centre of one point: centres in ascending lower bound, stop when the bound
// reaches the best greedy EMD found (the greedy EMD is >= the exact EMD >= the bound).
struct EmdAssigner {
  using Scratch = std::vector<std::pair<float, int>>;  // the candidates' (bound, centre)
  const FeatureMatrix& centres;
  const CentreSupports& supports;
  const GroundDistance& ground;
  const PivotBounds& bounds;
  const std::vector<float>& centre_proj;  // k x pivots
  int candidates;

  std::pair<int, double> nearest(const std::uint32_t* cl, const float* m, int size, GreedyEmd& emd,
                                 std::vector<std::pair<float, int>>& order) const {
    const int k = static_cast<int>(centres.rows);
    const int np = bounds.stride();
    float proj[PivotBounds::kMaxStride];
    bounds.project_sparse(cl, m, size, ground, proj);
    order.resize(k);
    for (int c = 0; c < k; ++c)
      order[c] = {bounds.bound(proj, centre_proj.data() + static_cast<std::size_t>(c) * np), c};
    const int cap = candidates > 0 ? std::min(candidates, k) : k;
    // Only the `cap` lowest bounds are ever looked at.
    std::partial_sort(order.begin(), order.begin() + cap, order.end());
    return nearest_among_candidates(std::span(order.data(), static_cast<std::size_t>(cap)), cl, m,
                                    size, centres, supports, ground, emd);
  }
};

// EmdAssigner with the same candidates in the same order, found faster (kBounded): the
// centres' projections are stored transposed (one row of k floats per pivot / embedding
// coordinate), so the k lower bounds of a point are a few passes of vectorised max / add
// over contiguous arrays instead of k short scalar loops, with the same float operations
// per centre (bit-identical bounds); and the `cap` lowest (bound, centre) pairs are picked
// by a small insertion list (cap <= 32) or nth_element, not a partial sort of all k.
struct EmdAssignerBounded {
  const FeatureMatrix& centres;
  const CentreSupports& supports;
  const GroundDistance& ground;
  const PivotBounds& bounds;
  const std::vector<float>& centre_proj_t;  // stride x k
  int candidates;

  struct Scratch {
    std::vector<float> lb, sum;
    std::vector<std::pair<float, int>> order;
  };

  std::pair<int, double> nearest(const std::uint32_t* cl, const float* m, int size, GreedyEmd& emd,
                                 Scratch& s) const {
    const int k = static_cast<int>(centres.rows);
    const int np = bounds.size();
    float proj[PivotBounds::kMaxStride];
    bounds.project_sparse(cl, m, size, ground, proj);
    s.lb.resize(k);
    float* lb = s.lb.data();
    std::fill(lb, lb + k, 0.0f);
    for (int r = 0; r < np; ++r) {
      const float a = proj[r];
      const float* row = centre_proj_t.data() + static_cast<std::size_t>(r) * k;
      for (int c = 0; c < k; ++c) lb[c] = std::max(lb[c], std::abs(a - row[c]));
    }
    if (bounds.edims > 0) {
      s.sum.assign(k, 0.0f);
      float* sum = s.sum.data();
      for (int t = np; t < np + bounds.edims; ++t) {
        const float a = proj[t];
        const float* row = centre_proj_t.data() + static_cast<std::size_t>(t) * k;
        if (bounds.l1) {
          for (int c = 0; c < k; ++c) sum[c] += std::abs(a - row[c]);
        } else {
          for (int c = 0; c < k; ++c) sum[c] += (a - row[c]) * (a - row[c]);
        }
      }
      if (!bounds.l1)
        for (int c = 0; c < k; ++c) sum[c] = std::sqrt(sum[c]);
      for (int c = 0; c < k; ++c) lb[c] = std::max(lb[c], sum[c]);
    }
    const int cap = candidates > 0 ? std::min(candidates, k) : k;
    auto& order = s.order;
    if (cap <= 32) {
      // Sorted list of the best `cap` pairs; centres come in ascending index, so a later
      // centre with an equal bound never displaces an earlier one (pair order).
      order.clear();
      const auto offer = [&](int c) {
        if (static_cast<int>(order.size()) == cap && !(lb[c] < order.back().first)) return;
        std::pair<float, int> e{lb[c], c};
        if (static_cast<int>(order.size()) < cap)
          order.push_back(e);
        else
          order.back() = e;
        for (std::size_t t = order.size() - 1; t > 0 && order[t] < order[t - 1]; --t)
          std::swap(order[t], order[t - 1]);
      };
      int c = 0;
      for (; c < k && static_cast<int>(order.size()) < cap; ++c) offer(c);
      // Once the list is full almost no bound beats its last: a block of 16 is skipped after
      // one vectorised comparison, and a block that holds a better bound is offered centre
      // by centre, in index order, exactly as one centre at a time would be.
      constexpr int kBlock = 16;
      for (; c + kBlock <= k; c += kBlock) {
        const float worst = order.back().first;
        bool any = false;
        for (int t = 0; t < kBlock; ++t) any |= lb[c + t] < worst;
        if (!any) continue;
        for (int t = 0; t < kBlock; ++t) offer(c + t);
      }
      for (; c < k; ++c) offer(c);
    } else {
      order.resize(k);
      for (int c = 0; c < k; ++c) order[c] = {lb[c], c};
      if (cap < k) std::nth_element(order.begin(), order.begin() + cap, order.end());
      std::sort(order.begin(), order.begin() + cap);
    }
    return nearest_among_candidates(std::span(order.data(), static_cast<std::size_t>(cap)), cl, m,
                                    size, centres, supports, ground, emd);
  }
};

std::vector<float> transpose_projections(const std::vector<float>& proj, int k, int stride) {
  std::vector<float> t(proj.size());
  for (int c = 0; c < k; ++c)
    for (int r = 0; r < stride; ++r)
      t[static_cast<std::size_t>(r) * k + c] = proj[static_cast<std::size_t>(c) * stride + r];
  return t;
}

std::vector<float> project_centres(const FeatureMatrix& centres, const GroundDistance& g,
                                   const PivotBounds& b, int threads) {
  std::vector<float> out(static_cast<std::size_t>(centres.rows) * b.stride());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
  for (std::int64_t c = 0; c < centres.rows; ++c)
    b.project_dense(centres.row(c), g, out.data() + c * b.stride());
  return out;
}

// Every point's nearest centre through `assigner` (EmdAssigner or EmdAssignerBounded), each
// thread with its own greedy EMD and the assigner's scratch.
template <typename Assigner>
void assign_each(const SparseHistograms& x, const GroundDistance& g, const Assigner& assigner,
                 std::vector<std::int32_t>& assignment, std::vector<float>& distance, int threads,
                 ParallelProgress& report) {
#pragma omp parallel num_threads(threads)
  {
    GreedyEmd emd(g.size());
    typename Assigner::Scratch scratch;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t i = 0; i < x.rows; ++i) {
      auto [c, d] = assigner.nearest(x.cluster_of(i), x.mass_of(i), x.size(i), emd, scratch);
      assignment[i] = c;
      distance[i] = static_cast<float>(d);
      if ((i & 255) == 255) report.add(256);
    }
  }
}

double assign_emd(const SparseHistograms& x, const FeatureMatrix& centres, const GroundDistance& g,
                  const PivotBounds& bounds, int candidates, std::vector<std::int32_t>& assignment,
                  std::vector<float>& distance, int threads, const KMeansProgress& progress,
                  const char* stage, KMeansAlgorithm algorithm) {
  std::vector<float> proj = project_centres(centres, g, bounds, threads);
  assignment.resize(x.rows);
  distance.resize(x.rows);
  const CentreSupports supports(centres);
  ParallelProgress report(progress, stage, x.rows);
  if (algorithm == KMeansAlgorithm::kBounded) {
    const int k = static_cast<int>(centres.rows);
    const std::vector<float> proj_t = transpose_projections(proj, k, bounds.stride());
    assign_each(x, g, EmdAssignerBounded{centres, supports, g, bounds, proj_t, candidates},
                assignment, distance, threads, report);
  } else {
    assign_each(x, g, EmdAssigner{centres, supports, g, bounds, proj, candidates}, assignment,
                distance, threads, report);
  }
  if (stage) report.finish();
  double total = 0.0;
  for (float d : distance) total += d;
  return total;
}

void densify(const SparseHistograms& x, std::int64_t i, float* out) {
  std::fill(out, out + x.dims, 0.0f);
  for (int e = 0; e < x.size(i); ++e) out[x.cluster_of(i)[e]] += x.mass_of(i)[e];
}

}  // namespace

double assign_nearest_emd(const SparseHistograms& points, const FeatureMatrix& centres,
                          const GroundDistance& ground, int candidates,
                          std::vector<std::int32_t>& assignment, int threads,
                          const KMeansProgress& progress, KMeansAlgorithm algorithm) {
  PivotBounds bounds(ground);
  std::vector<float> distance;
  return assign_emd(points, centres, ground, bounds, candidates, assignment, distance,
                    thread_count_or_default(threads), progress, "assign", algorithm);
}

namespace {

// Each cluster's medoid among its current centre (row `rows[c]`) and its first
// kMedoidCandidates members: the candidate with the least sum of greedy EMDs from the
// members (the assignment's own distance), ties to the one tried first, the current centre
// first, so the cluster's share of the cost never rises through this step. A candidate's sum
// stops as soon as it reaches the best so far (the greedy EMD stops at its bound too).
// Clusters are independent: the result does not depend on the thread count.
void update_medoids(const SparseHistograms& x, const GroundDistance& ground, const Members& m,
                    int threads, FeatureMatrix& centres, std::vector<std::int64_t>& rows) {
  const int k = static_cast<int>(centres.rows);
#pragma omp parallel num_threads(threads)
  {
    GreedyEmd emd(ground.size());
    std::vector<float> dense(x.dims);
    std::vector<std::int64_t> tried;
#pragma omp for schedule(dynamic, 4)
    for (int c = 0; c < k; ++c) {
      const std::int64_t begin = m.start[c], end = m.start[c + 1];
      if (begin == end) continue;
      tried.assign(1, rows[c]);
      for (std::int64_t t = begin; t < end && static_cast<int>(tried.size()) <= kMedoidCandidates;
           ++t)
        if (m.rows[t] != rows[c]) tried.push_back(m.rows[t]);
      double best = kInf;
      std::int64_t best_row = rows[c];
      for (std::int64_t candidate : tried) {
        densify(x, candidate, dense.data());
        double sum = 0.0;
        for (std::int64_t t = begin; t < end && sum < best; ++t) {
          const std::int64_t i = m.rows[t];
          sum += emd(x.cluster_of(i), x.mass_of(i), x.size(i), dense.data(), ground, best - sum);
        }
        if (sum < best) {
          best = sum;
          best_row = candidate;
        }
      }
      rows[c] = best_row;
      densify(x, best_row, centres.row(c));
    }
  }
}

}  // namespace

KMeansResult kmeans_emd(const SparseHistograms& points, const GroundDistance& ground,
                        const KMeansOptions& o, const KMeansProgress& progress) {
  if (o.clusters <= 0 || points.rows <= 0)
    throw std::invalid_argument("kmeans_emd: need at least one cluster and one point");
  if (points.dims != ground.size())
    throw std::invalid_argument("kmeans_emd: histogram and ground distance sizes differ");
  const int threads = thread_count_or_default(o.threads);
  const int k = static_cast<int>(std::min<std::int64_t>(o.clusters, points.rows));
  const int dims = points.dims;
  const bool sampled = o.sample_size > 0 && o.sample_size < points.rows;
  SparseHistograms sample;
  if (sampled) sample = take_rows(points, sample_rows(points.rows, o.sample_size, o.seed ^ 0x5A));
  const SparseHistograms& x = sampled ? sample : points;
  const std::int64_t n = x.rows;
  PivotBounds bounds(ground);
  const int np = bounds.stride();
  std::vector<float> point_proj(static_cast<std::size_t>(n) * np);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i)
    bounds.project_sparse(x.cluster_of(i), x.mass_of(i), x.size(i), ground,
                          point_proj.data() + i * np);

  LloydRun best;
  KMeansResult result;
  for (int r = 0; r < std::max(1, o.restarts); ++r) {
    SplitMix64 rng(o.seed + 0x9E3779B97F4A7C15ULL * (r + 1));
    // Seeding: k-means++ under the pivot lower bound of the EMD instead of the greedy EMD
    // itself (an approximation: D is a pseudo-metric below the EMD). It costs `pivots`
    // flops per point and seed, so seeding 1,000 centres over 1,000 next-round clusters
    // takes seconds instead of a greedy EMD (~50 us) per point and seed.
    // The bound is a max of pseudo-metrics, itself a pseudo-metric, so kBounded's
    // triangle-inequality skips apply.
    auto bound_between = [&](std::int64_t i, std::int64_t c) {
      return static_cast<double>(
          bounds.bound(point_proj.data() + i * np, point_proj.data() + c * np));
    };
    auto seeds = o.algorithm == KMeansAlgorithm::kBounded
                     ? plus_plus_seeds_bounded(n, k, false, rng, threads, progress, bound_between)
                     : plus_plus_seeds(
                           n, k, rng, threads, progress, [](std::int64_t) {}, bound_between);
    LloydRun run;
    run.centres.rows = k;
    run.centres.cols = dims;
    run.centres.data.resize(static_cast<std::size_t>(k) * dims);
    for (int c = 0; c < k; ++c) densify(x, seeds[c], run.centres.row(c));
    // The row each centre is (medoid steps): the seeds, then the medoids found.
    std::vector<std::int64_t> current_row(seeds.begin(), seeds.end());
    std::vector<float> distance;
    std::vector<std::int32_t> assignment;
    double cost = assign_emd(x, run.centres, ground, bounds, o.candidates, assignment, distance,
                             threads, {}, nullptr, o.algorithm);
    run.assignment = assignment;
    run.cost = cost;
    run.history.push_back(cost);
    // Lloyd from the current assignment; `run` keeps the best centres seen. The mean does
    // not minimise the EMD (and the greedy EMD overestimates more against spread-out means
    // than against one-hand seeds), so a step may raise the cost: the run goes on from the
    // new assignment and stops after two steps in a row without a new best.
    std::vector<std::int32_t> current = run.assignment;
    FeatureMatrix current_centres = run.centres;
    int without_best = 0;
    for (int it = 1; it < o.max_iterations; ++it) {
      if (progress) progress("lloyd", it, o.max_iterations);
      // Mean histogram of each cluster (Ganzfried & Sandholm 2014), members in row order;
      // or a medoid (KMeansOptions::medoid_centres).
      FeatureMatrix centres = current_centres;
      Members m = group_members(current, k);
      std::vector<std::int64_t> rows = current_row;
      if (o.medoid_centres) {
        update_medoids(x, ground, m, threads, centres, rows);
      } else {
#pragma omp parallel num_threads(threads)
        {
          std::vector<double> sum(dims);
#pragma omp for schedule(dynamic, 4)
          for (int c = 0; c < k; ++c) {
            const std::int64_t begin = m.start[c], end = m.start[c + 1];
            if (begin == end) continue;
            std::fill(sum.begin(), sum.end(), 0.0);
            for (std::int64_t t = begin; t < end; ++t) {
              const std::int64_t i = m.rows[t];
              for (int e = 0; e < x.size(i); ++e) sum[x.cluster_of(i)[e]] += x.mass_of(i)[e];
            }
            for (int j = 0; j < dims; ++j)
              centres.row(c)[j] = static_cast<float>(sum[j] / (end - begin));
          }
        }
      }
      // Empty clusters take the farthest points.
      std::vector<std::int64_t> size(k, 0);
      for (std::int32_t a : current) ++size[a];
      std::vector<float> far_d = distance;
      for (int c = 0; c < k; ++c) {
        if (size[c] > 0) continue;
        std::int64_t far = std::max_element(far_d.begin(), far_d.end()) - far_d.begin();
        if (far_d[far] <= 0.0f) break;
        densify(x, far, centres.row(c));
        rows[c] = far;
        far_d[far] = 0.0f;
      }
      double new_cost = assign_emd(x, centres, ground, bounds, o.candidates, assignment, distance,
                                   threads, {}, nullptr, o.algorithm);
      const bool same = assignment == current;
      current = assignment;
      current_centres = centres;
      current_row = rows;
      if (new_cost < run.cost) {
        const bool settled = run.cost - new_cost <= o.tolerance * run.cost;
        run.centres = std::move(centres);
        run.assignment = assignment;
        run.cost = new_cost;
        run.history.push_back(new_cost);
        without_best = 0;
        if (settled) break;
      } else if (++without_best >= 2) {
        break;
      }
      if (same) break;
    }
    const auto steps = static_cast<std::int64_t>(run.history.size());
    if (progress) progress("lloyd", steps, steps);
    keep_cheaper(std::move(run), r, best, result);
  }
  take_best(best, sampled, result);
  if (sampled) {
    std::vector<float> distance;
    result.cost = assign_emd(points, result.centres, ground, bounds, o.candidates,
                             result.assignment, distance, threads, progress, "assign", o.algorithm);
  }
  return result;
}

std::vector<float> centre_distances_emd(const FeatureMatrix& centres, const GroundDistance& ground,
                                        int threads_in, const KMeansProgress& progress) {
  const int k = static_cast<int>(centres.rows);
  const int dims = centres.cols;
  const SparseHistograms sparse = nonzero_entries(centres);
  std::vector<float> d(static_cast<std::size_t>(k) * k, 0.0f);
  ParallelProgress report(progress, "distances", k);
  int widest = 0;
  for (int a = 0; a < k; ++a) widest = std::max(widest, sparse.size(a));
  if (widest <= SparseGreedyEmd::kMaxSize && dims <= 65536) {
    // Sparse centres (single hands, as the turn's are when no Lloyd step is kept): both sides
    // of each greedy EMD by their supports and the ground's neighbour ranks, a's rank rows
    // staying in cache while it meets every b. Each direction is computed; the same floats.
    const NeighbourRanks ranks(ground);
#pragma omp parallel num_threads(thread_count_or_default(threads_in))
    {
      SparseGreedyEmd emd;
#pragma omp for schedule(dynamic, 4)
      for (int a = 0; a < k; ++a) {
        for (int b = 0; b < k; ++b)
          if (b != a)
            d[static_cast<std::size_t>(a) * k + b] = static_cast<float>(
                emd(sparse.cluster_of(a), sparse.mass_of(a), sparse.size(a), sparse.cluster_of(b),
                    sparse.mass_of(b), sparse.size(b), ground, ranks));
        report.add(1);
      }
    }
    for (int a = 0; a < k; ++a)
      for (int b = a + 1; b < k; ++b) {
        const float v = std::min(d[static_cast<std::size_t>(a) * k + b],
                                 d[static_cast<std::size_t>(b) * k + a]);
        d[static_cast<std::size_t>(a) * k + b] = d[static_cast<std::size_t>(b) * k + a] = v;
      }
    report.finish();
    return d;
  }
#pragma omp parallel num_threads(thread_count_or_default(threads_in))
  {
    GreedyEmd emd(dims);
#pragma omp for schedule(dynamic, 4)
    for (int a = 0; a < k; ++a) {
      for (int b = a + 1; b < k; ++b) {
        // The distance is the smaller direction, so the second one only has to be followed
        // while it is below the first (the greedy EMD stops there, returning at least its
        // bound): the same minimum, less work.
        const auto ab = static_cast<float>(
            emd(sparse.cluster_of(a), sparse.mass_of(a), sparse.size(a), centres.row(b), ground));
        const auto ba = static_cast<float>(emd(sparse.cluster_of(b), sparse.mass_of(b),
                                               sparse.size(b), centres.row(a), ground, ab));
        d[static_cast<std::size_t>(a) * k + b] = d[static_cast<std::size_t>(b) * k + a] =
            std::min(ab, ba);
      }
      report.add(1);
    }
  }
  report.finish();
  return d;
}

}  // namespace hulhe
