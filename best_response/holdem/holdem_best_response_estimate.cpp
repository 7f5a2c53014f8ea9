// The estimate of the real-game hold'em best response (holdem_best_response.h) from its
// finished units: the values at every sequence entering the flop (the sum over every flop, or
// a sampled run's ratio estimate), each seat's value from the preflop walk above them, and a
// sampled run's 95% intervals with the regression on the flops' ranks (systematic_sample.h).
#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <vector>

#include "best_response/holdem/holdem_best_response_walk.h"
#include "util/combinatorics.h"

namespace hulhe {

// Flop-entry values into pre.acc[1]. Exact: the sum of the orbit sums. Sampled: for each hand
// the self-normalised (ratio) estimate over the drawn flops that do not touch it,
//   Ê(h) = [Σ_k S_k(h)/w_k] / [Σ_k I_k(h)/w_k] · N,
// with I_k(h) the flops of draw k's orbit disjoint from h and N all flops disjoint from h:
// flops are drawn in proportion to w_k, so both sums are unbiased up to the same factor,
// and a value that does not depend on the flop (e.g. against always-fold) comes out exact.
HoldemBestResponse::Impl::RatioTerms HoldemBestResponse::Impl::flop_entry_values(
    Workspace& pre, const SystematicSample& sample, const std::vector<std::vector<double>>& result,
    bool exact) const {
  const auto U = static_cast<std::int64_t>(sample.units.size());
  const std::size_t payload = 2 * block(1);
  std::int64_t K = 0;
  for (std::int64_t k : sample.draws) K += k;
  const double Kd = static_cast<double>(K);
  std::vector<double>& acc1 = pre.acc[1];
  std::fill(acc1.begin(), acc1.end(), 0.0);
  const std::size_t E1 = entries[1].size();
  const double disjoint_flops =
      static_cast<double>(binomial(game.deck_size() - 2, flops.flop_cards));
  RatioTerms ratio;
  ratio.indicator.resize(exact ? 0 : U);
  ratio.denom.assign(n, 0.0);
  for (std::int64_t u = 0; u < U; ++u) {
    if (exact) {
      for (std::size_t i = 0; i < payload; ++i) acc1[i] += result[u][i];
      continue;
    }
    const CanonicalFlop& f = flops.flops[sample.units[u]];
    const double pk = static_cast<double>(sample.draws[u]) / Kd;
    std::vector<double>& indicator = ratio.indicator[u];
    indicator.assign(n, 0.0);
    const double scale = 1.0 / static_cast<double>(flops.hand_perm.size());
    for (const auto& perm : flops.hand_perm)
      for (std::int32_t h = 0; h < n; ++h)
        indicator[h] += hands.masks[perm[h]].intersects(f.mask) ? 0.0 : scale;
    for (std::int32_t h = 0; h < n; ++h) ratio.denom[h] += pk * indicator[h];
    for (std::size_t i = 0; i < payload; ++i) acc1[i] += pk * result[u][i] / f.weight;
  }
  if (exact) {
    for (double& x : acc1) x /= compat[0];
  } else {
    for (std::size_t b = 0; b < 2 * E1; ++b)
      for (std::int32_t h = 0; h < n; ++h) {
        double& x = acc1[b * n + h];
        const double d = ratio.denom[h];
        x = d > 0.0 ? x / d * disjoint_flops / compat[0] : 0.0;
      }
  }
  return ratio;
}

// Each seat's value: the preflop walk with the flop-entry values at its leaves (the best
// response's preflop choices land in pre.choice).
void HoldemBestResponse::Impl::seat_values(Workspace& pre, HoldemBestResponseReport& rep) const {
  std::vector<double> ones(n, 1.0), out(n);
  const double norm = static_cast<double>(n) * static_cast<double>(hands.compatible_opponent_hands);
  for (int t = 0; t < 2; ++t) {
    value(pre, t, 0, 0, ones.data(), out.data(), 0);
    double s = 0.0;
    for (double v : out) s += v;
    rep.value[t] = s / norm;
  }
  rep.mean = 0.5 * (rep.value[0] + rep.value[1]);
}

// A sampled run's 95% intervals (and regression adjustment) from the draws' contributions.
void HoldemBestResponse::Impl::sample_intervals(Workspace& pre, const SystematicSample& sample,
                                                const std::vector<std::vector<double>>& result,
                                                const RatioTerms& ratio,
                                                HoldemBestResponseReport& rep) const {
  const auto U = static_cast<std::int64_t>(sample.units.size());
  const std::size_t payload = 2 * block(1);
  std::int64_t K = 0;
  for (std::int64_t k : sample.draws) K += k;
  const std::vector<double>& acc1 = pre.acc[1];
  const std::vector<double>& denom = ratio.denom;
  const std::size_t E1 = entries[1].size();
  const double disjoint_flops =
      static_cast<double>(binomial(game.deck_size() - 2, flops.flop_cards));
  std::vector<double> ones(n, 1.0);
  const double norm = static_cast<double>(n) * static_cast<double>(hands.compatible_opponent_hands);
  // Delta method for the ratio, with the responder's preflop strategy found above held
  // fixed (which makes the value linear in the flop-entry values): each draw contributes
  //   z_k = Σ_{e,h} coef(e,h) · N / (compat · norm) · (S_k(e,h)/w_k − Ê'(e,h) I_k(h)/w_k) /
  //   denom(h)
  // (Ê' the ratio before scaling), and the interval is 1.96 · sd(mean z).
  std::vector<double> coef(payload, 0.0);
  for (int t = 0; t < 2; ++t) coefficients(pre, t, 0, ones.data(), coef, 0);
  const double c0 = disjoint_flops / compat[0] / norm;
  std::vector<std::array<double, 3>> zs;  // per unit: z of seat 0, seat 1, their mean
  for (std::int64_t u = 0; u < U; ++u) {
    const double w = flops.flops[sample.units[u]].weight;
    std::array<double, 2> z{};
    for (int t = 0; t < 2; ++t)
      for (std::size_t e = 0; e < E1; ++e) {
        const std::size_t o = (static_cast<std::size_t>(t) * E1 + e) * n;
        for (std::int32_t h = 0; h < n; ++h) {
          if (denom[h] <= 0.0 || coef[o + h] == 0.0) continue;
          const double r = acc1[o + h] * compat[0] / disjoint_flops;
          z[t] += coef[o + h] * (result[u][o + h] / w - r * ratio.indicator[u][h]) / denom[h];
        }
      }
    for (int t = 0; t < 2; ++t) z[t] *= c0;
    zs.push_back({z[0], z[1], 0.5 * (z[0] + z[1])});
  }
  // The draws in sample order (a class hit twice counts twice) with their flops' rank
  // covariates, whose mean over every flop of the deck is known exactly: the regression
  // estimator of systematic_sample.h removes the part of the flop-to-flop spread
  // that the ranks explain, and its interval comes from successive differences of the rest.
  const std::int64_t p =
      static_cast<std::int64_t>(flop_rank_covariates(flops, flops.flops[0]).size());
  Eigen::MatrixXd x(K, p);
  std::array<std::vector<double>, 3> zk;
  std::int64_t j = 0;
  rep.draw_units.clear();
  for (std::int64_t u = 0; u < U; ++u) {
    const std::vector<double> xu = flop_rank_covariates(flops, flops.flops[sample.units[u]]);
    for (std::int64_t d = 0; d < sample.draws[u]; ++d, ++j) {
      for (std::int64_t i = 0; i < p; ++i) x(j, i) = xu[i];
      for (int i = 0; i < 3; ++i) zk[i].push_back(zs[u][i]);
      rep.draw_units.push_back(sample.units[u]);
    }
  }
  Eigen::VectorXd x_all = Eigen::VectorXd::Zero(p);
  for (const CanonicalFlop& f : flops.flops) {
    const std::vector<double> xf = flop_rank_covariates(flops, f);
    for (std::int64_t i = 0; i < p; ++i) x_all[i] += f.weight * xf[i];
  }
  x_all /= static_cast<double>(flops.total_weight);
  for (int i = 0; i < 3; ++i) {
    const SystematicSampleEstimate est = estimate_systematic_sample(zk[i], x, x_all);
    (i < 2 ? rep.value[i] : rep.mean) += est.adjustment;
    (i < 2 ? rep.ci95[i] : rep.mean_ci95) = est.ci95;
    rep.regression = est.regression;
  }
  rep.draw_contributions = std::move(zk[2]);
  rep.draw_covariates = std::move(x);
  rep.covariate_means = std::move(x_all);
}

}  // namespace hulhe
