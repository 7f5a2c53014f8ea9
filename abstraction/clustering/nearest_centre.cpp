#include "abstraction/clustering/nearest_centre.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

#include "abstraction/clustering/kmeans.h"

namespace hulhe {
namespace {

constexpr int kLeafSize = 8;
// Coordinates whose cell offsets are tracked incrementally; wider rows (never in HULHE's
// features, which have 8 or 50) fall back to the splitting plane alone.
constexpr int kMaxTracked = 64;
constexpr float kInfF = std::numeric_limits<float>::infinity();

// In double: exact to far below the float sums' rounding.
double row_sum(const float* x, int dims) {
  double s = 0.0;
  for (int j = 0; j < dims; ++j) s += x[j];
  return s;
}

}  // namespace

struct NearestCentre::Query {
  const float* x;
  bool want_second;
  double sum = 0.0;                        // L1: the point's sum of coordinates
  float best_s = kInfF, second_s = kInfF;  // metric_distance() sums (squared for L2)
  std::int32_t best_c = 0;
  // The sum a centre or cell must beat to matter, with a slack against rounding.
  float limit() const {
    const float s = want_second ? second_s : best_s;
    return s * 1.0002f + 1e-6f;
  }
};

int NearestCentre::build(int begin, int end, std::vector<std::int32_t>& ids,
                         const FeatureMatrix& c) {
  const int id = static_cast<int>(nodes_.size());
  nodes_.push_back(Node{});
  if (end - begin <= kLeafSize) {
    nodes_[id].begin = begin;
    nodes_[id].end = end;
    return id;
  }
  // Split the coordinate of largest spread at its median (ties by centre index, so the
  // tree depends only on the centres).
  int dim = 0;
  float spread = -1.0f;
  for (int j = 0; j < dims_; ++j) {
    float lo = kInfF, hi = -kInfF;
    for (int p = begin; p < end; ++p) {
      lo = std::min(lo, c.row(ids[p])[j]);
      hi = std::max(hi, c.row(ids[p])[j]);
    }
    if (hi - lo > spread) {
      spread = hi - lo;
      dim = j;
    }
  }
  if (spread <= 0.0f) {  // all equal: one leaf, however large
    nodes_[id].begin = begin;
    nodes_[id].end = end;
    return id;
  }
  const int mid = begin + (end - begin) / 2;
  std::nth_element(ids.begin() + begin, ids.begin() + mid, ids.begin() + end,
                   [&](std::int32_t a, std::int32_t b) {
                     const float va = c.row(a)[dim], vb = c.row(b)[dim];
                     return va < vb || (va == vb && a < b);
                   });
  // Left: [begin, mid) with values <= split; right: [mid, end) with values >= split.
  const float split = c.row(ids[mid])[dim];
  const int left = build(begin, mid, ids, c);
  const int right = build(mid, end, ids, c);
  nodes_[id].dim = dim;
  nodes_[id].split = split;
  nodes_[id].left = left;
  nodes_[id].right = right;
  return id;
}

NearestCentre::NearestCentre(const FeatureMatrix& centres, KMeansMetric metric)
    : k_(static_cast<int>(centres.rows)), dims_(centres.cols), l1_(metric == KMeansMetric::kL1) {
  std::vector<std::int32_t> ids(k_);
  std::iota(ids.begin(), ids.end(), 0);
  if (k_ > 0) build(0, k_, ids, centres);
  leaf_id_ = ids;
  leaf_rows_.resize(static_cast<std::size_t>(k_) * dims_);
  for (int p = 0; p < k_; ++p)
    std::copy(centres.row(ids[p]), centres.row(ids[p]) + dims_,
              leaf_rows_.data() + static_cast<std::size_t>(p) * dims_);
  if (l1_ && dims_ <= 128) {  // the rounding argument in search() holds up to 160 terms
    leaf_sum_.resize(k_);
    for (int p = 0; p < k_; ++p) leaf_sum_[p] = row_sum(centres.row(ids[p]), dims_);
  }
}

// `cell`: the sum (squared for L2) from the point to this node's cell, from the per-
// coordinate offsets in `offset`.
void NearestCentre::search(int node, float cell, float* offset, Query& q) const {
  const Node& n = nodes_[node];
  if (n.dim < 0) {
    for (int p = n.begin; p < n.end; ++p) {
      const float* c = leaf_rows_.data() + static_cast<std::size_t>(p) * dims_;
      const float stop = q.want_second ? q.second_s : q.best_s;
      // The float L1 sum of 128 or fewer non-negative terms is at least (1 - 8e-6) times the
      // exact one, itself >= |sum x - sum c|: a centre skipped here would end over `stop` in
      // the loop below too, so the result is unchanged.
      if (!leaf_sum_.empty() && std::abs(q.sum - leaf_sum_[p]) * (1.0 - 1e-5) > stop) continue;
      float s = 0.0f;
      int j = 0;
      bool over = false;
      // Partial distance: give up once the sum already exceeds what it must beat.
      while (j < dims_) {
        const int end = std::min(dims_, j + 8);
        if (l1_) {
          for (; j < end; ++j) s += std::abs(q.x[j] - c[j]);
        } else {
          for (; j < end; ++j) {
            float t = q.x[j] - c[j];
            s += t * t;
          }
        }
        if (s > stop) {
          over = true;
          break;
        }
      }
      if (over) continue;
      const std::int32_t id = leaf_id_[p];
      if (s < q.best_s || (s == q.best_s && id < q.best_c)) {
        q.second_s = q.best_s;
        q.best_s = s;
        q.best_c = id;
      } else if (s < q.second_s) {
        q.second_s = s;
      }
    }
    return;
  }
  const float diff = q.x[n.dim] - n.split;
  const int near = diff <= 0.0f ? n.left : n.right;
  const int far = diff <= 0.0f ? n.right : n.left;
  search(near, cell, offset, q);
  // The far cell lies beyond the splitting plane in coordinate n.dim: its offset there is at
  // least |diff| (the plane alone when offsets are not tracked).
  const float along = l1_ ? std::abs(diff) : diff * diff;
  const bool tracked = offset != nullptr;
  const float old = tracked ? offset[n.dim] : 0.0f;
  const float far_cell = tracked ? cell - old + along : std::max(cell, along);
  if (far_cell > q.limit()) return;
  if (tracked) offset[n.dim] = along;
  search(far, far_cell, offset, q);
  if (tracked) offset[n.dim] = old;
}

NearestCentre::Hit NearestCentre::nearest(const float* x, bool want_second) const {
  Query q{x, want_second};
  if (!leaf_sum_.empty()) q.sum = row_sum(x, dims_);
  std::array<float, kMaxTracked> offset{};
  if (k_ > 0) search(0, 0.0f, dims_ <= kMaxTracked ? offset.data() : nullptr, q);
  Hit h;
  h.best = q.best_c;
  h.best_distance = l1_ ? q.best_s : std::sqrt(static_cast<double>(q.best_s));
  h.second_distance = l1_ ? q.second_s : std::sqrt(static_cast<double>(q.second_s));
  return h;
}

}  // namespace hulhe
