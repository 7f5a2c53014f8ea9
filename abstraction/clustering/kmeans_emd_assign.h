#pragma once
// Assigning sparse histograms to their nearest centre by the greedy EMD (the potential-aware
// k-means, abstraction/clustering/kmeans.h), in the two kernels: exact (EmdAssigner, the original)
// and bounded (EmdAssignerBounded: the same candidates in the same order, found faster). Both rank
// centres by lower bounds of the EMD (PivotBounds) and stop at the first bound above the best
// distance found. Internal to abstraction/.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "abstraction/clustering/kmeans.h"

namespace hulhe::kmeans_internal {

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
SparseHistograms nonzero_entries(const FeatureMatrix& rows);

// Row i of `x` as a dense histogram of x.dims floats.
void densify(const SparseHistograms& x, std::int64_t i, float* out);

// Every point's nearest centre by the greedy EMD (`algorithm`'s kernel), at most
// `candidates` EMDs a point (0: all); `assignment` and `distance` per point, the total
// returned. Reports to `progress` as `stage` when `stage` is not null.
double assign_emd(const SparseHistograms& x, const FeatureMatrix& centres, const GroundDistance& g,
                  const PivotBounds& bounds, int candidates, std::vector<std::int32_t>& assignment,
                  std::vector<float>& distance, int threads, const ProgressCallback& progress,
                  const char* stage, KMeansAlgorithm algorithm);

}  // namespace hulhe::kmeans_internal
