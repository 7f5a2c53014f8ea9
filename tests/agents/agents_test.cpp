// Baseline agents and the policy agent: legal actions in every shipped game, the baselines'
// defining choices, and a Policy played through the agent with the policy's probabilities.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "abstraction/lossless_abstraction.h"
#include "agents/agent_factory.h"
#include "agents/baseline_agents.h"
#include "agents/bet_sizing.h"
#include "agents/policy_agent.h"
#include "game/betting_tree.h"
#include "public_tree/strategy_tables.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "tests/support/shipped_games.h"
#include "tests/support/solved_leduc.h"

namespace hulhe {
namespace {

using testing::shipped_game;
using testing::shipped_game_names;

// Plays `hands` random deals with `agent` in every seat; every action must be legal.
void expect_legal_play(const GameDefinition& g, Agent& agent, int hands) {
  SplitMix64 rng(11);
  const std::vector<Card> deck = g.deck();
  for (int h = 0; h < hands; ++h) {
    std::vector<Card> cards = deck;
    for (std::size_t i = 0; i < cards.size(); ++i)
      std::swap(cards[i], cards[i + rng.below(static_cast<std::uint32_t>(cards.size() - i))]);
    GameState s(g, static_cast<std::uint32_t>(h));
    for (int p = 0; p < g.num_players; ++p) s.set_hole_cards(p, &cards[p * g.num_hole_cards]);
    const int first_board = g.num_players * g.num_hole_cards;
    for (int c = 0; c < g.total_board_cards(g.num_rounds - 1); ++c)
      s.set_board_card(c, cards[first_board + c]);
    agent.new_hand();
    while (!s.finished()) {
      const int p = s.current_player();
      const BetAction a = agent.act(s, p, rng);
      ASSERT_TRUE(s.is_legal(a)) << g.name << " " << agent.name() << " at '" << s.betting_string()
                                 << "'";
      s.apply(a);
    }
  }
}

TEST(BaselineAgents, EveryBotPlaysLegallyInEveryShippedGame) {
  for (const std::string& name : shipped_game_names())
    for (const std::string& bot : bot_names()) {
      if (bot == "rules") continue;  // needs a file; tests/agents/bots_test.cpp
      auto agent = make_agent("bot:" + bot, shipped_game(name));
      expect_legal_play(shipped_game(name), *agent, bot == "uniform" ? 300 : 60);
    }
}

TEST(BaselineAgents, DefiningChoices) {
  const GameDefinition& nl = shipped_game("holdem.nolimit.2p.reverse_blinds");
  GameState s(nl);  // position 1 (small blind, 50) faces the big blind of 100
  SplitMix64 rng(1);
  EXPECT_EQ(BaselineAgent(BaselineAgentKind::kAlwaysFold).act(s, 1, rng),
            (BetAction{Action::kFold, 0}));
  EXPECT_EQ(BaselineAgent(BaselineAgentKind::kAlwaysCall).act(s, 1, rng),
            (BetAction{Action::kCall, 0}));
  // The minimum raise: to twice the big blind.
  EXPECT_EQ(BaselineAgent(BaselineAgentKind::kAlwaysRaise).act(s, 1, rng),
            (BetAction{Action::kRaise, 200}));
  s.apply({Action::kCall, 0});  // the big blind may check: always-fold checks
  EXPECT_EQ(BaselineAgent(BaselineAgentKind::kAlwaysFold).act(s, 0, rng),
            (BetAction{Action::kCall, 0}));
  // A pot-size raise after calling: pot 200 → raise by 200 to 300.
  EXPECT_EQ(raise_or_call(s, 1.0), (BetAction{Action::kRaise, 300}));
  EXPECT_EQ(raise_or_call(s, 1000.0), (BetAction{Action::kRaise, 20000}));  // all in
  // Uniform: each of call and raise about half the time (no fold when checking is free).
  BaselineAgent uniform(BaselineAgentKind::kUniform);
  int raises = 0;
  for (int i = 0; i < 4000; ++i) raises += uniform.act(s, 0, rng).type == Action::kRaise;
  EXPECT_NEAR(raises / 4000.0, 0.5, 0.04);
}

TEST(PolicyAgent, FindsEveryDecisionNodeOfTheTree) {
  const GameDefinition& g = shipped_game("leduc");
  auto tree = std::make_shared<BettingTree>(g);
  LosslessAbstraction abstraction(g);
  StrategyTables tables(*tree, abstraction);
  auto policy = std::make_shared<AveragePolicy>(*tree, abstraction, tables);
  PolicyAgent agent(policy, "leduc-uniform");
  int checked = 0;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(tree->nodes().size()); ++i) {
    if (tree->node(i).kind != NodeKind::kDecision) continue;
    GameState s(g);
    s.apply_betting(tree->betting_string(i));
    EXPECT_EQ(agent.find_node(s), i) << tree->betting_string(i);
    ++checked;
  }
  EXPECT_EQ(checked, 36);  // 6 preflop + 30 flop decision nodes
}

TEST(PolicyAgent, PlaysThePolicysProbabilities) {
  // A Leduc strategy with uneven probabilities, then the agent's choices at one
  // information set counted against the policy's probabilities.
  const testing::SolvedLeduc leduc(50);
  const GameDefinition& g = leduc.game;
  const BettingTree& tree = leduc.tree;
  const LosslessAbstraction& abstraction = leduc.abstraction;
  const std::shared_ptr<const Policy>& policy = leduc.policy;
  PolicyAgent agent(policy, "leduc-cfr+");
  GameState s(g);
  s.apply_betting("r");  // position 0 raised; position 1 to act with Kh
  const Card k = parse_card("Kh");
  s.set_hole_cards(1, &k);
  const std::int32_t node = agent.find_node(s);
  const BettingNode& n = tree.node(node);
  std::array<double, kNumActionKinds> p{};
  policy->action_probabilities(0, n.id_in_round, abstraction.bucket(0, &k, nullptr),
                               std::span<double>(p.data(), n.num_actions));
  std::array<int, kNumActionKinds> counts{};
  SplitMix64 rng(2);
  const int draws = 20000;
  for (int i = 0; i < draws; ++i) {
    const BetAction a = agent.act(s, 1, rng);
    for (int slot = 0; slot < n.num_actions; ++slot) counts[slot] += n.actions[slot] == a.type;
  }
  for (int slot = 0; slot < n.num_actions; ++slot) {
    const double se = std::sqrt(p[slot] * (1 - p[slot]) / draws);
    EXPECT_NEAR(counts[slot] / double(draws), p[slot], 4 * se + 1e-9) << slot;
  }
}

}  // namespace
}  // namespace hulhe
