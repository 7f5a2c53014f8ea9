// SplitMix64 streams, dealing, bucket lookup and terminal utilities of the flattened tree.
#include "public_tree/sampled_deal.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "abstraction/lossless_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "public_tree/flat_betting_tree.h"
#include "public_tree/strategy_tables.h"
#include "solver/sampled_iterations.h"

namespace hulhe {
namespace {

GameDefinition load(const std::string& name) {
  return GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name);
}

TEST(SplitMix64, MatchesReferenceOutput) {
  // Reference values of Vigna's splitmix64.c seeded with 0 and with 1234567.
  SplitMix64 a(0);
  EXPECT_EQ(a(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(a(), 0x6e789e6aa1b965f4ULL);
  SplitMix64 b(1234567);
  EXPECT_EQ(b(), 6457827717110365317ULL);
  EXPECT_EQ(b(), 3203168211198807973ULL);
}

TEST(SplitMix64, IterationStreamsAreReproducibleAndDistinct) {
  SplitMix64 x = SplitMix64::for_iteration(7, 100);
  SplitMix64 y = SplitMix64::for_iteration(7, 100);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(x(), y());
  std::set<std::uint64_t> firsts;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (std::int64_t t = 1; t <= 50; ++t) firsts.insert(SplitMix64::for_iteration(seed, t)());
  EXPECT_EQ(firsts.size(), 20u * 50u);
}

TEST(SplitMix64, BelowAndUniformStayInRange) {
  SplitMix64 rng(99);
  std::array<int, 5> counts{};
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t v = rng.below(5);
    ASSERT_LT(v, 5u);
    ++counts[v];
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
  // Each count is Binomial(n, 1/5): sd ≈ 126; allow 5 sd.
  for (int c : counts) EXPECT_NEAR(c, n / 5, 640);
}

TEST(DealSampler, KuhnDealsEverySixOrderingEquallyOften) {
  const GameDefinition game = load("kuhn.game");
  const LosslessAbstraction abstraction(game);
  const DealSampler sampler(game, abstraction);
  const std::vector<Card> deck = game.deck();
  std::map<std::pair<Card, Card>, int> counts;
  const int n = 60000;
  SampledDeal deal;
  for (int i = 0; i < n; ++i) {
    SplitMix64 rng = SplitMix64::for_iteration(3, i);
    sampler.deal(rng, deal);
    ASSERT_NE(deal.hole[0][0], deal.hole[1][0]);
    ++counts[{deal.hole[0][0], deal.hole[1][0]}];
    // Kuhn: the higher card (deck order is ascending rank) wins the showdown.
    EXPECT_EQ(deal.showdown, deal.hole[0][0] > deal.hole[1][0] ? 1 : -1);
    const Card h0 = deal.hole[0][0];
    EXPECT_EQ(deal.bucket[0][0], abstraction.bucket(0, &h0, deal.board.data()));
  }
  ASSERT_EQ(counts.size(), 6u);
  for (const auto& [cards, c] : counts) {
    EXPECT_TRUE(std::find(deck.begin(), deck.end(), cards.first) != deck.end());
    EXPECT_NEAR(c, n / 6, 5 * std::sqrt(n * (1.0 / 6) * (5.0 / 6)));  // 5 sd
  }
}

TEST(DealSampler, LeducShowdownFollowsTheRules) {
  // Independent statement of Leduc's rule: a pair with the board wins, else the higher rank;
  // equal ranks split.
  const GameDefinition game = load("leduc.game");
  const LosslessAbstraction abstraction(game);
  const DealSampler sampler(game, abstraction);
  EXPECT_EQ(sampler.cards_per_deal(), 3);
  SampledDeal deal;
  int ties = 0;
  for (int i = 0; i < 2000; ++i) {
    SplitMix64 rng = SplitMix64::for_iteration(11, i);
    sampler.deal(rng, deal);
    const int r0 = rank_of(deal.hole[0][0]), r1 = rank_of(deal.hole[1][0]);
    const int rb = rank_of(deal.board[0]);
    ASSERT_NE(deal.hole[0][0], deal.board[0]);
    ASSERT_NE(deal.hole[1][0], deal.board[0]);
    ASSERT_NE(deal.hole[0][0], deal.hole[1][0]);
    int expected = (r0 > r1) - (r0 < r1);
    if (r0 == rb) expected = 1;
    if (r1 == rb) expected = -1;
    EXPECT_EQ(deal.showdown, expected) << i;
    ties += expected == 0;
    for (int p = 0; p < 2; ++p)
      for (int r = 0; r < 2; ++r)
        EXPECT_EQ(deal.bucket[p][r], abstraction.bucket(r, deal.hole[p].data(), deal.board.data()));
  }
  // P(tie) = P(same rank, board differs) = 1/5 · 1 = 0.2 over random deals.
  EXPECT_NEAR(ties / 2000.0, 0.2, 0.05);
}

TEST(SamplingTree, KuhnTerminalUtilities) {
  const GameDefinition game = load("kuhn.game");
  const BettingTree tree(game);
  const LosslessAbstraction abstraction(game);
  const StrategyTables tables(tree, abstraction);
  const std::vector<FlatNode> nodes = flatten_betting_tree(tree, &tables);
  ASSERT_EQ(nodes.size(), tree.nodes().size());
  // Kuhn's terminals by betting string: the utility of position 0 when it holds the better
  // card (showdown +1) — folds ignore the cards.
  const std::map<std::string, int> expected{
      {"cc", 1}, {"crf", -1}, {"crc", 2}, {"rf", 1}, {"rc", 2}};
  int terminals = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind == NodeKind::kDecision) {
      EXPECT_EQ(nodes[i].table_offset,
                tables.offset(0, tree.node(static_cast<std::int32_t>(i)).id_in_round, 0));
      continue;
    }
    ++terminals;
    const std::string betting = tree.betting_string(static_cast<std::int32_t>(i));
    ASSERT_TRUE(expected.count(betting)) << betting;
    EXPECT_EQ(nodes[i].utility(0, 1), expected.at(betting)) << betting;
    EXPECT_EQ(nodes[i].utility(1, 1), -expected.at(betting)) << betting;
    if (nodes[i].kind == NodeKind::kShowdown) {
      EXPECT_EQ(nodes[i].utility(0, -1), -expected.at(betting)) << betting;
      EXPECT_EQ(nodes[i].utility(0, 0), 0) << betting;
    }
  }
  EXPECT_EQ(terminals, 5);
}

TEST(SamplingHelpers, RunSampledIterationsVisitsEachIterationOnce) {
  // Iteration t adds t to entry t % size, so after the run each entry holds the sum of its
  // iterations. With threads, entries are spread so that concurrent iterations rarely
  // touch the same entry, but a lost update is possible by design: allow a few.
  const GameDefinition game = load("leduc.game");
  const BettingTree tree(game);
  const LosslessAbstraction abstraction(game);
  for (int threads : {1, 2, 3}) {
    StrategyTables tables(tree, abstraction);
    const std::int64_t size = tables.size();
    run_sampled_iterations(tables, 5, 50000, threads, [size](std::int64_t t, const auto& view) {
      view.add_regret(t % size, static_cast<double>(t));
      view.add_average(t % size, 1.0);
    });
    std::vector<float> want(static_cast<std::size_t>(size), 0.0F), count(want.size(), 0.0F);
    for (std::int64_t t = 5; t < 50005; ++t) {
      want[static_cast<std::size_t>(t % size)] += static_cast<float>(t);
      count[static_cast<std::size_t>(t % size)] += 1.0F;
    }
    if (threads == 1) {
      EXPECT_EQ(tables.regrets<float>(), want);
      EXPECT_EQ(tables.average_sums<float>(), count);
    } else {
      int differ = 0;
      for (std::size_t k = 0; k < want.size(); ++k)
        differ += tables.average_sums<float>()[k] != count[k];
      EXPECT_LE(differ, static_cast<int>(want.size()) / 20) << threads;
    }
  }
}

TEST(SamplingHelpers, RegretMatchingAndSampling) {
  float regrets[5] = {2.0F, -1.0F, 6.0F, -1.0F, 0.0F};
  float sums[5] = {};
  const DirectTables<float> view{regrets, sums};
  double sigma[3];
  regret_matching(view, 0, 3, sigma);
  EXPECT_DOUBLE_EQ(sigma[0], 0.25);
  EXPECT_DOUBLE_EQ(sigma[1], 0.0);
  EXPECT_DOUBLE_EQ(sigma[2], 0.75);
  regret_matching(SharedTables<float>{regrets, sums}, 3, 2, sigma);  // no positive regret: uniform
  EXPECT_DOUBLE_EQ(sigma[0], 0.5);
  EXPECT_DOUBLE_EQ(sigma[1], 0.5);

  const double p[3] = {0.25, 0.0, 0.75};
  std::array<int, 3> counts{};
  SplitMix64 rng(5);
  for (int i = 0; i < 40000; ++i) ++counts[sample_slot(p, 3, rng)];
  EXPECT_EQ(counts[1], 0);
  EXPECT_NEAR(counts[0] / 40000.0, 0.25, 0.011);  // 5 sd ≈ 0.011
}

}  // namespace
}  // namespace hulhe
