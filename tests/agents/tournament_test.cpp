// Rankings on hand-made cross-tables with known answers (one where Total Bankroll and the
// Instant Run-off disagree), statistical ties, and a small real tournament.
#include "agents/tournament.h"

#include <gtest/gtest.h>

#include "tests/support/shipped_games.h"

namespace hulhe {
namespace {

// win[i][j] for i < j given; the rest antisymmetric. One interval for every entry.
CrossTable table(const std::vector<std::vector<double>>& upper, double ci) {
  const int n = static_cast<int>(upper.size());
  CrossTable t;
  for (int i = 0; i < n; ++i) t.names.push_back(std::string(1, static_cast<char>('A' + i)));
  t.win.assign(n, std::vector<double>(n, 0.0));
  t.ci95.assign(n, std::vector<double>(n, ci));
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      t.win[i][j] = upper[i][j];
      t.win[j][i] = -upper[i][j];
    }
  return t;
}

std::vector<int> order(const std::vector<RankEntry>& r) {
  std::vector<int> out;
  for (const RankEntry& e : r) out.push_back(e.agent);
  return out;
}

TEST(Tournament, RankingsDifferWhenOneAgentFeedsOnAnother) {
  // A beats everyone by a little; B crushes D. Totals (sum): A 30, B 495, C 5, D -530.
  // Run-off: D goes first; among A, B, C: A 20, B -5, C -15, so C goes; then A beats B.
  const CrossTable t = table({{0, 10, 10, 10}, {0, 0, 5, 500}, {0, 0, 0, 20}, {0, 0, 0, 0}}, 1.0);
  const auto bankroll = total_bankroll_ranking(t);
  EXPECT_EQ(order(bankroll), (std::vector<int>{1, 0, 2, 3}));
  EXPECT_DOUBLE_EQ(bankroll[0].score, 495.0 / 3);
  EXPECT_DOUBLE_EQ(bankroll[3].score, -530.0 / 3);
  const auto runoff = instant_runoff_ranking(t);
  EXPECT_EQ(order(runoff), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(runoff[0].score, 10.0);                           // A against B, the last two
  EXPECT_DOUBLE_EQ(runoff[1].score, -10.0);                          // B against A
  EXPECT_DOUBLE_EQ(runoff[2].score, -15.0 / 2);                      // C against A and B
  EXPECT_DOUBLE_EQ(runoff[3].score, -530.0 / 3);                     // D against all
  for (const RankEntry& e : runoff) EXPECT_FALSE(e.tied_with_next);  // intervals of 1 mbb/g
}

TEST(Tournament, StatisticalTiesBetweenNeighbours) {
  // A and B split evenly and beat C by the same amount: tied. C is far behind.
  const CrossTable t = table({{0, 0, 100}, {0, 0, 100}, {0, 0, 0}}, 10.0);
  const auto r = total_bankroll_ranking(t);
  EXPECT_EQ(order(r), (std::vector<int>{0, 1, 2}));  // equal scores keep the listed order
  EXPECT_TRUE(r[0].tied_with_next);
  EXPECT_FALSE(r[1].tied_with_next);
  // Twice the score difference of A and B is 2·w_AB + w_AC − w_BC, with standard error
  // √(4σ² + 2σ²), σ = 10 / 1.96: the bar is 1.96·√6·σ = 24.49. w_AB = 15 gives 30
  // (significant), w_AB = 12 gives 24 (tied).
  EXPECT_FALSE(table({{0, 15, 100}, {0, 0, 100}, {0, 0, 0}}, 10.0).tied(0, 1, {0, 1, 2}));
  EXPECT_TRUE(table({{0, 12, 100}, {0, 0, 100}, {0, 0, 0}}, 10.0).tied(0, 1, {0, 1, 2}));
}

TEST(Tournament, RoundRobinOfBots) {
  const GameDefinition& g = testing::shipped_game("leduc");
  std::vector<AgentSource> agents;
  for (const std::string s : {"bot:equity", "bot:always-raise", "bot:always-fold"})
    agents.push_back(load_agent(s, g));
  MatchConfig c;
  c.hands = 4000;
  c.duplicate = true;
  c.threads = 2;
  const TournamentResult r = play_tournament(g, agents, c);
  ASSERT_EQ(r.matches.size(), 3U);
  EXPECT_EQ(r.table.names, (std::vector<std::string>{"equity", "always-raise", "always-fold"}));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j) {
        EXPECT_DOUBLE_EQ(r.table.win[i][j], -r.table.win[j][i]);
      }
  // Always-fold checks when it may and folds to the first bet, which always-raise makes at
  // once: it loses its ante of 1 chip in every hand, 1000 mbb/g.
  EXPECT_DOUBLE_EQ(r.table.win[1][2], 1000.0);
  EXPECT_EQ(r.total_bankroll.back().agent, 2);
  EXPECT_EQ(r.instant_runoff.back().agent, 2);
}

}  // namespace
}  // namespace hulhe
