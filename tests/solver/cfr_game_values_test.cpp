// The full-traversal CFR family on Kuhn and Leduc: after a fixed number of iterations each
// algorithm's average strategy is within a stated tolerance of equilibrium, in exploitability
// and in game value (Kuhn -1/18, Leduc kLeducValue), one row per algorithm and game.
#include <gtest/gtest.h>

#include <string>

#include "tests/solver/cfr_convergence_helpers.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

struct GameValueCase {
  const char* algorithm;
  const char* game;
  std::int64_t iterations;
  double tolerance;  // chips, for the exploitability and the game value alike
};

class CfrFamily : public ::testing::TestWithParam<GameValueCase> {};

TEST_P(CfrFamily, ReachesTheGameValue) {
  const GameValueCase& c = GetParam();
  const SmallGame g(c.game);
  const Solved s = solve_for(g, c.algorithm, c.iterations);
  const double value = std::string(c.game) == "kuhn" ? kKuhnValue : kLeducValue;
  EXPECT_LT(s.report.exploitability_chips, c.tolerance);
  EXPECT_NEAR(s.report.game_value, value, c.tolerance);
}

// CFR+ (Tammelin 2014) and DCFR (Brown & Sandholm 2019) below 1e-4 chips in a few thousand
// iterations; vanilla CFR (Zinkevich et al. 2007) and public chance sampling (Johanson et al.
// 2012, vanilla CFR on Kuhn, which has no public cards) at the O(1/sqrt(T)) rate.
INSTANTIATE_TEST_SUITE_P(GameValues, CfrFamily,
                         ::testing::Values(GameValueCase{"cfr+", "kuhn", 2000, 1e-4},
                                           GameValueCase{"cfr+", "leduc", 2500, 1e-4},
                                           GameValueCase{"dcfr", "kuhn", 2000, 1e-4},
                                           GameValueCase{"dcfr", "leduc", 2000, 1e-4},
                                           GameValueCase{"cfr", "kuhn", 60000, 1e-3},
                                           GameValueCase{"pcs", "kuhn", 60000, 1e-3}),
                         [](const ::testing::TestParamInfo<GameValueCase>& param_info) {
                           std::string name = std::string(param_info.param.algorithm) + "_" +
                                              param_info.param.game;
                           for (char& ch : name)
                             if (ch == '+') ch = 'p';
                           return name;
                         });

}  // namespace
}  // namespace hulhe
