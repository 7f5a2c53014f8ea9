#include "abstraction/nearest_centre.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "abstraction/kmeans.h"

namespace hulhe {
namespace {

// The principal axis of the centres: power iteration on their covariance (double, fixed
// start and step count, so deterministic). Any axis keeps the search exact; this one makes
// the projection bound tightest on average.
std::vector<double> principal_axis(const FeatureMatrix& c) {
  const int d = c.cols;
  std::vector<double> mean(d, 0.0), cov(static_cast<std::size_t>(d) * d, 0.0);
  for (std::int64_t i = 0; i < c.rows; ++i)
    for (int j = 0; j < d; ++j) mean[j] += c.row(i)[j];
  for (double& m : mean) m /= static_cast<double>(std::max<std::int64_t>(1, c.rows));
  std::vector<double> x(d);
  for (std::int64_t i = 0; i < c.rows; ++i) {
    for (int j = 0; j < d; ++j) x[j] = c.row(i)[j] - mean[j];
    for (int a = 0; a < d; ++a)
      for (int b = 0; b < d; ++b) cov[static_cast<std::size_t>(a) * d + b] += x[a] * x[b];
  }
  std::vector<double> v(d, 1.0), w(d);
  for (int step = 0; step < 100; ++step) {
    for (int a = 0; a < d; ++a) {
      double s = 0.0;
      for (int b = 0; b < d; ++b) s += cov[static_cast<std::size_t>(a) * d + b] * v[b];
      w[a] = s;
    }
    double norm = 0.0;
    for (double t : w) norm += t * t;
    norm = std::sqrt(norm);
    if (norm <= 0.0) break;  // all centres equal: keep the current axis
    for (int a = 0; a < d; ++a) v[a] = w[a] / norm;
  }
  return v;
}

}  // namespace

NearestCentre::NearestCentre(const FeatureMatrix& centres, KMeansMetric metric)
    : k_(static_cast<int>(centres.rows)), dims_(centres.cols), l1_(metric == KMeansMetric::kL1) {
  std::vector<double> v = principal_axis(centres);
  // L2: |a|_2 = 1, so |a.(x - c)| <= |x - c|_2. L1: max_j |a_j| = 1, so
  // |a.(x - c)| <= |x - c|_1.
  double scale = 0.0;
  for (double t : v) scale = l1_ ? std::max(scale, std::abs(t)) : scale + t * t;
  scale = l1_ ? scale : std::sqrt(scale);
  axis_.resize(dims_);
  for (int j = 0; j < dims_; ++j)
    axis_[j] = scale > 0.0 ? static_cast<float>(v[j] / scale) : (j == 0 ? 1.0f : 0.0f);
  std::vector<float> proj(k_);
  for (int c = 0; c < k_; ++c) {
    float s = 0.0f;
    for (int j = 0; j < dims_; ++j) s += axis_[j] * centres.row(c)[j];
    proj[c] = s;
  }
  sorted_id_.resize(k_);
  std::iota(sorted_id_.begin(), sorted_id_.end(), 0);
  std::sort(sorted_id_.begin(), sorted_id_.end(), [&](std::int32_t a, std::int32_t b) {
    return proj[a] < proj[b] || (proj[a] == proj[b] && a < b);
  });
  sorted_proj_.resize(k_);
  sorted_rows_.resize(static_cast<std::size_t>(k_) * dims_);
  for (int p = 0; p < k_; ++p) {
    sorted_proj_[p] = proj[sorted_id_[p]];
    std::copy(centres.row(sorted_id_[p]), centres.row(sorted_id_[p]) + dims_,
              sorted_rows_.data() + static_cast<std::size_t>(p) * dims_);
  }
}

NearestCentre::Hit NearestCentre::nearest(const float* x, bool want_second) const {
  constexpr float kInfF = std::numeric_limits<float>::infinity();
  float px = 0.0f;
  for (int j = 0; j < dims_; ++j) px += axis_[j] * x[j];
  // Sums are the metric_distance() sums (squared for L2), in the same float order.
  float best_s = kInfF, second_s = kInfF;
  std::int32_t best_c = 0;
  // The distance a centre must beat to matter, as a bound on the projection gap (with a
  // relative slack against the rounding of the projections).
  auto gap_limit = [&]() {
    const float s = want_second ? second_s : best_s;
    const float d = l1_ ? s : std::sqrt(s);
    return d * 1.0001f + 1e-6f;
  };
  auto visit = [&](int p) {
    const float* c = sorted_rows_.data() + static_cast<std::size_t>(p) * dims_;
    const float stop = want_second ? second_s : best_s;
    float s = 0.0f;
    int j = 0;
    // Partial distance: give up once the sum already exceeds what it must beat.
    while (j < dims_) {
      const int end = std::min(dims_, j + 8);
      if (l1_) {
        for (; j < end; ++j) s += std::abs(x[j] - c[j]);
      } else {
        for (; j < end; ++j) {
          float t = x[j] - c[j];
          s += t * t;
        }
      }
      if (s > stop) return;
    }
    const std::int32_t id = sorted_id_[p];
    if (s < best_s || (s == best_s && id < best_c)) {
      second_s = best_s;
      best_s = s;
      best_c = id;
    } else if (s < second_s) {
      second_s = s;
    }
  };
  int hi = static_cast<int>(std::lower_bound(sorted_proj_.begin(), sorted_proj_.end(), px) -
                            sorted_proj_.begin());
  int lo = hi - 1;
  // Merge the two directions by projection gap, nearest first.
  while (lo >= 0 || hi < k_) {
    const float gap_lo = lo >= 0 ? px - sorted_proj_[lo] : kInfF;
    const float gap_hi = hi < k_ ? sorted_proj_[hi] - px : kInfF;
    const bool take_lo = gap_lo <= gap_hi;
    const float gap = take_lo ? gap_lo : gap_hi;
    if (gap > gap_limit()) break;  // every centre left is farther in projection alone
    visit(take_lo ? lo-- : hi++);
  }
  Hit h;
  h.best = best_c;
  h.best_distance = l1_ ? best_s : std::sqrt(static_cast<double>(best_s));
  h.second_distance = l1_ ? second_s : std::sqrt(static_cast<double>(second_s));
  return h;
}

}  // namespace hulhe
