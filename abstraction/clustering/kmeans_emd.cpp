#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "abstraction/clustering/kmeans.h"
#include "abstraction/clustering/kmeans_emd_assign.h"
#include "abstraction/clustering/kmeans_internal.h"
#include "abstraction/clustering/kmeans_seeding.h"
#include "util/split_mix64.h"
#include "util/thread_start.h"

// The potential-aware k-means (kmeans_emd: sparse histograms, greedy EMD, mean or medoid
// centres) and the EMD between centres; the assignment kernels are in kmeans_emd_assign.cpp.

namespace hulhe {

using namespace kmeans_internal;

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
                        const KMeansOptions& o, const ProgressCallback& progress) {
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
      if (progress) progress(progress_step("lloyd", it, o.max_iterations));
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
    if (progress) progress(progress_step("lloyd", steps, steps));
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
                                        int threads_in, const ProgressCallback& progress) {
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
