#pragma once
// A systematic sample with probability proportional to size, and the interval of a mean
// estimated from it, optionally regression-adjusted.
//
// The draw: the population's units laid end to end in a chosen order, each as long as its
// weight (W in all), and the units under the K points u + j·W/K, u uniform in [0, W/K). A unit
// is hit K·w/W times in expectation, as with K independent draws in proportion to weight, but
// the draws are spread evenly along the order: a stratified sample of similar units.
//
// The sampled best response draws flops this way along a texture order and reduces each draw
// to a contribution z_k whose sample mean is the estimator's error to first order (the delta
// method; holdem_best_response.cpp). Two things are done with them here:
//
// - Regression adjustment (the generalised regression, or model-assisted, estimator; Särndal,
//   Swensson & Wretman, "Model Assisted Survey Sampling", ch. 6): with covariates x_k of each
//   draw whose mean X over the whole population is known, fit z ≈ a + b·x by least squares
//   over the draws and add b·(X − x̄) to the estimate. Whatever the fit, the estimator stays
//   unbiased to first order; the better x explains z, the smaller its error.
// - Variance: successive differences along the sample's order (Wolter, "Introduction to
//   Variance Estimation", ch. 8), Var ≈ Σ_k (e_k − e_{k−1})² / (2K(K−1)), of the residuals
//   e_k of the fit (of z itself without one), scaled up for what the fit takes out of the
//   differences (exactly, for errors of equal variance; systematic_sample.cpp).
//   Successive differences leave out the spread between strata that a systematic sample
//   already removes.
//
// The regression is used only with K ≥ kDrawsPerCovariate·(s + 1) draws and covariates of full
// rank over the draws; otherwise the plain mean's interval is returned.
#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace hulhe {

struct SystematicSample {
  std::vector<std::int32_t> units;  // hit units, in the order's sequence
  std::vector<std::int64_t> draws;  // how many of the K points fell on each
};

// order: the units in the sample's order; weight[unit] > 0; start: u / (W/K), in [0, 1).
SystematicSample draw_systematic_sample(const std::vector<std::int32_t>& order,
                                        const std::vector<std::int64_t>& weight, std::int64_t K,
                                        double start);

struct SystematicSampleEstimate {
  double adjustment = 0.0;  // b·(X − x̄): add to the estimate (0 without regression)
  double ci95 = 0.0;        // half-width of the 95% interval (infinite for K < 2)
  bool regression = false;  // whether the covariates were used
};

inline constexpr int kDrawsPerCovariate = 5;

// z: the draws' contributions in sample order (a unit drawn twice appears twice). x: one row
// per draw, one column per covariate, without the constant (fitted anyway); may have no
// columns. population_mean: the covariates' mean over the population (size x.cols()).
SystematicSampleEstimate estimate_systematic_sample(const std::vector<double>& z,
                                                    const Eigen::MatrixXd& x,
                                                    const Eigen::VectorXd& population_mean);

}  // namespace hulhe
