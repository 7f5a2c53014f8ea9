// Public chance sampling CFR (Johanson et al. 2012): converges on Kuhn (no public cards:
// it is vanilla CFR there) and on Leduc with one sampled board card per iteration; runs are
// determined by the seed.
#include "solver/public_chance_sampling_cfr.h"

#include <gtest/gtest.h>

#include "tests/solver/cfr_convergence_helpers.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

TEST(PublicChanceSamplingCfr, KuhnEqualsVanillaCfr) {
  SmallGame g("kuhn");
  for (const TablePrecision p : {TablePrecision::kFloat32, TablePrecision::kFloat64}) {
    const Solved pcs = solve_for(g, "pcs", 300, 1, 1, p);
    const Solved cfr = solve_for(g, "cfr", 300, 1, 1, p);
    EXPECT_EQ(pcs.tables.regret_values(), cfr.tables.regret_values()) << to_string(p);
    EXPECT_EQ(pcs.tables.average_sum_values(), cfr.tables.average_sum_values()) << to_string(p);
  }
}

TEST(PublicChanceSamplingCfr, LeducImprovesAndIsSeeded) {
  SmallGame g("leduc");
  const Solved a = solve_for(g, "pcs", 4000, 1, 7);
  const Solved b = solve_for(g, "pcs", 4000, 1, 7);
  const Solved c = solve_for(g, "pcs", 4000, 1, 8);
  EXPECT_EQ(a.tables.regret_values(), b.tables.regret_values());
  EXPECT_NE(a.tables.regret_values(), c.tables.regret_values());
  EXPECT_LT(a.report.exploitability_chips, 0.06);
  const Solved d = solve_for(g, "pcs", 2, 2, 7);  // a 2-thread batch runs too
  EXPECT_GT(d.report.exploitability_chips, a.report.exploitability_chips);
}

TEST(PublicChanceSamplingCfrSlow, LeducBelowOneHundredthOfAChip) {
  SmallGame g("leduc");
  const Solved s = solve_for(g, "pcs", 150000);
  EXPECT_LT(s.report.exploitability_chips, 1e-2);
  EXPECT_NEAR(s.report.game_value, kLeducValue, 2e-3);
}

}  // namespace
}  // namespace hulhe
