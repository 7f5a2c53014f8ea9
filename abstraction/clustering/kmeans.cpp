#include "abstraction/clustering/kmeans.h"

#include <omp.h>

#include "abstraction/clustering/kmeans_internal.h"
#include "abstraction/clustering/kmeans_seeding.h"
#include "abstraction/clustering/nearest_centre.h"
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

// The dense k-means (metrics kL2 and kL1) and the k-means helpers every metric uses
// (sample_rows); the potential-aware EMD k-means is in kmeans_emd.cpp.

namespace hulhe {

using namespace kmeans_internal;

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double cost_of(double distance, KMeansMetric metric) {
  return metric == KMeansMetric::kL2 ? distance * distance : distance;
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

// One restart of Lloyd's algorithm on `x` with Hamerly's bounds: u = upper bound of the
// distance to the own centre, l = lower bound of the distance to any other. A point whose
// u <= max(l, s(own)/...) cannot change cluster and skips the scan of all k centres.
LloydRun lloyd(const FeatureMatrix& x, KMeansMetric metric, const KMeansOptions& o,
               std::uint64_t seed, const ProgressCallback& progress) {
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
    if (progress) progress(progress_step("lloyd", it + 1, o.max_iterations));
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
  if (progress && steps < o.max_iterations)
    progress(progress_step("lloyd", steps, steps));  // converged early
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

// assign_nearest by the exact projection-bounded search (abstraction/clustering/nearest_centre.h):
// the same nearest centres as a brute-force scan in index order.
double assign_nearest_bounded(const FeatureMatrix& points, const FeatureMatrix& centres,
                              KMeansMetric metric, std::vector<std::int32_t>& assignment,
                              int threads_in, const ProgressCallback& progress) {
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
                      const ProgressCallback& progress, KMeansAlgorithm algorithm) {
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
                    const ProgressCallback& progress) {
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

}  // namespace hulhe
