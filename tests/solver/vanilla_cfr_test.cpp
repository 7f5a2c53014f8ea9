// Vanilla CFR (Zinkevich et al. 2007) on Kuhn: the average strategy approaches the game
// value −1/18 (cfr_game_values_test.cpp), with the O(1/sqrt(T)) rate.
#include "solver/vanilla_cfr.h"

#include <gtest/gtest.h>

#include "tests/solver/cfr_convergence_helpers.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

TEST(VanillaCfr, FirstIterationAverageIsUniform) {
  // After one iteration the average strategy is sigma^1 = uniform: NashConv 11/12.
  SmallGame g("kuhn");
  const Solved s = solve_for(g, "cfr", 1);
  EXPECT_NEAR(s.report.nash_conv, 11.0 / 12.0, 1e-12);
}

TEST(VanillaCfr, LeducImproves) {
  SmallGame g("leduc");
  const double e50 = solve_for(g, "cfr", 50).report.exploitability_chips;
  const double e800 = solve_for(g, "cfr", 800).report.exploitability_chips;
  EXPECT_LT(e800, e50 / 2);
}

}  // namespace
}  // namespace hulhe
