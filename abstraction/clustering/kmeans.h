#pragma once
// k-means for card abstraction: k-means++ seeding (Arthur & Vassilvitskii 2007), Lloyd
// iterations with Hamerly's triangle-inequality bounds (Hamerly 2010, "Making k-means even
// faster") so most points skip the full scan, several restarts keeping the lowest cost, and
// fitting on a random sample before assigning every point. OpenMP throughout.
//
// Determinism: every random choice comes from `seed`; centre updates sum each cluster's
// members in index order, so the result does not even depend on the thread count.
//
// Metrics (dense points, one row each):
// - kL2: squared Euclidean cost, centre = mean (classic k-means; OCHS on the river).
// - kL1: L1 cost, centre = coordinate-wise median. On cumulative histograms (CDFs) L1 is
//   exactly the 1-D EMD, and the median of CDFs is itself a CDF, so this is Lloyd for the
//   EMD objective itself (distribution-aware abstraction): each step minimises the cost
//   given the other, and the cost never increases.
// Potential-aware histograms (sparse, EMD with a ground distance, centre = mean histogram as
// in Ganzfried & Sandholm 2014) use kmeans_emd. The mean is not the EMD minimiser, so a Lloyd
// step may raise the cost: the best centres seen are kept, and the run stops after two steps
// in a row without a new best (cost_history lists the improving steps only).
#include <cstdint>
#include <vector>

#include "abstraction/clustering/earth_movers_distance.h"
#include "abstraction/features/hand_features.h"
#include "util/progress.h"

namespace hulhe {

enum class KMeansMetric { kL2, kL1 };

// kExact: the original kernels (brute-force scans, serial k-means++ sums), kept so old
// bucket maps can be rebuilt bit for bit. kBounded: the same algorithm with bounds that skip
// work (abstraction/clustering/nearest_centre.h for L2/L1 scans; triangle-inequality skips and
// block sums in k-means++; a vectorised lower-bound pass and top-C selection for the EMD). Its
// nearest-centre searches are exact, so it differs from kExact only by float rounding in
// near-ties (the blocked L2 product of kExact rounds differently) and k-means++ draws.
enum class KMeansAlgorithm { kExact, kBounded };

struct KMeansOptions {
  int clusters = 8;
  int restarts = 1;
  int max_iterations = 100;
  // Fit on this many rows chosen at random (0 or >= rows: all), then assign every row.
  std::int64_t sample_size = 0;
  std::uint64_t seed = 1;
  int threads = 0;  // <= 0: OpenMP's default
  // Stop when an iteration lowers the cost by less than this fraction.
  double tolerance = 1e-6;
  // kmeans_emd only: at most this many centres get an EMD per point (those with the lowest
  // lower bound); 0 = no cap (exact argmin of the greedy EMD).
  int candidates = 0;
  KMeansAlgorithm algorithm = KMeansAlgorithm::kExact;
  // kmeans_emd only: each Lloyd step moves a centre to a medoid of its cluster (the member
  // with the least summed greedy EMD to the others, among the current centre and the first
  // kMedoidCandidates members) instead of to the mean histogram. A medoid is a hand, as
  // sparse as the hands it is compared with, where the greedy EMD overestimates least.
  bool medoid_centres = false;
};

// Members tried as a cluster's medoid per Lloyd step (besides the current centre): the
// first ones of the cluster in row order, a random subset since the fitting sample is.
inline constexpr int kMedoidCandidates = 16;

struct KMeansResult {
  FeatureMatrix centres;                 // clusters x dims
  std::vector<std::int32_t> assignment;  // one per input row
  double cost = 0.0;                     // over all rows (squared L2, L1 or EMD sum)
  std::vector<double> cost_history;      // the best restart's cost on the fitting set
  int iterations = 0;                    // of the best restart
  int best_restart = 0;
};

// Progress (util/progress.h) goes to a callback as steps of the stages "seed", "lloyd" and
// "assign" (stage, done, total; no times: the caller keeps the clock).

KMeansResult kmeans(const FeatureMatrix& points, KMeansMetric metric, const KMeansOptions& options,
                    const ProgressCallback& progress = {});

// Nearest centre of every row; returns the total cost. Blocked Eigen products for kL2.
double assign_nearest(const FeatureMatrix& points, const FeatureMatrix& centres,
                      KMeansMetric metric, std::vector<std::int32_t>& assignment, int threads,
                      const ProgressCallback& progress = {},
                      KMeansAlgorithm algorithm = KMeansAlgorithm::kExact);

// Distance (not cost) between two rows under `metric`: Euclidean or L1.
double metric_distance(const float* a, const float* b, int dims, KMeansMetric metric);

// Potential-aware clustering: points are sparse histograms over the next round's clusters,
// centres dense means, distance the greedy EMD under `ground`. Candidate centres are
// examined in order of a lower bound (Kantorovich: |E_p f - E_q f| <= EMD for f = distance
// to a pivot cluster), so most EMDs are skipped. Approximations, for speed at 1,000
// next-round clusters: k-means++ seeding samples by that lower bound rather than by the
// greedy EMD, and `candidates` > 0 caps the EMDs per point (the argmin is then taken among
// the centres with the lowest bounds only).
KMeansResult kmeans_emd(const SparseHistograms& points, const GroundDistance& ground,
                        const KMeansOptions& options, const ProgressCallback& progress = {});

// Nearest centre under the greedy EMD for every row; returns the total distance.
double assign_nearest_emd(const SparseHistograms& points, const FeatureMatrix& centres,
                          const GroundDistance& ground, int candidates,
                          std::vector<std::int32_t>& assignment, int threads,
                          const ProgressCallback& progress = {},
                          KMeansAlgorithm algorithm = KMeansAlgorithm::kExact);

// Distances between the rows of `centres` (dense histograms over ground.size() clusters)
// under the greedy EMD, symmetrised by the smaller of both directions (each is an upper
// bound of the exact EMD).
// Reports progress as stage "distances", one unit per centre.
std::vector<float> centre_distances_emd(const FeatureMatrix& centres, const GroundDistance& ground,
                                        int threads, const ProgressCallback& progress = {});
// The same under a dense metric.
std::vector<float> centre_distances(const FeatureMatrix& centres, KMeansMetric metric);

// `count` distinct rows of [0, rows), ascending (all rows when count >= rows).
std::vector<std::int64_t> sample_rows(std::int64_t rows, std::int64_t count, std::uint64_t seed);

}  // namespace hulhe
