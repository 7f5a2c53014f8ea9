// Outcome-sampling MCCFR on Kuhn and Leduc, measured by the solver's exact best response
// (cross-checked against a brute-force one in external_sampling_mccfr_test.cpp).
#include "solver/outcome_sampling_mccfr.h"

#include <gtest/gtest.h>

#include <string>

#include "abstraction/lossless_abstraction.h"
#include "best_response/exploitability.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "public_tree/strategy_tables.h"
#include "solver/average_policy.h"
#include "tests/support/same_tables.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

struct Solver {
  explicit Solver(const std::string& game_file)
      : game(GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" +
                                       game_file)),
        tree(game),
        abstraction(game),
        tables(tree, abstraction) {}
  ExploitabilityReport report() const {
    return compute_exploitability(AveragePolicy(tree, abstraction, tables));
  }
  GameDefinition game;
  BettingTree tree;
  LosslessAbstraction abstraction;
  StrategyTables tables;
};

TEST(OutcomeSamplingMccfr, KuhnConverges) {
  Solver s("kuhn.game");
  OutcomeSamplingMccfr os(s.tree, s.abstraction, s.tables, 42);
  os.run(1, 300000, 1);
  const ExploitabilityReport r = s.report();
  EXPECT_LT(r.exploitability_chips, 2e-2);  // uniform: 0.458
  EXPECT_NEAR(r.game_value, -1.0 / 18.0, 2e-2);
}

TEST(OutcomeSamplingMccfr, LeducImprovesSteadily) {
  // Exploitability after 10^4, 10^5 and 10^6 samples of the same run keeps falling.
  Solver s("leduc.game");
  OutcomeSamplingMccfr os(s.tree, s.abstraction, s.tables, 42);
  os.run(1, 10000, 1);
  const double e1 = s.report().exploitability_chips;
  os.run(10001, 90000, 1);
  const double e2 = s.report().exploitability_chips;
  EXPECT_LT(e1, 2.0);  // uniform: 2.37
  EXPECT_LT(e2, 0.75 * e1);
  EXPECT_LT(e2, 0.6);  // 0.52 with 32-bit tables (0.47 with doubles): one sampled run
}

TEST(OutcomeSamplingMccfr, OneThreadIsDeterministicAndResumable) {
  Solver a("leduc.game"), b("leduc.game");
  OutcomeSamplingMccfr(a.tree, a.abstraction, a.tables, 9).run(1, 6000, 1);
  OutcomeSamplingMccfr resumed(b.tree, b.abstraction, b.tables, 9);
  resumed.run(1, 2000, 1);
  resumed.run(2001, 4000, 1);
  testing::expect_same_tables(a.tables, b.tables);
  Solver c("leduc.game");
  OutcomeSamplingMccfr(c.tree, c.abstraction, c.tables, 9, 0.3).run(1, 6000, 1);
  EXPECT_NE(a.tables.regret_values(), c.tables.regret_values());  // ε changes the samples' weights
}

// Not reproducible with two threads (see ExternalSamplingMccfr.TwoThreadsConvergeToo). Over 60
// runs beside a busy process on 2 cores: median 3.1e-3, worst 7.7e-3, under the 2e-2 bound.
TEST(OutcomeSamplingMccfr, TwoThreadsConvergeToo) {
  Solver s("kuhn.game");
  OutcomeSamplingMccfr os(s.tree, s.abstraction, s.tables, 5);
  os.run(1, 300000, 2);
  EXPECT_LT(s.report().exploitability_chips, 2e-2);
}

TEST(OutcomeSamplingMccfr, RejectsBadEpsilon) {
  Solver s("kuhn.game");
  EXPECT_THROW(OutcomeSamplingMccfr(s.tree, s.abstraction, s.tables, 1, 0.0), InputError);
  EXPECT_THROW(OutcomeSamplingMccfr(s.tree, s.abstraction, s.tables, 1, 1.5), InputError);
}

// The target: Kuhn in 5 s below 1e-2 chips (the iteration count stands in for the
// seconds; measured rates are in docs/benchmarks.md).
TEST(OutcomeSamplingMccfrSlow, KuhnReachesTarget) {
  Solver s("kuhn.game");
  OutcomeSamplingMccfr os(s.tree, s.abstraction, s.tables, 1);
  os.run(1, 5000000, 1);
  const ExploitabilityReport r = s.report();
  EXPECT_LT(r.exploitability_chips, 1e-2);
  EXPECT_NEAR(r.game_value, -1.0 / 18.0, 1e-2);
}

}  // namespace
}  // namespace hulhe
