// The systematic PPS sample and its (regression-adjusted) estimate: the drawn points by hand,
// the successive-difference interval by hand, exact recovery of values linear in the
// covariates, the fallbacks, and the coverage and gain of the regression estimator over
// HULHE's 1,755 flop classes with values that the rank covariates explain only in part.
#include "best_response/holdem/systematic_sample.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <numeric>

#include "best_response/holdem/canonical_flops.h"
#include "public_tree/private_hands.h"
#include "public_tree/sampled_deal.h"

namespace hulhe {
namespace {

TEST(SystematicSample, DrawsTheUnitsUnderTheEvenlySpacedPoints) {
  // Weights 3, 1, 2, 4 laid end to end (W = 10); K = 5, start 1/2: points 1, 3, 5, 7, 9.
  const std::vector<std::int64_t> weight = {3, 1, 2, 4};
  const SystematicSample s = draw_systematic_sample({0, 1, 2, 3}, weight, 5, 0.5);
  EXPECT_EQ(s.units, (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.draws, (std::vector<std::int64_t>{1, 1, 1, 2}));
  // Another order, start 0: points 0, 2, 4, 6, 8 over 3 [0, 4), 1 [4, 5), 0 [5, 8), 2 [8, 10).
  const SystematicSample t = draw_systematic_sample({3, 1, 0, 2}, weight, 5, 0.0);
  EXPECT_EQ(t.units, (std::vector<std::int32_t>{3, 1, 0, 2}));
  EXPECT_EQ(t.draws, (std::vector<std::int64_t>{2, 1, 1, 1}));
  // K = 2 from the same order, start 0.9: points 4.5 and 9.5.
  const SystematicSample v = draw_systematic_sample({3, 1, 0, 2}, weight, 2, 0.9);
  EXPECT_EQ(v.units, (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(v.draws, (std::vector<std::int64_t>{1, 1}));
  // Averaged over the start, unit c is hit K·w_c/W times.
  std::vector<double> hits(4, 0.0);
  constexpr int kStarts = 1000;
  for (int i = 0; i < kStarts; ++i) {
    const SystematicSample r = draw_systematic_sample({2, 0, 3, 1}, weight, 3, (i + 0.5) / kStarts);
    std::int64_t total = 0;
    for (std::size_t k = 0; k < r.units.size(); ++k) {
      hits[r.units[k]] += static_cast<double>(r.draws[k]) / kStarts;
      total += r.draws[k];
    }
    ASSERT_EQ(total, 3);
  }
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(hits[c], 3.0 * weight[c] / 10.0, 1e-9) << c;
}

TEST(SystematicSample, PlainIntervalIsTheSuccessiveDifferenceFormula) {
  const std::vector<double> z = {1.0, 3.0, 2.0, 6.0};
  const SystematicSampleEstimate e =
      estimate_systematic_sample(z, Eigen::MatrixXd(4, 0), Eigen::VectorXd(0));
  EXPECT_FALSE(e.regression);
  EXPECT_EQ(e.adjustment, 0.0);
  // (4 + 1 + 16) / (2 · 4 · 3)
  EXPECT_NEAR(e.ci95, 1.96 * std::sqrt(21.0 / 24.0), 1e-12);
  EXPECT_TRUE(std::isinf(
      estimate_systematic_sample({1.0}, Eigen::MatrixXd(1, 0), Eigen::VectorXd(0)).ci95));
}

// A population of 300 units with two covariates; values exactly linear in them.
struct LinearPopulation {
  std::vector<std::int64_t> weight;
  std::vector<std::array<double, 2>> x;
  std::vector<double> y;
  double mean_y = 0.0;
  Eigen::VectorXd mean_x = Eigen::VectorXd::Zero(2);
  LinearPopulation() {
    SplitMix64 rng(11);
    double W = 0.0;
    for (int i = 0; i < 300; ++i) {
      weight.push_back(1 + static_cast<std::int64_t>(rng.uniform() * 24));
      const double a = rng.uniform(), b = rng.uniform();
      x.push_back({a, a * b});
      y.push_back(2.0 + 3.0 * a - 5.0 * a * b);
      W += static_cast<double>(weight.back());
      mean_y += static_cast<double>(weight.back()) * y.back();
      mean_x[0] += static_cast<double>(weight.back()) * a;
      mean_x[1] += static_cast<double>(weight.back()) * a * b;
    }
    mean_y /= W;
    mean_x /= W;
  }
};

TEST(SystematicSample, ValuesLinearInTheCovariatesAreEstimatedExactly) {
  const LinearPopulation pop;
  std::vector<std::int32_t> order(300);
  std::iota(order.begin(), order.end(), 0);
  for (double start : {0.1, 0.5, 0.9}) {
    const SystematicSample s = draw_systematic_sample(order, pop.weight, 40, start);
    std::vector<double> z;
    Eigen::MatrixXd x(40, 2);
    for (std::size_t u = 0; u < s.units.size(); ++u)
      for (std::int64_t d = 0; d < s.draws[u]; ++d) {
        x.row(static_cast<Eigen::Index>(z.size())) << pop.x[s.units[u]][0], pop.x[s.units[u]][1];
        z.push_back(pop.y[s.units[u]]);
      }
    ASSERT_EQ(z.size(), 40u);
    const double plain = std::accumulate(z.begin(), z.end(), 0.0) / 40.0;
    const SystematicSampleEstimate e = estimate_systematic_sample(z, x, pop.mean_x);
    ASSERT_TRUE(e.regression);
    EXPECT_NEAR(plain + e.adjustment, pop.mean_y, 1e-12);
    EXPECT_NEAR(e.ci95, 0.0, 1e-12);
    EXPECT_GT(std::abs(plain - pop.mean_y), 1e-4);  // the plain mean alone is off
  }
}

TEST(SystematicSample, FallsBackToThePlainMeanWithTooFewDrawsOrDependentCovariates) {
  std::vector<double> z;
  for (int k = 0; k < 60; ++k) z.push_back(std::sin(k));
  const double plain_ci =
      estimate_systematic_sample(z, Eigen::MatrixXd(60, 0), Eigen::VectorXd(0)).ci95;
  // 12 covariates need 5 · 13 = 65 draws.
  const Eigen::MatrixXd many = Eigen::MatrixXd::Random(60, 12);
  const SystematicSampleEstimate few =
      estimate_systematic_sample(z, many, Eigen::VectorXd::Zero(12));
  EXPECT_FALSE(few.regression);
  EXPECT_EQ(few.adjustment, 0.0);
  EXPECT_EQ(few.ci95, plain_ci);
  // Two covariates, one twice the other.
  Eigen::MatrixXd dependent(60, 2);
  for (int k = 0; k < 60; ++k) dependent.row(k) << k, 2.0 * k;
  Eigen::VectorXd dependent_mean(2);
  dependent_mean << 30.0, 60.0;
  const SystematicSampleEstimate dep = estimate_systematic_sample(z, dependent, dependent_mean);
  EXPECT_FALSE(dep.regression);
  EXPECT_EQ(dep.ci95, plain_ci);
}

// With errors of equal variance around a linear fit, the regression interval's variance is
// unbiased whatever the covariates: the differences are scaled by what the fit takes out of
// them. Covariates that vary smoothly along the order take little; jumpy ones take more.
TEST(SystematicSample, ResidualVarianceIsUnbiasedForEqualVarianceErrors) {
  constexpr int K = 60;
  SplitMix64 rng(17);
  for (bool smooth : {true, false}) {
    Eigen::MatrixXd x(K, 3);
    for (int k = 0; k < K; ++k) {
      const double t = static_cast<double>(k) / K;
      if (smooth)
        x.row(k) << t, t * t, std::sin(6.0 * t);
      else
        x.row(k) << rng.uniform(), rng.uniform(), k % 2;
    }
    constexpr int kReps = 4000;
    double mean_var = 0.0;
    for (int r = 0; r < kReps; ++r) {
      std::vector<double> z(K);
      for (int k = 0; k < K; ++k) z[k] = 1.0 + 2.0 * x(k, 0) - x(k, 2) + (rng.uniform() - 0.5);
      const SystematicSampleEstimate e = estimate_systematic_sample(z, x, Eigen::VectorXd::Zero(3));
      ASSERT_TRUE(e.regression);
      mean_var += e.ci95 / 1.96 * (e.ci95 / 1.96) * K / kReps;  // estimates σ² = 1/12
    }
    EXPECT_NEAR(mean_var * 12.0, 1.0, 0.02) << (smooth ? "smooth" : "jumpy");
  }
}

TEST(SystematicSample, FlopRankCovariates) {
  const GameDefinition hulhe = GameDefinition::holdem_limit_2p();
  const FlopClasses fc = make_flop_classes(hulhe, enumerate_private_hands(hulhe), true);
  EXPECT_EQ(fc.min_rank, 0);
  EXPECT_EQ(fc.max_rank, 12);
  CanonicalFlop f;
  f.cards = {make_card(0, 0), make_card(11, 1), make_card(12, 2)};  // 2c Kd Ah
  const std::vector<double> x = flop_rank_covariates(fc, f);
  const double k = 11.0 / 12.0;
  const std::vector<double> want = {1.0, k, 0.0, 1.0, k * k, 0.0, k, 0.0, 0.0};
  ASSERT_EQ(x.size(), want.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_DOUBLE_EQ(x[i], want[i]) << i;
}

// Over HULHE's flop classes drawn along the texture order, as the sampled best response
// draws them: values = a smooth function of the ranks (which the covariates can fit) + a term
// they cannot (suits, pairs, and noise). The regression-adjusted intervals cover the true mean
// at about the stated rate and are narrower than the plain ones, and the error shrinks too.
TEST(SystematicSample, RegressionOnFlopRanksCoversAndNarrowsOverHulheFlops) {
  const GameDefinition hulhe = GameDefinition::holdem_limit_2p();
  const FlopClasses fc = make_flop_classes(hulhe, enumerate_private_hands(hulhe), true);
  const std::vector<std::int32_t> order = flops_by_texture(fc);
  std::vector<std::int64_t> weight;
  std::vector<double> y;
  std::vector<std::vector<double>> xs;
  SplitMix64 noise(5);
  double mean_y = 0.0;
  Eigen::VectorXd mean_x = Eigen::VectorXd::Zero(9);
  for (const CanonicalFlop& f : fc.flops) {
    weight.push_back(f.weight);
    xs.push_back(flop_rank_covariates(fc, f));
    const std::vector<double>& x = xs.back();
    int suits = 0;
    for (int i = 0; i < 3; ++i) suits |= 1 << suit_of(f.cards[i]);
    const bool paired = x[0] == x[1] || x[1] == x[2];
    // Low boards and broadway boards worth more, a dip between (as measured on HULHE).
    const double smooth = 700.0 - 900.0 * x[2] + 700.0 * x[2] * x[2] - 300.0 * x[0] * x[1];
    const double rest = (std::popcount(static_cast<unsigned>(suits)) == 1 ? 60.0 : 0.0) +
                        (paired ? 40.0 : 0.0) + 60.0 * (noise.uniform() - 0.5);
    y.push_back(smooth + rest);
    mean_y += f.weight * y.back();
    for (int i = 0; i < 9; ++i) mean_x[i] += f.weight * x[i];
  }
  mean_y /= static_cast<double>(fc.total_weight);
  mean_x /= static_cast<double>(fc.total_weight);

  constexpr int kStarts = 200;
  constexpr std::int64_t K = 80;
  SplitMix64 rng(3);
  int covered = 0, plain_covered = 0;
  double sq = 0.0, plain_sq = 0.0, width = 0.0, plain_width = 0.0;
  for (int s = 0; s < kStarts; ++s) {
    const SystematicSample sample = draw_systematic_sample(order, weight, K, rng.uniform());
    std::vector<double> z;
    Eigen::MatrixXd x(K, 9);
    for (std::size_t u = 0; u < sample.units.size(); ++u)
      for (std::int64_t d = 0; d < sample.draws[u]; ++d) {
        for (int i = 0; i < 9; ++i)
          x(static_cast<Eigen::Index>(z.size()), i) = xs[sample.units[u]][i];
        z.push_back(y[sample.units[u]]);
      }
    const double plain = std::accumulate(z.begin(), z.end(), 0.0) / static_cast<double>(K);
    const SystematicSampleEstimate e = estimate_systematic_sample(z, x, mean_x);
    const SystematicSampleEstimate p =
        estimate_systematic_sample(z, Eigen::MatrixXd(K, 0), Eigen::VectorXd(0));
    ASSERT_TRUE(e.regression);
    const double err = plain + e.adjustment - mean_y, plain_err = plain - mean_y;
    covered += std::abs(err) <= e.ci95;
    plain_covered += std::abs(plain_err) <= p.ci95;
    sq += err * err;
    plain_sq += plain_err * plain_err;
    width += e.ci95;
    plain_width += p.ci95;
  }
  EXPECT_GE(covered, 180) << "regression intervals covered " << covered << " of " << kStarts;
  EXPECT_GE(plain_covered, 180);
  EXPECT_LT(width, 0.6 * plain_width) << width / kStarts << " vs " << plain_width / kStarts;
  EXPECT_LT(sq, 0.5 * plain_sq) << std::sqrt(sq / kStarts) << " vs "
                                << std::sqrt(plain_sq / kStarts);
}

}  // namespace
}  // namespace hulhe
