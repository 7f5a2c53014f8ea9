// HumanSession: seats alternate, chips are the game engine's, illegal and out-of-turn actions
// change nothing, the opponent draws with the strategy's probabilities (and reports them),
// and the hand history replays through the dealer-log code with no mismatch.
#include "human_play/human_session.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>

#include "abstraction/card_abstraction.h"
#include "agents/agent_factory.h"
#include "agents/policy_agent.h"
#include "game/betting_tree.h"
#include "game/dealer_log.h"
#include "tests/support/shipped_games.h"
#include "tests/support/solved_leduc.h"
#include "tests/support/test_policies.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using testing::shipped_game;

// A Leduc policy with uneven probabilities (50 iterations of CFR+), solved once.
testing::SolvedLeduc& leduc_policy() {
  static testing::SolvedLeduc p(50);
  return p;
}

// The person's action: a legal one drawn from `rng`.
BetAction random_legal(const HumanSession& s, SplitMix64& rng) {
  const std::vector<BetAction> legal = s.legal_actions();
  return legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
}

// Plays hand after hand with random legal actions of the person.
void play_hands(HumanSession& s, int hands, std::uint64_t seed) {
  SplitMix64 rng(seed);
  for (int h = 0; h < hands; ++h) {
    s.start_hand();
    while (s.hand_running()) s.act(random_legal(s, rng));
  }
}

TEST(HumanSession, SeatsAlternateEveryHand) {
  HumanSession s(shipped_game("holdem.limit.2p.reverse_blinds"),
                 make_agent("bot:always-call", shipped_game("holdem.limit.2p.reverse_blinds")), 7);
  for (int h = 0; h < 6; ++h) {
    s.start_hand();
    const TableView v = s.view();
    EXPECT_EQ(v.hand, h + 1);
    EXPECT_EQ(v.person_position, h % 2);
    ASSERT_TRUE(v.person_to_act);
    if (h % 2 == 0) {
      // Big blind (position 0): the small blind called first, the person may check or raise.
      EXPECT_EQ(v.betting, "c");
      EXPECT_EQ(v.pot, 20);
      ASSERT_EQ(v.actions.size(), 1u);
      EXPECT_FALSE(v.actions[0].by_person);
      EXPECT_EQ(v.legal_actions.size(), 2u);  // check, raise
      EXPECT_EQ(v.to_call, 0);
      EXPECT_EQ(v.raise_to, 20);
    } else {
      // Small blind (position 1) acts first preflop: fold, call or raise, pot 5 + 10.
      EXPECT_EQ(v.betting, "");
      EXPECT_EQ(v.pot, 15);
      EXPECT_EQ(v.person_spent, 5);
      EXPECT_EQ(v.opponent_spent, 10);
      EXPECT_EQ(v.legal_actions.size(), 3u);
      EXPECT_EQ(v.to_call, 5);
      EXPECT_EQ(v.raise_to, 20);
    }
    EXPECT_EQ(v.person_hole.size(), 2u);
    EXPECT_TRUE(v.board.empty());
    if (h % 2 == 0) {
      EXPECT_THROW(s.act({Action::kFold, 0}), InputError);  // nothing to fold against
      while (s.hand_running()) s.act({Action::kCall, 0});
      EXPECT_TRUE(s.view().showdown);
    } else {
      s.act({Action::kFold, 0});
      EXPECT_FALSE(s.hand_running());
      EXPECT_EQ(s.view().person_won, -5);                   // the small blind
      EXPECT_THROW(s.act({Action::kFold, 0}), InputError);  // the hand is over
    }
  }
}

TEST(HumanSession, ChipsAreTheGameStatesAndTotalsTheirMean) {
  const GameDefinition& g = shipped_game("leduc");
  HumanSession s(g, make_agent("bot:uniform", g), 11);
  SplitMix64 rng(5);
  std::vector<double> won;
  int showdowns = 0;
  for (int h = 0; h < 300; ++h) {
    s.start_hand();
    while (s.hand_running()) s.act(random_legal(s, rng));
    const TableView v = s.view();
    // The hand rebuilt from its log line by GameState: the same values, pot and betting.
    const LogStateLine line = parse_log_state(s.log_lines().back(), g);
    EXPECT_EQ(line.state.betting_string(), v.betting);
    EXPECT_EQ(line.state.pot(), v.pot);
    EXPECT_EQ(line.state.value(v.person_position), v.person_won);
    EXPECT_EQ(line.values[v.person_position], v.person_won);
    EXPECT_EQ(line.state.spent(v.person_position), v.person_spent);
    EXPECT_EQ(line.state.spent(1 - v.person_position), v.opponent_spent);
    EXPECT_EQ(v.person_spent + v.opponent_spent, v.pot);
    if (v.showdown) {
      ++showdowns;
      ASSERT_EQ(v.opponent_hole.size(), 1u);
      EXPECT_EQ(v.opponent_hole[0], line.state.hole_cards(1 - v.person_position)[0]);
      EXPECT_EQ(v.person_rank > v.opponent_rank, v.person_won > 0);
      EXPECT_EQ(v.person_rank == v.opponent_rank, v.person_won == 0);
    } else {
      EXPECT_TRUE(v.opponent_hole.empty());  // a fold shows nothing
    }
    won.push_back(v.person_won);
  }
  EXPECT_GT(showdowns, 30);
  EXPECT_EQ(s.illegal_opponent_actions(), 0);
  const SessionTotals t = s.totals();
  EXPECT_EQ(t.hands, 300);
  double sum = 0, sum_sq = 0;
  for (double w : won) sum += w, sum_sq += w * w;
  EXPECT_DOUBLE_EQ(t.chips, sum);
  // Leduc's big blind (the larger ante) is 1 chip: 1000 mbb a chip.
  const double mean = sum / 300, sd = std::sqrt((sum_sq - 300 * mean * mean) / 299);
  EXPECT_NEAR(t.mbb_per_game, 1000 * mean, 1e-9);
  EXPECT_NEAR(t.ci95_mbb, 1000 * 1.96 * sd / std::sqrt(300.0), 1e-6);
}

TEST(HumanSession, IllegalAndOutOfTurnActionsChangeNothing) {
  const GameDefinition& g = shipped_game("leduc");
  HumanSession s(g, make_agent("bot:always-raise", g), 3);
  EXPECT_THROW(s.act({Action::kCall, 0}), InputError);  // no hand yet
  EXPECT_THROW(s.odds(), InputError);
  s.start_hand();  // person in position 0: acts first, may check or raise
  EXPECT_THROW(s.start_hand(), InputError);
  auto expect_unchanged = [&](const TableView& before) {
    const TableView after = s.view();
    EXPECT_EQ(after.betting, before.betting);
    EXPECT_EQ(after.pot, before.pot);
    EXPECT_EQ(after.hand, before.hand);
    EXPECT_EQ(after.legal_actions, before.legal_actions);
    EXPECT_EQ(after.actions.size(), before.actions.size());
  };
  TableView v = s.view();
  EXPECT_EQ(v.betting, "");
  EXPECT_THROW(s.act({Action::kFold, 0}), InputError);  // nothing to fold against
  expect_unchanged(v);
  EXPECT_THROW(s.act({Action::kRaise, 7}), InputError);  // limit raises carry no size
  expect_unchanged(v);
  s.act({Action::kRaise, 0});  // r, then always-raise re-raises to the cap of 2: "rr"
  v = s.view();
  EXPECT_EQ(v.betting, "rr");
  EXPECT_EQ(v.legal_actions.size(), 2u);  // fold or call: the cap is reached
  EXPECT_EQ(v.to_call, 2);
  EXPECT_EQ(v.raise_to, 0);
  EXPECT_THROW(s.act({Action::kRaise, 0}), InputError);  // a third raise
  expect_unchanged(v);
  s.act({Action::kFold, 0});
  v = s.view();
  EXPECT_FALSE(v.hand_running);
  EXPECT_EQ(v.person_won, -3);                          // ante 1 and the raise of 2
  EXPECT_THROW(s.act({Action::kCall, 0}), InputError);  // the hand is over
  expect_unchanged(v);
  EXPECT_EQ(s.log_lines().size(), 1u);
}

TEST(HumanSession, OpponentDrawsTheStrategysProbabilitiesAndReportsThem) {
  testing::SolvedLeduc& lp = leduc_policy();
  HumanSession s(lp.game, std::make_unique<PolicyAgent>(lp.policy, "leduc-cfr+"), 2024);
  // Hands where the opponent opens (it is in position 0, Leduc's first to act): its first
  // action, counted by its hole card, against the policy at the root with that card.
  std::map<Card, std::array<int, kNumActionKinds>> counts;
  std::map<Card, int> hands;
  const BettingNode& root = lp.tree.node(lp.tree.root());
  for (int h = 0; h < 8000; ++h) {
    s.start_hand();
    const TableView v = s.view();
    if (v.person_position == 1) {
      ASSERT_FALSE(v.actions.empty());
      ASSERT_FALSE(v.actions[0].by_person);
      ASSERT_TRUE(v.actions[0].probabilities_known);
      const Card opp = [&] {
        while (s.hand_running()) s.act({Action::kCall, 0});
        return parse_log_state(s.log_lines().back(), lp.game).state.hole_cards(0)[0];
      }();
      // The reported probabilities are the policy's at that information set.
      std::array<double, kNumActionKinds> p{};
      lp.policy->action_probabilities(0, root.id_in_round, lp.abstraction.bucket(0, &opp, nullptr),
                                      std::span<double>(p.data(), root.num_actions));
      for (int slot = 0; slot < root.num_actions; ++slot)
        EXPECT_NEAR(v.actions[0].probabilities[static_cast<int>(root.actions[slot])], p[slot],
                    1e-12);
      ++counts[opp][static_cast<int>(v.actions[0].action)];
      ++hands[opp];
    }
    while (s.hand_running()) s.act({Action::kCall, 0});
  }
  ASSERT_EQ(counts.size(), 6u);
  for (const auto& [card, c] : counts) {
    std::array<double, kNumActionKinds> p{};
    lp.policy->action_probabilities(0, root.id_in_round, lp.abstraction.bucket(0, &card, nullptr),
                                    std::span<double>(p.data(), root.num_actions));
    const int n = hands[card];
    EXPECT_GT(n, 400);
    for (int slot = 0; slot < root.num_actions; ++slot) {
      const double q = p[slot];
      const double se = std::sqrt(q * (1 - q) / n);
      EXPECT_NEAR(c[static_cast<int>(root.actions[slot])] / double(n), q, 4 * se + 1e-9)
          << card_to_string(card) << " slot " << slot;
    }
  }
}

TEST(HumanSession, DealsAndDrawsFollowTheSeed) {
  const GameDefinition& g = shipped_game("leduc");
  testing::SolvedLeduc& lp = leduc_policy();
  HumanSession a(g, std::make_unique<PolicyAgent>(lp.policy, "x"), 99);
  HumanSession b(g, std::make_unique<PolicyAgent>(lp.policy, "x"), 99);
  HumanSession c(g, std::make_unique<PolicyAgent>(lp.policy, "x"), 100);
  play_hands(a, 50, 1);
  play_hands(b, 50, 1);
  play_hands(c, 50, 1);
  EXPECT_EQ(a.log_lines(), b.log_lines());
  EXPECT_NE(a.log_lines(), c.log_lines());
}

TEST(HumanSession, HistoryReplaysThroughTheDealerLogWithNoMismatch) {
  for (const char* name : {"leduc", "kuhn", "holdem.limit.2p.reverse_blinds"}) {
    const GameDefinition& g = shipped_game(name);
    HumanSession s(g, make_agent("bot:uniform", g), 5, "ada lovelace");
    play_hands(s, 120, 3);
    std::istringstream log(s.dealer_log());
    const LogReport r = replay_log(log, g);
    EXPECT_EQ(r.hands, 120) << name;
    EXPECT_EQ(r.mismatches, 0) << name;
    EXPECT_EQ(r.bad_lines, 0) << name;
    EXPECT_TRUE(r.has_score) << name;
    EXPECT_TRUE(r.score_matches) << name;
    ASSERT_EQ(r.players.size(), 2u) << name;
    const LogPlayer& person = r.players[0].name == "ada_lovelace" ? r.players[0] : r.players[1];
    EXPECT_EQ(person.name, "ada_lovelace");
    EXPECT_DOUBLE_EQ(person.total, s.totals().chips) << name;
    EXPECT_NEAR(person.mbb_per_game, s.totals().mbb_per_game, 1e-6) << name;
  }
}

// A cheap HULHE abstraction whose buckets depend on the hole cards (3 a round), so that a
// policy over it gives different hands different probabilities.
class HoleCardSumAbstraction final : public CardAbstraction {
 public:
  int num_rounds() const override { return 4; }
  std::int32_t num_buckets(int) const override { return 3; }
  std::int32_t bucket(int, const Card* hole, const Card*) const override {
    return (hole[0] + hole[1]) % 3;
  }
  std::uint64_t hash() const override { return 3; }
  std::string describe() const override { return "hole-card sum mod 3"; }
};

TEST(HumanSession, HoldemAgainstAPolicyReadsItsRange) {
  // A HULHE policy (uneven hashed probabilities) as the opponent: every action reported with
  // the policy's probabilities, the range read from them (so the equity against it differs
  // from the one against a random hand), and the history replays. (Strategy files of HULHE
  // take the same PolicyAgent path; building a real bucket table here would take seconds.)
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const BettingTree tree(game);
  const HoleCardSumAbstraction abstraction;
  auto policy = std::make_shared<testing::HashedTestPolicy>(tree, abstraction);
  HumanSession s(game, std::make_unique<PolicyAgent>(policy, "hashed"), 17, "ada",
                 LiveOddsConfig{2000, 200'000});
  SplitMix64 rng(4);
  int opponent_actions = 0, differing_odds = 0;
  for (int h = 0; h < 20; ++h) {
    s.start_hand();
    while (s.hand_running()) {
      const LiveOdds& odds = s.odds();
      EXPECT_TRUE(odds.range_from_strategy);
      differing_odds += std::abs(odds.vs_range.equity - odds.vs_random.equity) > 0.01;
      s.act(random_legal(s, rng));
    }
    for (const TableAction& a : s.view().actions) {
      if (a.by_person) continue;
      ++opponent_actions;
      ASSERT_TRUE(a.probabilities_known);
      EXPECT_NEAR(a.probabilities[0] + a.probabilities[1] + a.probabilities[2], 1.0, 1e-9);
      EXPECT_GT(a.probabilities[static_cast<int>(a.action)], 0.0);
    }
  }
  EXPECT_GT(opponent_actions, 20);
  EXPECT_GT(differing_odds, 5);
  std::istringstream log(s.dealer_log());
  const LogReport r = replay_log(log, game);
  EXPECT_EQ(r.hands, 20);
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_TRUE(r.score_matches);
}

TEST(HumanSession, RefusesGamesItCannotSeat) {
  for (const char* name : {"holdem.limit.3p", "holdem.nolimit.2p.reverse_blinds"}) {
    const GameDefinition& g = shipped_game(name);
    EXPECT_THROW(HumanSession(g, make_agent("bot:always-call", g), 1), InputError) << name;
  }
}

}  // namespace
}  // namespace hulhe
