// Live odds against brute force: equity against a random hand and a weighted range (Leduc
// and the hold'em river, where enumeration is small), Monte Carlo within its error, the
// chance of each category by the river (counted outs), and the range read from a strategy.
#include "human_play/live_odds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "abstraction/lossless_abstraction.h"
#include "agents/agent_factory.h"
#include "agents/policy_agent.h"
#include "game/betting_tree.h"
#include "tests/support/shipped_games.h"
#include "tests/support/solved_leduc.h"

namespace hulhe {
namespace {

using testing::shipped_game;

// Share of the pot `mine` wins against `theirs` (both with the full board).
double showdown_share(std::int32_t mine, std::int32_t theirs) {
  return mine > theirs ? 1.0 : mine == theirs ? 0.5 : 0.0;
}

TEST(LiveOdds, LeducEquityAgainstRandomIsBruteForce) {
  const GameDefinition& g = shipped_game("leduc");
  const OpponentRange range(g);
  ASSERT_EQ(range.hands().size(), 6u);
  for (Card mine : g.deck()) {
    // Every opponent card and board card, ranked as the ACPC dealer ranks.
    double sum = 0;
    int deals = 0;
    for (Card opp : g.deck())
      for (Card board : g.deck()) {
        if (opp == mine || board == mine || board == opp) continue;
        sum += showdown_share(rank_cards_acpc(CardSet::of(std::array{mine, board})),
                              rank_cards_acpc(CardSet::of(std::array{opp, board})));
        ++deals;
      }
    const EquityEstimate exact =
        range_equity(g, &mine, nullptr, 0, range.hands(), range.weights(), {}, 1);
    EXPECT_TRUE(exact.exact);
    EXPECT_EQ(exact.deals, 20);
    EXPECT_NEAR(exact.equity, sum / deals, 1e-12) << card_to_string(mine);
    // Monte Carlo (enumeration forbidden) within four standard errors.
    const EquityEstimate mc =
        range_equity(g, &mine, nullptr, 0, range.hands(), range.weights(), {20000, 0}, 7);
    EXPECT_FALSE(mc.exact);
    EXPECT_EQ(mc.deals, 20000);
    EXPECT_GT(mc.std_error, 0.0);
    EXPECT_NEAR(mc.equity, exact.equity, 4 * mc.std_error) << card_to_string(mine);
  }
}

TEST(LiveOdds, HoldemRiverEquityAgainstWeightedRangeIsBruteForce) {
  const GameDefinition& g = shipped_game("holdem.limit.2p.reverse_blinds");
  const std::vector<Card> hole = parse_cards("AsKd");
  const std::vector<Card> board = parse_cards("2c7hJdQs3h");
  const OpponentRange range(g);
  ASSERT_EQ(range.hands().size(), 1326u);
  // Uneven weights, some zero.
  std::vector<double> weights(range.hands().size());
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = (i * 37 % 11) / 10.0;
  CardSet known = CardSet::of(hole) | CardSet::of(board);
  double sum_random = 0, n_random = 0, sum_weighted = 0, w_total = 0;
  for (std::size_t i = 0; i < range.hands().size(); ++i) {
    const OpponentRange::Hand& h = range.hands()[i];
    if (h.set.intersects(known)) continue;
    const double share = showdown_share(evaluate(known), evaluate(h.set | CardSet::of(board)));
    sum_random += share;
    n_random += 1;
    sum_weighted += weights[i] * share;
    w_total += weights[i];
  }
  EXPECT_EQ(n_random, 990);
  const EquityEstimate random =
      range_equity(g, hole.data(), board.data(), 5, range.hands(), range.weights(), {}, 1);
  EXPECT_TRUE(random.exact);
  EXPECT_NEAR(random.equity, sum_random / n_random, 1e-12);
  const EquityEstimate weighted =
      range_equity(g, hole.data(), board.data(), 5, range.hands(), weights, {}, 1);
  EXPECT_NEAR(weighted.equity, sum_weighted / w_total, 1e-12);
  EXPECT_NE(weighted.equity, random.equity);
  const EquityEstimate mc =
      range_equity(g, hole.data(), board.data(), 5, range.hands(), weights, {40000, 0}, 3);
  EXPECT_NEAR(mc.equity, weighted.equity, 4 * mc.std_error);
}

TEST(LiveOdds, CategoryChancesAreCountedOuts) {
  const GameDefinition& holdem = shipped_game("holdem.limit.2p.reverse_blinds");
  // AhKh on QhJh2c: the Th makes a royal flush (46 of the 1,081 turn-river pairs), any of the
  // other 8 hearts a flush (1,081 − 46 − C(38,2) = 332 pairs).
  const std::vector<Card> hole = parse_cards("AhKh");
  const std::vector<Card> flop = parse_cards("QhJh2c");
  const CategoryChances c = category_chances(holdem, hole.data(), flop.data(), 3, {}, 1);
  EXPECT_TRUE(c.exact);
  EXPECT_EQ(c.deals, 1081);
  EXPECT_NEAR(c.chance[static_cast<int>(HandCategory::kStraightFlush)], 46.0 / 1081, 1e-12);
  EXPECT_NEAR(c.chance[static_cast<int>(HandCategory::kFlush)], 332.0 / 1081, 1e-12);
  double total = 0;
  for (double x : c.chance) total += x;
  EXPECT_NEAR(total, 1.0, 1e-12);
  // On the turn one river card of 46 is left: the Th (straight flush) or 8 other hearts;
  // Monte Carlo (enumeration forbidden) stays within four standard errors of it.
  const std::vector<Card> turn = parse_cards("QhJh2c5d");
  const CategoryChances t_exact = category_chances(holdem, hole.data(), turn.data(), 4, {}, 1);
  const CategoryChances t_mc = category_chances(holdem, hole.data(), turn.data(), 4, {20000, 0}, 9);
  EXPECT_EQ(t_exact.deals, 46);
  EXPECT_NEAR(t_exact.chance[static_cast<int>(HandCategory::kFlush)], 8.0 / 46, 1e-12);
  EXPECT_FALSE(t_mc.exact);
  for (int k = 0; k < kNumHandCategories; ++k) {
    const double p = t_exact.chance[k];
    EXPECT_NEAR(t_mc.chance[k], p, 4 * std::sqrt(p * (1 - p) / 20000) + 1e-9) << k;
  }
  // Leduc: the Kh pairs the board card with one card of the five left.
  const GameDefinition& leduc = shipped_game("leduc");
  const Card kh = parse_card("Kh");
  const CategoryChances l = category_chances(leduc, &kh, nullptr, 0, {}, 1);
  EXPECT_NEAR(l.chance[static_cast<int>(HandCategory::kPair)], 0.2, 1e-12);
  EXPECT_NEAR(l.chance[static_cast<int>(HandCategory::kHighCard)], 0.8, 1e-12);
}

TEST(LiveOdds, RangeIsTheStrategysProbabilityOfTheActionsTaken) {
  const testing::SolvedLeduc leduc(30);
  const GameDefinition& g = leduc.game;
  const BettingTree& tree = leduc.tree;
  const LosslessAbstraction& abstraction = leduc.abstraction;
  PolicyAgent agent(leduc.policy, "leduc");
  OpponentRange range(g);
  // The opponent (position 0) raised at the root; then, after the person's re-raise, called.
  GameState s(g);
  const Card mine = parse_card("Qh");
  range.observe(agent, s, 0, Action::kRaise, CardSet::of(std::array{mine}));
  GameState s2 = s;
  s2.apply_betting("rr");
  range.observe(agent, s2, 0, Action::kCall, CardSet::of(std::array{mine}));
  const BettingNode& root = tree.node(tree.root());
  const BettingNode& after = tree.node(agent.find_node(s2));
  for (std::size_t i = 0; i < range.hands().size(); ++i) {
    const Card c = range.hands()[i].cards[0];
    if (c == mine) {
      EXPECT_EQ(range.weights()[i], 1.0);  // dead: left alone
      continue;
    }
    double p[kNumActionKinds], q[kNumActionKinds];
    leduc.policy->action_probabilities(0, root.id_in_round, abstraction.bucket(0, &c, nullptr),
                                       std::span<double>(p, root.num_actions));
    leduc.policy->action_probabilities(0, after.id_in_round, abstraction.bucket(0, &c, nullptr),
                                       std::span<double>(q, after.num_actions));
    int raise = 0, call = 0;
    while (root.actions[raise] != Action::kRaise) ++raise;
    while (after.actions[call] != Action::kCall) ++call;
    EXPECT_NEAR(range.weights()[i], p[raise] * q[call], 1e-12) << card_to_string(c);
  }
  EXPECT_TRUE(range.from_strategy());
  // The odds against it: the weighted brute force.
  double sum = 0, w = 0;
  for (std::size_t i = 0; i < range.hands().size(); ++i) {
    const Card c = range.hands()[i].cards[0];
    if (c == mine) continue;
    for (Card board : g.deck()) {
      if (board == mine || board == c) continue;
      sum +=
          range.weights()[i] * showdown_share(rank_cards_acpc(CardSet::of(std::array{mine, board})),
                                              rank_cards_acpc(CardSet::of(std::array{c, board})));
      w += range.weights()[i];
    }
  }
  const LiveOdds odds = live_odds(g, &mine, nullptr, 0, range, {}, 5);
  EXPECT_TRUE(odds.range_from_strategy);
  EXPECT_NEAR(odds.vs_range.equity, sum / w, 1e-12);
  // A bot that gives no probabilities leaves the range uniform.
  auto equity_bot = make_agent("bot:equity", g);
  range.observe(*equity_bot, s, 0, Action::kRaise, CardSet::of(std::array{mine}));
  EXPECT_FALSE(range.from_strategy());
  const LiveOdds uniform = live_odds(g, &mine, nullptr, 0, range, {}, 5);
  EXPECT_FALSE(uniform.range_from_strategy);
  EXPECT_EQ(uniform.vs_range.equity, uniform.vs_random.equity);
}

}  // namespace
}  // namespace hulhe
