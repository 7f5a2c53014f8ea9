#pragma once
// Exact nearest (and second-nearest) centre under L2 or L1 without scanning every centre:
// the centres are sorted by their projection on one axis a, and a point's scan walks
// outward from its own projection, nearest projection first. The projection gap is a lower
// bound of the distance (Cauchy-Schwarz for L2 with |a|_2 = 1; Hoelder for L1 with
// max_j |a_j| = 1), so the walk stops once the gap exceeds the distance it must beat: the
// one-dimensional lower bound of the projection-based nearest-neighbour searches (Friedman,
// Baskett & Shustek 1975, "An algorithm for finding nearest neighbors"), with the partial
// distance early exit of the same paper. The axis is the centres' principal axis (power
// iteration on their covariance), where they are spread the most; on the 8-D OCHS rows of
// the river it skips most of the 1,000-9,000 centres.
//
// The result equals the brute-force scan in index order bit for bit: distances are summed
// in the same float order as metric_distance(), ties go to the lower centre index, and the
// stopping test keeps a relative slack so float rounding of the projections cannot prune a
// winner.
#include <cstdint>
#include <vector>

#include "abstraction/hand_features.h"

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
  // it second_distance is only a lower bound of it.
  Hit nearest(const float* point, bool want_second) const;

 private:
  int k_ = 0;
  int dims_ = 0;
  bool l1_ = false;
  std::vector<float> axis_;              // dims
  std::vector<float> sorted_proj_;       // k, ascending
  std::vector<std::int32_t> sorted_id_;  // k: centre index at each sorted position
  std::vector<float> sorted_rows_;       // k x dims, rows in sorted order (cache locality)
};

}  // namespace hulhe
