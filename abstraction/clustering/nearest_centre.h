#pragma once
// Exact nearest (and second-nearest) centre under L2 or L1 without scanning every centre: a
// k-d tree over the centres (Friedman, Bentley & Finkel 1977, "An algorithm for finding
// best matches in logarithmic expected time"), split at the median of the coordinate with
// the largest spread, searched near child first, a far child skipped when the distance from
// the point to its cell already exceeds the distance to beat. The distance to the cell is
// kept incrementally per coordinate (Arya & Mount 1993, "Algorithms for fast vector
// quantization"), and a centre's sum stops early once it is too large (partial distance).
// On the 8-D OCHS rows of the river it looks at a few dozen of 1,000-9,000 centres. Under
// L1 a centre is first tested by the difference of coordinate sums, |sum x - sum c| <=
// sum |x - c| (for CDF rows, the 1-D EMD's bound by the difference of means): one
// subtraction instead of a partial sum, which the k-d tree's cells do not save in 50-D.
//
// The result equals the brute-force scan in index order bit for bit: distances are summed
// in the same float order as metric_distance(), ties go to the lower centre index, and the
// pruning tests keep a relative slack so float rounding cannot prune a winner.
#include <cstdint>
#include <vector>

#include "abstraction/features/hand_features.h"

namespace hulhe {

enum class KMeansMetric;

class NearestCentre {
 public:
  NearestCentre(const FeatureMatrix& centres, KMeansMetric metric);

  struct Hit {
    std::int32_t best = 0;
    double best_distance = 0.0;    // Euclidean or L1, as metric_distance()
    double second_distance = 0.0;  // to the nearest other centre (infinity if k == 1)
  };
  // `want_second`: also the exact second-smallest distance (Hamerly's lower bound); without
  // it second_distance is not meaningful.
  Hit nearest(const float* point, bool want_second) const;

 private:
  struct Node {
    int dim = -1;  // -1: a leaf holding sorted positions [begin, end)
    float split = 0.0f;
    int left = 0, right = 0;
    int begin = 0, end = 0;
  };
  struct Query;
  int build(int begin, int end, std::vector<std::int32_t>& ids, const FeatureMatrix& centres);
  void search(int node, float cell, float* offset, Query& q) const;

  int k_ = 0;
  int dims_ = 0;
  bool l1_ = false;
  std::vector<Node> nodes_;
  std::vector<std::int32_t> leaf_id_;  // k: centre index at each leaf position
  std::vector<float> leaf_rows_;       // k x dims, rows in leaf order (cache locality)
  std::vector<double> leaf_sum_;       // L1: each leaf row's sum of coordinates
};

}  // namespace hulhe
