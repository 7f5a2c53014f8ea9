// Discounted CFR (Brown & Sandholm 2019, alpha 3/2, beta 0, gamma 2) on Kuhn and Leduc.
#include "solver/discounted_cfr.h"

#include <gtest/gtest.h>

#include "tests/solver/cfr_convergence_helpers.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

TEST(DiscountedCfr, KuhnReachesTheGameValue) {
  SmallGame g("kuhn");
  const Solved s = solve_for(g, "dcfr", 2000);
  EXPECT_NEAR(s.report.game_value, kKuhnValue, 1e-4);
  EXPECT_LT(s.report.exploitability_chips, 1e-4);
}

TEST(DiscountedCfr, LeducBelowOneTenThousandthOfAChip) {
  SmallGame g("leduc");
  const Solved s = solve_for(g, "dcfr", 2000);
  EXPECT_LT(s.report.exploitability_chips, 1e-4);
  EXPECT_NEAR(s.report.game_value, kLeducValue, 1e-4);
}

TEST(DiscountedCfr, NegativeRegretsAreHalvedWithBetaZero) {
  // With beta = 0 negative regrets are multiplied by 1/2 each iteration, so after a few
  // iterations no regret is below the most negative single-iteration regret times 2.
  SmallGame g("kuhn");
  const Solved s = solve_for(g, "dcfr", 30);
  double lowest = 0.0;
  for (double r : s.tables.regrets()) lowest = std::min(lowest, r);
  // Kuhn counterfactual regrets per iteration are bounded by 2 chips x 2 opponent hands.
  EXPECT_GT(lowest, -2 * 4.0 - 1e-9);
}

}  // namespace
}  // namespace hulhe
