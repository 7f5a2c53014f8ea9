// The vector-form walker: a pass split across threads (forced on for Leduc, which is below
// the size where threads pay off) gives the same regrets, averages, values and best
// responses as a 1-thread pass; values of a profile are zero-sum.
#include "solver/public_tree_traversal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/solver/solver_test_games.h"

namespace hulhe {
namespace {

using testing::SmallGame;

TEST(PublicTreeTraversal, ThreadsGiveTheSameResults) {
  SmallGame g("leduc");
  StrategyTables layout(g.tree, g.abstraction);
  // A lopsided strategy: regrets of a few hashed values, then regret matching.
  for (std::size_t i = 0; i < layout.regrets().size(); ++i)
    layout.regrets()[i] = static_cast<double>((i * 2654435761u) % 7) - 2.0;
  std::vector<double> sigma;
  layout.all_current_strategies(sigma);

  PublicTreeTraversal one(g.tree, g.abstraction, layout);
  PublicTreeTraversal two(g.tree, g.abstraction, layout);
  two.set_min_parallel_work(0);
  ASSERT_TRUE(two.parallel_worthwhile());
  for (int traverser = 0; traverser < 2; ++traverser) {
    std::vector<double> r1(layout.size(), 0.0), s1(layout.size(), 0.0);
    std::vector<double> r2(layout.size(), 0.0), s2(layout.size(), 0.0);
    CfrPass pass;
    pass.traverser = traverser;
    pass.strategy = sigma.data();
    pass.regrets = r1.data();
    pass.average_sums = s1.data();
    const double v1 = one.cfr_pass(pass);
    pass.regrets = r2.data();
    pass.average_sums = s2.data();
    pass.threads = 2;
    const double v2 = two.cfr_pass(pass);
    EXPECT_NEAR(v1, v2, 1e-12);
    for (std::size_t i = 0; i < r1.size(); ++i) {
      ASSERT_NEAR(r1[i], r2[i], 1e-12) << i;
      ASSERT_NEAR(s1[i], s2[i], 1e-12) << i;
    }
    EXPECT_NEAR(one.best_response_value(traverser, sigma.data(), 1),
                two.best_response_value(traverser, sigma.data(), 2), 1e-12);
  }
  EXPECT_NEAR(one.expected_value(0, sigma.data()), -one.expected_value(1, sigma.data()), 1e-12);
}

}  // namespace
}  // namespace hulhe
