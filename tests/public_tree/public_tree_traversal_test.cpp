// The vector-form walker: a pass split across threads (forced on for Leduc, which is below
// the size where threads pay off) gives the same regrets, averages, values and best
// responses as a 1-thread pass; values of a profile are zero-sum.
#include "public_tree/public_tree_traversal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/support/solver_test_games.h"

namespace hulhe {
namespace {

using testing::SmallGame;

// A lopsided strategy: `tables`' regrets set to a few hashed values (i * 2654435761 mod
// `spread`, less `shift`), then regret matching of them.
std::vector<double> lopsided_strategy(StrategyTables& tables, unsigned spread, float shift) {
  for (std::size_t i = 0; i < tables.regrets<float>().size(); ++i)
    tables.regrets<float>()[i] = static_cast<float>((i * 2654435761u) % spread) - shift;
  std::vector<double> sigma;
  tables.all_current_strategies(sigma);
  return sigma;
}

TEST(PublicTreeTraversal, ThreadsGiveTheSameResults) {
  SmallGame g("leduc");
  StrategyTables layout(g.tree, g.abstraction);
  const std::vector<double> sigma = lopsided_strategy(layout, 7, 2.0F);

  PublicTreeTraversal one(g.tree, g.abstraction, layout);
  PublicTreeTraversal two(g.tree, g.abstraction, layout);
  two.set_min_parallel_work(0);
  ASSERT_TRUE(two.parallel_worthwhile());
  for (int traverser = 0; traverser < 2; ++traverser) {
    std::vector<float> r1(layout.size(), 0.0F), s1(layout.size(), 0.0F);
    std::vector<float> r2(layout.size(), 0.0F), s2(layout.size(), 0.0F);
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
      // The tables are floats: threads sum their buffers in another order.
      ASSERT_NEAR(r1[i], r2[i], 1e-5 * (1.0 + std::abs(r1[i]))) << i;
      ASSERT_NEAR(s1[i], s2[i], 1e-5 * (1.0 + std::abs(s1[i]))) << i;
    }
    EXPECT_NEAR(one.best_response_value(traverser, sigma.data(), 1),
                two.best_response_value(traverser, sigma.data(), 2), 1e-12);
  }
  EXPECT_NEAR(one.expected_value(0, sigma.data()), -one.expected_value(1, sigma.data()), 1e-12);
}

TEST(PublicTreeTraversal, RegretMatchingOnTheFlyEqualsASnapshot) {
  SmallGame g("leduc");
  StrategyTables tables(g.tree, g.abstraction);
  const std::vector<double> sigma = lopsided_strategy(tables, 7, 2.0F);
  PublicTreeTraversal walker(g.tree, g.abstraction, tables);
  for (int traverser = 0; traverser < 2; ++traverser) {
    StrategyTables a = tables, b = tables;
    CfrPass pass;
    pass.traverser = traverser;
    pass.strategy = sigma.data();
    pass.regrets = a.regrets<float>().data();
    pass.average_sums = a.average_sums<float>().data();
    const double va = walker.cfr_pass(pass);
    pass.strategy = nullptr;  // regret matching of b's regrets as the walk goes
    pass.regrets = b.regrets<float>().data();
    pass.average_sums = b.average_sums<float>().data();
    const double vb = walker.cfr_pass(pass);
    EXPECT_DOUBLE_EQ(va, vb);
    EXPECT_EQ(a.regrets<float>(), b.regrets<float>());
    EXPECT_EQ(a.average_sums<float>(), b.average_sums<float>());
  }
}

TEST(PublicTreeTraversal, DealtBoardsEstimateTheFullPassWithoutBias) {
  // kSampleDeck deals a board from the deck per pass (HULHE's public chance sampling); the
  // mean of its pass values over many deals is the full pass's value.
  SmallGame g("leduc");
  StrategyTables tables(g.tree, g.abstraction);
  const std::vector<double> sigma = lopsided_strategy(tables, 5, 1.0F);
  PublicTreeTraversal full(g.tree, g.abstraction, tables);
  PublicTreeTraversal dealt(g.tree, g.abstraction, tables,
                            PublicTreeTraversal::kDefaultMaxBoardHands, BoardMode::kSampleDeck);
  std::vector<float> r(tables.size(), 0.0F), s(tables.size(), 0.0F);
  CfrPass pass;
  pass.strategy = sigma.data();
  pass.regrets = r.data();
  pass.average_sums = s.data();
  const double exact = full.cfr_pass(pass);
  pass.sampled = true;
  SplitMix64 rng(3);
  double sum = 0.0, sum2 = 0.0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    dealt.sample_board(0, rng);
    const double v = dealt.cfr_pass_on(0, pass);
    sum += v;
    sum2 += v * v;
  }
  const double mean = sum / n;
  const double se = std::sqrt((sum2 / n - mean * mean) / n);
  EXPECT_NEAR(mean, exact, 4.0 * se + 1e-9);
}

}  // namespace
}  // namespace hulhe
