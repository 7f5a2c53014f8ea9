#include "abstraction/clustering/kmeans_emd_assign.h"

#include <omp.h>

#include <span>

#include "abstraction/clustering/kmeans_internal.h"
#include "util/thread_start.h"

namespace hulhe {
namespace kmeans_internal {

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

namespace {

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

}  // namespace

double assign_emd(const SparseHistograms& x, const FeatureMatrix& centres, const GroundDistance& g,
                  const PivotBounds& bounds, int candidates, std::vector<std::int32_t>& assignment,
                  std::vector<float>& distance, int threads, const ProgressCallback& progress,
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

}  // namespace kmeans_internal

using namespace kmeans_internal;

double assign_nearest_emd(const SparseHistograms& points, const FeatureMatrix& centres,
                          const GroundDistance& ground, int candidates,
                          std::vector<std::int32_t>& assignment, int threads,
                          const ProgressCallback& progress, KMeansAlgorithm algorithm) {
  PivotBounds bounds(ground);
  std::vector<float> distance;
  return assign_emd(points, centres, ground, bounds, candidates, assignment, distance,
                    thread_count_or_default(threads), progress, "assign", algorithm);
}

}  // namespace hulhe
