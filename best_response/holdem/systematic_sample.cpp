// GCC 12 reports false "maybe-uninitialized" inside its AVX-512 intrinsics when it inlines
// Eigen's products (as in abstraction/clustering/kmeans.cpp); nothing here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include "best_response/holdem/systematic_sample.h"

#include <cmath>
#include <limits>

namespace hulhe {
namespace {

// `lost`: the part of the differences' expected sum that the fit takes away. For residuals
// e = (I − H)ε of errors with a common variance σ², E[Σ_k (e_k − e_{k−1})²] = σ² tr(D'D(I − H))
// = σ² (2(K − 1) − tr(D'DH)), D the difference operator and H the fit's hat matrix; so the sum
// is scaled by 2(K − 1) / (2(K − 1) − tr(D'DH)). (The constant costs nothing: D removes it.)
double successive_difference_ci95(const Eigen::VectorXd& e, double lost) {
  const Eigen::Index K = e.size();
  const auto Kd = static_cast<double>(K);
  if (K < 2 || lost >= 2.0 * (Kd - 1.0)) return std::numeric_limits<double>::infinity();
  double sum_sq = 0.0;
  for (Eigen::Index k = 1; k < K; ++k) sum_sq += (e[k] - e[k - 1]) * (e[k] - e[k - 1]);
  const double var = sum_sq / (Kd * (2.0 * (Kd - 1.0) - lost));
  return 1.96 * std::sqrt(var);
}

}  // namespace

SystematicSample draw_systematic_sample(const std::vector<std::int32_t>& order,
                                        const std::vector<std::int64_t>& weight, std::int64_t K,
                                        double start) {
  double W = 0.0;
  for (std::int32_t c : order) W += static_cast<double>(weight[c]);
  const double step = W / static_cast<double>(K);
  const double u0 = start * step;
  SystematicSample s;
  std::int64_t j = 0;
  double cum = 0.0;
  for (std::int32_t c : order) {
    cum += static_cast<double>(weight[c]);
    std::int64_t hits = 0;
    while (j < K && u0 + static_cast<double>(j) * step < cum) {
      ++hits;
      ++j;
    }
    if (hits == 0) continue;
    s.units.push_back(c);
    s.draws.push_back(hits);
  }
  return s;
}

SystematicSampleEstimate estimate_systematic_sample(const std::vector<double>& z,
                                                    const Eigen::MatrixXd& x,
                                                    const Eigen::VectorXd& population_mean) {
  const auto K = static_cast<Eigen::Index>(z.size());
  const Eigen::VectorXd zv = Eigen::Map<const Eigen::VectorXd>(z.data(), K);
  SystematicSampleEstimate out;
  const Eigen::Index p = x.cols() + 1;  // with the constant
  if (x.cols() > 0 && x.rows() == K && K >= kDrawsPerCovariate * p) {
    // Centre on the draws' means: the slope fit is then free of the constant.
    const Eigen::RowVectorXd x_bar = x.colwise().mean();
    const Eigen::MatrixXd xc = x.rowwise() - x_bar;
    const Eigen::VectorXd zc = zv.array() - zv.mean();
    const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(xc);
    if (qr.rank() == x.cols()) {
      const Eigen::VectorXd b = qr.solve(zc);
      out.adjustment = b.dot(population_mean - x_bar.transpose());
      // tr(D'DH) = ‖DQ‖², Q an orthonormal basis of the centred covariates' columns.
      const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(xc).householderQ() *
                                Eigen::MatrixXd::Identity(K, x.cols());
      const double lost = (q.bottomRows(K - 1) - q.topRows(K - 1)).squaredNorm();
      out.ci95 = successive_difference_ci95(zc - xc * b, lost);
      out.regression = true;
      return out;
    }
  }
  out.ci95 = successive_difference_ci95(zv, 0.0);
  return out;
}

}  // namespace hulhe
