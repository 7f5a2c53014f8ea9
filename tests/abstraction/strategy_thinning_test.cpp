// Purification and thresholding (abstraction/strategy_thinning.h) on hand-made distributions:
// what is dropped, the renormalised sums, the tie rule and the all-below-threshold rule; then
// ThinnedPolicy over a whole Leduc policy.
#include "abstraction/strategy_thinning.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

#include "tests/support/solver_test_games.h"
#include "tests/support/test_policies.h"

namespace hulhe {
namespace {

using Probabilities = std::vector<double>;

Probabilities thinned(Probabilities p, const StrategyThinning& t) {
  thin_probabilities(p, t);
  return p;
}

double sum(const Probabilities& p) {
  return std::accumulate(p.begin(), p.end(), 0.0);
}

TEST(StrategyThinning, ThresholdDropsTheSmallActionsAndRenormalisesTheRest) {
  const Probabilities p = thinned({0.1, 0.3, 0.6}, StrategyThinning::with_threshold(0.15));
  EXPECT_DOUBLE_EQ(p[0], 0.0);
  EXPECT_DOUBLE_EQ(p[1], 0.3 / 0.9);
  EXPECT_DOUBLE_EQ(p[2], 0.6 / 0.9);
  EXPECT_NEAR(sum(p), 1.0, 1e-15);
  // Two of three below: the survivor alone.
  EXPECT_EQ(thinned({0.05, 0.9, 0.05}, StrategyThinning::with_threshold(0.15)),
            (Probabilities{0.0, 1.0, 0.0}));
  // Exactly at the threshold survives ("below" is strict).
  const Probabilities at = thinned({0.15, 0.25, 0.6}, StrategyThinning::with_threshold(0.25));
  EXPECT_EQ(at[0], 0.0);
  EXPECT_DOUBLE_EQ(at[1], 0.25 / 0.85);
  EXPECT_DOUBLE_EQ(at[2], 0.6 / 0.85);
}

TEST(StrategyThinning, ThresholdKeepsADistributionWithNothingBelowItBitForBit) {
  const Probabilities p{0.2, 0.30000000000000004, 0.49999999999999994};
  EXPECT_EQ(thinned(p, StrategyThinning::with_threshold(0.2)), p);
  EXPECT_EQ(thinned(p, StrategyThinning::with_threshold(0.0)), p);
  EXPECT_EQ(thinned(p, StrategyThinning::none()), p);
  // Actions never played are below any threshold, but dropping them changes nothing.
  const Probabilities with_zero{0.0, 0.30000000000000004, 0.7};
  EXPECT_EQ(thinned(with_zero, StrategyThinning::with_threshold(0.15)), with_zero);
}

TEST(StrategyThinning, AllBelowTheThresholdPlaysTheMostProbableAlone) {
  EXPECT_EQ(thinned({0.3, 0.36, 0.34}, StrategyThinning::with_threshold(0.4)),
            (Probabilities{0.0, 1.0, 0.0}));
  // A tie among the most probable: the lowest index.
  EXPECT_EQ(thinned({0.2, 0.4, 0.4}, StrategyThinning::with_threshold(0.5)),
            (Probabilities{0.0, 1.0, 0.0}));
  EXPECT_EQ(thinned({1.0 / 3, 1.0 / 3, 1.0 / 3}, StrategyThinning::with_threshold(0.5)),
            (Probabilities{1.0, 0.0, 0.0}));
}

TEST(StrategyThinning, PurifyPlaysTheMostProbableTiesToTheLowestIndex) {
  EXPECT_EQ(thinned({0.1, 0.3, 0.6}, StrategyThinning::purify()), (Probabilities{0, 0, 1}));
  EXPECT_EQ(thinned({0.45, 0.1, 0.45}, StrategyThinning::purify()), (Probabilities{1, 0, 0}));
  EXPECT_EQ(thinned({0.0, 0.5, 0.5}, StrategyThinning::purify()), (Probabilities{0, 1, 0}));
  EXPECT_EQ(thinned({0.5, 0.5}, StrategyThinning::purify()), (Probabilities{1, 0}));
  EXPECT_EQ(thinned({1.0}, StrategyThinning::purify()), (Probabilities{1}));
  EXPECT_EQ(most_probable_action(std::array<double, 4>{0.25, 0.25, 0.25, 0.25}), 0u);
  EXPECT_EQ(most_probable_action(std::array<double, 3>{0.2, 0.2, 0.6}), 2u);
}

TEST(StrategyThinning, DescribesItselfForTheFileMetadata) {
  EXPECT_EQ(StrategyThinning::none().describe(), "");
  EXPECT_EQ(StrategyThinning::with_threshold(0.15).describe(), "threshold 0.15");
  EXPECT_EQ(StrategyThinning::purify().describe(), "purified");
  EXPECT_FALSE(StrategyThinning::none().active());
  EXPECT_TRUE(StrategyThinning::purify().active());
}

// Over every Leduc information set of a lopsided policy: purified sets are pure, thresholded
// ones sum to 1 with nothing in (0, T), and T = 0 is the policy itself.
TEST(StrategyThinning, ThinnedPolicyOverEveryLeducInformationSet) {
  const testing::SmallGame leduc("leduc");
  const testing::HashedPolicy policy(leduc.tree, leduc.abstraction);
  const ThinnedPolicy pure(policy, StrategyThinning::purify());
  const ThinnedPolicy thresholded(policy, StrategyThinning::with_threshold(0.3));
  const ThinnedPolicy zero(policy, StrategyThinning::with_threshold(0.0));
  std::int64_t sets = 0, changed = 0;
  for (int r = 0; r < leduc.game.num_rounds; ++r)
    for (std::int32_t n = 0; n < leduc.tree.num_decision_nodes(r); ++n)
      for (std::int32_t b = 0; b < leduc.abstraction.num_buckets(r); ++b) {
        const std::size_t actions = leduc.tree.node(leduc.tree.decision_node(r, n)).num_actions;
        Probabilities p(actions), q(actions), t(actions), z(actions);
        policy.action_probabilities(r, n, b, p);
        pure.action_probabilities(r, n, b, q);
        thresholded.action_probabilities(r, n, b, t);
        zero.action_probabilities(r, n, b, z);
        ++sets;
        EXPECT_EQ(z, p);
        const std::size_t best = most_probable_action(p);
        for (std::size_t a = 0; a < actions; ++a) {
          EXPECT_EQ(q[a], a == best ? 1.0 : 0.0);
          EXPECT_TRUE(t[a] == 0.0 || t[a] >= 0.3) << t[a];
          if (p[a] >= 0.3) {
            EXPECT_GE(t[a], p[a]);
          }
        }
        EXPECT_NEAR(sum(t), 1.0, 1e-12);
        if (t != p) ++changed;
      }
  EXPECT_EQ(sets, 1116);  // Leduc's lossless tables (docs/commands.md)
  EXPECT_GT(changed, 100);
}

}  // namespace
}  // namespace hulhe
