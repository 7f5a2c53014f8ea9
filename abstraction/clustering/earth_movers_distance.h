#pragma once
// Earth mover's distance (EMD) between histograms of equal mass.
//
// - emd_1d: exact EMD on equal-width 1-D bins = sum of |CDF_a - CDF_b| (unit bin width),
//   the distance of distribution-aware abstraction (Johanson et al. 2013, "KE").
// - emd_transport: the exact transportation problem for any ground-distance matrix, by
//   successive shortest paths on the residual graph. O(augmentations * n * m * (n + m)):
//   for tests and small cases only.
// - GreedyEmd: the fast approximation of Ganzfried & Sandholm 2014 (Algorithm 2) for a
//   sparse histogram (a hand's distribution over next-round clusters, at most 47 entries)
//   against a dense one (a cluster mean). Each of the point's entries, visited round-robin,
//   moves its mass to its j-th nearest cluster while that cluster still has unclaimed mean
//   mass, for j = 0, 1, ... The plan is feasible, so the result is an upper bound of the
//   exact EMD; tests and bench/bench_abstraction measure the gap.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace hulhe {

double emd_1d(const float* a, const float* b, int bins);

// supply (n), demand (m) with equal sums (within 1e-9 relative), cost row-major n x m.
double emd_transport(std::span<const double> supply, std::span<const double> demand,
                     std::span<const double> cost);

// Distances between the n clusters of the next round, plus every row's clusters sorted by
// distance (the "sortedDistances"/"orderedClusters" tables of Algorithm 2), interleaved: the
// greedy EMD walks each of a hand's rows from its start, so a cluster and its distance share
// one cache line and one stream instead of two.
class GroundDistance {
 public:
  struct Neighbour {
    std::uint32_t cluster;
    float distance;
  };
  GroundDistance() = default;
  // dist: n x n row-major, symmetric, zero diagonal.
  GroundDistance(int n, std::vector<float> dist);

  int size() const { return n_; }
  float operator()(int i, int j) const { return dist_[static_cast<std::size_t>(i) * n_ + j]; }
  const float* row(int i) const { return dist_.data() + static_cast<std::size_t>(i) * n_; }
  // Row i's clusters in ascending distance (ties by index): neighbours(i)[0] is i itself.
  const Neighbour* neighbours(int i) const {
    return neighbours_.data() + static_cast<std::size_t>(i) * n_;
  }

  // Optional: coordinates x_i in R^dims of the n clusters with dist(i, j) = |x_i - x_j|
  // (Euclidean, or L1 when `l1`), as when the next round's centres are points of a normed
  // space (E[HS], CDFs, OCHS). A norm is convex, so |sum_i p_i x_i - sum_j q_j x_j| <=
  // EMD(p, q): the mean embeddings give a lower bound that k-means uses to rank centres.
  void set_embedding(std::vector<float> coords, int dims, bool l1);
  int embedding_dims() const { return embedding_dims_; }
  bool embedding_l1() const { return embedding_l1_; }
  const float* embedding(int i) const {
    return embedding_.data() + static_cast<std::size_t>(i) * embedding_dims_;
  }

 private:
  int n_ = 0;
  std::vector<float> dist_;
  std::vector<Neighbour> neighbours_;
  std::vector<float> embedding_;
  int embedding_dims_ = 0;
  bool embedding_l1_ = false;
};

// Histograms over `dims` clusters stored sparsely (CSR): row i has entries
// [offset[i], offset[i+1]) of (cluster, mass). Masses of a row sum to 1.
struct SparseHistograms {
  std::int64_t rows = 0;
  int dims = 0;
  std::vector<std::int64_t> offset{0};
  std::vector<std::uint32_t> cluster;
  std::vector<float> mass;

  int size(std::int64_t i) const { return static_cast<int>(offset[i + 1] - offset[i]); }
  const std::uint32_t* cluster_of(std::int64_t i) const { return cluster.data() + offset[i]; }
  const float* mass_of(std::int64_t i) const { return mass.data() + offset[i]; }
};

// Exact EMD of a sparse histogram against a dense one under `ground` (transport solver).
double emd_exact(const std::uint32_t* cluster, const float* mass, int size, const float* dense,
                 const GroundDistance& ground);

// Ganzfried & Sandholm 2014, Algorithm 2. Holds scratch space: one per thread.
class GreedyEmd {
 public:
  explicit GreedyEmd(int dims = 0) : used_(dims, 0.0f) {}
  // Stops as soon as the cost reaches `bound` and returns a value >= bound: k-means only
  // needs to know that a centre cannot beat the best one found so far.
  double operator()(const std::uint32_t* cluster, const float* mass, int size, const float* dense,
                    const GroundDistance& ground,
                    double bound = std::numeric_limits<double>::infinity());
  // The same value, bit for bit and with the same early stop, when `dense` is nonzero only
  // at the clusters of `support` (a single hand's histogram as a centre, as the turn's
  // k-means++ centres are). Round-robin walks hundreds of empty clusters a claim there; here
  // each entry jumps to its next cluster with mass left (one bit test per cluster passed) and
  // the claims are taken in Algorithm 2's (round, entry) order from a heap. size <= 255.
  double operator()(const std::uint32_t* cluster, const float* mass, int size, const float* dense,
                    std::span<const std::uint32_t> support, const GroundDistance& ground,
                    double bound = std::numeric_limits<double>::infinity());

 private:
  std::vector<float> used_;              // mean mass claimed so far, reset through touched_
  std::vector<std::uint64_t> has_mass_;  // support's clusters not yet exhausted (a bit each)
  std::vector<std::uint32_t> heap_;      // round << 8 | entry
  std::vector<std::uint32_t> touched_;
  std::vector<float> remaining_;
  std::vector<const GroundDistance::Neighbour*> rows_;  // each entry's neighbour row
  std::vector<int> active_;
};

// Every cluster's position in each row's neighbour order (GroundDistance::neighbours):
// rank(i, j) = the round in which an entry at cluster i looks at cluster j. n <= 65,536.
class NeighbourRanks {
 public:
  explicit NeighbourRanks(const GroundDistance& g);
  const std::uint16_t* row(int i) const { return rank_.data() + static_cast<std::size_t>(i) * n_; }

 private:
  int n_ = 0;
  std::vector<std::uint16_t> rank_;
};

// GreedyEmd's value, bit for bit and with the same early stop at `bound`, when the other
// histogram is sparse too (the distances between single-hand centres). GreedyEmd walks each
// entry's neighbours until one has mass left, hundreds of clusters a claim at 9,000 clusters;
// here the round of every (entry, other cluster) pair is read from the ranks, and the claims
// are taken in the same (round, entry) order from a heap. Sizes: at most kMaxSize entries each.
class SparseGreedyEmd {
 public:
  static constexpr int kMaxSize = 255;
  double operator()(const std::uint32_t* cluster, const float* mass, int size,
                    const std::uint32_t* other_cluster, const float* other_mass, int other_size,
                    const GroundDistance& ground, const NeighbourRanks& ranks,
                    double bound = std::numeric_limits<double>::infinity());

 private:
  std::vector<std::uint16_t> round_;  // size x other_size: round of (entry, other cluster)
  std::vector<int> last_;             // per entry: the round of its last claim looked at
  std::vector<float> remaining_, used_;
  std::vector<std::uint32_t> heap_;  // round << 16 | entry << 8 | other cluster's position
};

}  // namespace hulhe
