#pragma once
// The parts of k-means (abstraction/clustering/kmeans.h) that the dense (kmeans.cpp) and the
// potential-aware EMD k-means (kmeans_emd.cpp) share: progress from parallel loops, row
// samples, clusters' members in row order, and keeping the best of several restarts.
// Internal to abstraction/.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "abstraction/clustering/kmeans.h"

namespace hulhe::kmeans_internal {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Progress from a parallel loop: workers bump a counter, thread 0 reports at most every
// half second.
class ParallelProgress {
 public:
  ParallelProgress(const ProgressCallback& progress, const char* stage, std::int64_t total)
      : progress_(progress), stage_(stage), total_(total) {}
  void add(std::int64_t n) {
    std::int64_t done = done_.fetch_add(n, std::memory_order_relaxed) + n;
    // The last step is reported once, by finish().
    if (!progress_ || omp_get_thread_num() != 0 || done >= total_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(500)) return;
    last_ = now;
    progress_(progress_step(stage_, done, total_));
  }
  void finish() {
    if (progress_) progress_(progress_step(stage_, total_, total_));
  }

 private:
  const ProgressCallback& progress_;
  const char* stage_;
  std::int64_t total_;
  std::atomic<std::int64_t> done_{0};
  std::chrono::steady_clock::time_point last_{};
};

inline FeatureMatrix take_rows(const FeatureMatrix& points, const std::vector<std::int64_t>& rows) {
  FeatureMatrix out;
  out.rows = static_cast<std::int64_t>(rows.size());
  out.cols = points.cols;
  out.data.resize(static_cast<std::size_t>(out.rows) * out.cols);
  for (std::int64_t i = 0; i < out.rows; ++i)
    std::copy(points.row(rows[i]), points.row(rows[i]) + points.cols, out.row(i));
  return out;
}

inline SparseHistograms take_rows(const SparseHistograms& points,
                                  const std::vector<std::int64_t>& rows) {
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

inline Members group_members(const std::vector<std::int32_t>& assignment, int clusters) {
  Members m;
  m.start.assign(clusters + 1, 0);
  for (std::int32_t a : assignment) ++m.start[a + 1];
  for (int c = 0; c < clusters; ++c) m.start[c + 1] += m.start[c];
  m.rows.resize(assignment.size());
  std::vector<std::int64_t> next(m.start.begin(), m.start.end() - 1);
  for (std::size_t i = 0; i < assignment.size(); ++i) m.rows[next[assignment[i]]++] = i;
  return m;
}

// One restart's result.
struct LloydRun {
  FeatureMatrix centres;
  std::vector<std::int32_t> assignment;
  std::vector<double> history;
  double cost = kInf;
};

// Restarts keep the cheapest run (the first of equals).
inline void keep_cheaper(LloydRun&& run, int restart, LloydRun& best, KMeansResult& result) {
  if (run.cost < best.cost) {
    best = std::move(run);
    result.best_restart = restart;
  }
}

// The cheapest run's centres and cost history into `result`, and its assignment and cost
// when it was fitted on every point (after a sample the caller assigns them all).
inline void take_best(LloydRun& best, bool sampled, KMeansResult& result) {
  result.centres = std::move(best.centres);
  result.cost_history = std::move(best.history);
  result.iterations = static_cast<int>(result.cost_history.size());
  if (sampled) return;
  result.assignment = std::move(best.assignment);
  result.cost = best.cost;
}

}  // namespace hulhe::kmeans_internal
