// The equity-threshold, 4-D function and rule-list bots: decisions in hand-built spots,
// the call-probability formula, rule files and every way a rule file can be wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "agents/equity_threshold_bot.h"
#include "agents/function_bot.h"
#include "agents/rule_list_bot.h"
#include "tests/support/shipped_games.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using testing::shipped_game;

// A HULHE state after `betting`, with position 0 holding `hole0`, position 1 `hole1` and
// the board `board` (as many cards as the betting reaches).
GameState holdem_state(const std::string& betting, const std::string& hole0,
                       const std::string& hole1, const std::string& board) {
  GameState s(shipped_game("holdem.limit.2p.reverse_blinds"));
  s.apply_betting(betting);
  s.set_hole_cards(0, parse_cards(hole0).data());
  s.set_hole_cards(1, parse_cards(hole1).data());
  const auto b = board.empty() ? std::vector<Card>{} : parse_cards(board);
  for (std::size_t i = 0; i < b.size(); ++i) s.set_board_card(static_cast<int>(i), b[i]);
  return s;
}

TEST(EquityThresholdBot, RaisesTheNutsFoldsAirToABetChecksBehind) {
  const GameDefinition& g = shipped_game("holdem.limit.2p.reverse_blinds");
  EquityThresholdBot bot(g, EquityThresholdParams{});
  SplitMix64 rng(1);
  // River, position 0 first to act with the nut flush: bet.
  GameState nuts = holdem_state("rc/cc/cc/", "AhKh", "2c2d", "Qh7h2h3s9c");
  EXPECT_EQ(bot.act(nuts, 0, rng).type, Action::kRaise);
  // River, 7-high facing a bet (pot odds 20 / 80 = 0.25, equity vs random well below): fold.
  GameState air = holdem_state("rc/cc/cc/r", "2c2d", "7c5d", "Qh9h3sKdJc");
  bot.new_hand();
  EXPECT_EQ(bot.act(air, 1, rng).type, Action::kFold);
  // A weak hand with nothing to call checks.
  GameState middling = holdem_state("rc/cc/cc/", "Jd8d", "2c2d", "Qh9h3s4d5c");
  bot.new_hand();
  EXPECT_EQ(bot.act(middling, 0, rng), (BetAction{Action::kCall, 0}));
}

TEST(FunctionBot, CallProbabilityFollowsTheFormula) {
  FunctionBotParams p;  // risk 0, commitment 0.5, softness 0.05
  // Win probability exactly at the (commitment-adjusted) threshold: one half.
  // c = 10, pot = 30, s = 0: t = 10 / 40 = 0.25.
  EXPECT_NEAR(function_bot_call_probability(p, 0.25, 10, 0, 30), 0.5, 1e-12);
  // One softness above: logistic(1).
  EXPECT_NEAR(function_bot_call_probability(p, 0.30, 10, 0, 30), 1 / (1 + std::exp(-1.0)), 1e-12);
  // Chips already in lower the bar: s = 20 → t = 0.25 - 0.5 · 20 / 40 = 0.
  EXPECT_NEAR(function_bot_call_probability(p, 0.0, 10, 20, 30), 0.5, 1e-12);
  // A prudent bot (risk 1) wants twice the pot odds: t = 0.5.
  p.risk = 1.0;
  EXPECT_NEAR(function_bot_call_probability(p, 0.5, 10, 0, 30), 0.5, 1e-12);
  EXPECT_LT(function_bot_call_probability(p, 0.3, 10, 0, 30), 0.02);
  // Nothing to call: always "call" (check).
  EXPECT_EQ(function_bot_call_probability(p, 0.0, 0, 0, 30), 1.0);
}

TEST(FunctionBot, BluffsAtItsRate) {
  const GameDefinition& g = shipped_game("holdem.limit.2p.reverse_blinds");
  FunctionBotParams p;
  p.bluff_rate = 0.3;
  FunctionBot bot(g, p);
  SplitMix64 rng(4);
  GameState air = holdem_state("rc/cc/cc/", "7c2d", "AsAd", "KhQh9s4d5c");
  int raises = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    bot.new_hand();
    raises += bot.act(air, 0, rng).type == Action::kRaise;
  }
  EXPECT_NEAR(raises / double(n), 0.3, 0.03);  // equity ~0.03: raises are bluffs
}

constexpr const char* kRules = R"(
samples = 200
default = "fold"

[[rule]]
name = "premium"
round = "preflop"
hand = "QQ+,AKs"
action = "raise"

[[rule]]
round = ["flop", "turn", "river"]
made = "two pair"
action = { raise = 1.0 }

[[rule]]
to_call = [0, 0]
action = "check"

[[rule]]
equity = [0.5, 1.0]
to_call = [1, 1]
action = "call"
)";

TEST(RuleListBot, FirstMatchingRuleDecides) {
  const GameDefinition& g = shipped_game("holdem.limit.2p.reverse_blinds");
  RuleListBot bot(g, std::make_shared<RuleList>(RuleList::from_string(kRules, "r.toml", g)));
  SplitMix64 rng(1);
  // Preflop, position 1 facing the big blind with AKs: rule 1.
  GameState s = holdem_state("", "2c2d", "AsKs", "");
  EXPECT_EQ(bot.matching_rule(s, 1, rng), 0);
  EXPECT_EQ(bot.act(s, 1, rng).type, Action::kRaise);
  // AKo is not in the range; facing 0.5 bets it matches nothing: default fold.
  s = holdem_state("", "2c2d", "AsKd", "");
  EXPECT_EQ(bot.matching_rule(s, 1, rng), -1);
  EXPECT_EQ(bot.act(s, 1, rng).type, Action::kFold);
  // Flop two pair: rule 2, even before rule 3 (checking) could match.
  s = holdem_state("rc/", "Ah7d", "2c2d", "As7h3c");
  EXPECT_EQ(bot.matching_rule(s, 0, rng), 1);
  // Flop, nothing made, nothing to call: rule 3.
  s = holdem_state("rc/", "Jd9d", "2c2d", "As7h3c");
  EXPECT_EQ(bot.matching_rule(s, 0, rng), 2);
  // Facing one bet with a strong one pair: rule 4 (equity condition).
  s = holdem_state("rc/r", "2c2d", "AdKc", "As7h3c");
  EXPECT_EQ(bot.matching_rule(s, 1, rng), 3);
}

TEST(RuleListBot, SmallDecksUseRanksAndRoundNumbers) {
  const GameDefinition& g = shipped_game("leduc");
  const RuleList rules = RuleList::from_string(R"(
[[rule]]
round = 1
made = "pair"
action = "raise"
[[rule]]
hand = "A,Ks"
action = { call = 0.5, raise = 0.5 }
)",
                                               "leduc.toml", g);
  ASSERT_EQ(rules.rules.size(), 2U);
  EXPECT_TRUE(rules.rules[1].hands[parse_card("Ah")]);
  EXPECT_TRUE(rules.rules[1].hands[parse_card("Ks")]);
  EXPECT_FALSE(rules.rules[1].hands[parse_card("Kh")]);
  EXPECT_DOUBLE_EQ(rules.rules[1].action[2], 0.5);
}

void expect_rule_error(const std::string& text, const std::string& game,
                       const std::vector<std::string>& fragments) {
  try {
    RuleList::from_string(text, "bad.toml", shipped_game(game));
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.toml"), std::string::npos) << what;
    for (const auto& f : fragments) EXPECT_NE(what.find(f), std::string::npos) << what;
  }
}

TEST(RuleListBot, ErrorsNameTheFileAndTheRule) {
  const std::string hulhe = "holdem.limit.2p.reverse_blinds";
  expect_rule_error("[[rule]]\naction = \"call\"\n[[rule]]\nrnd = \"flop\"\naction = \"call\"\n",
                    hulhe, {"rule 2", "unknown condition 'rnd'"});
  expect_rule_error("[[rule]]\nname = \"x\"\nhand = \"AKz\"\naction = \"call\"\n", hulhe,
                    {"rule 1 ('x')", "AKz"});
  expect_rule_error("[[rule]]\nround = \"flop\"\n", hulhe, {"rule 1", "no 'action'"});
  expect_rule_error("[[rule]]\naction = \"shove\"\n", hulhe, {"rule 1", "shove"});
  expect_rule_error("[[rule]]\nequity = [0.9, 0.1]\naction = \"call\"\n", hulhe,
                    {"rule 1", "'equity'"});
  expect_rule_error("[[rule]]\nmade = \"trips\"\naction = \"call\"\n", hulhe,
                    {"rule 1", "not a hand category"});
  expect_rule_error("x = = 1\n", hulhe, {"not valid TOML"});
  expect_rule_error("samples = 10\n", hulhe, {"no rules"});
  expect_rule_error("colour = 1\n[[rule]]\naction = \"call\"\n", hulhe, {"unknown key 'colour'"});
  // Rules that cannot apply to the game: errors naming the game.
  expect_rule_error("[[rule]]\nround = \"turn\"\naction = \"call\"\n", "leduc",
                    {"rule 1", "does not exist in leduc"});
  expect_rule_error("[[rule]]\nhand = \"AKs\"\naction = \"call\"\n", "kuhn",
                    {"rule 1", "AKs", "kuhn"});
  expect_rule_error("[[rule]]\nposition = 2\naction = \"call\"\n", "leduc", {"rule 1", "position"});
}

TEST(RuleListBot, MadeCategory) {
  const GameDefinition& h = shipped_game("holdem.limit.2p.reverse_blinds");
  EXPECT_EQ(made_category(h, CardSet::of(parse_cards("AhAd"))), HandCategory::kPair);
  EXPECT_EQ(made_category(h, CardSet::of(parse_cards("AhKd"))), HandCategory::kHighCard);
  EXPECT_EQ(made_category(h, CardSet::of(parse_cards("AhKdAsKc7h"))), HandCategory::kTwoPair);
  EXPECT_EQ(made_category(h, CardSet::of(parse_cards("2h3h4h5h6h9c"))),
            HandCategory::kStraightFlush);
  const GameDefinition& leduc = shipped_game("leduc");
  EXPECT_EQ(made_category(leduc, CardSet::of(parse_cards("KhKs"))), HandCategory::kPair);
  EXPECT_EQ(made_category(leduc, CardSet::of(parse_cards("QhKs"))), HandCategory::kHighCard);
}

TEST(BotConfig, ParametersAreChecked) {
  BotConfig ok = BotConfig::from_string("risk = 0.5\nsamples = 100\n", "f.toml", "function");
  const FunctionBotParams p = FunctionBotParams::from_config(ok);
  EXPECT_EQ(p.risk, 0.5);
  EXPECT_EQ(p.samples, 100);
  BotConfig bad = BotConfig::from_string("bluff_rate = 2\n", "f.toml", "function");
  EXPECT_THROW(FunctionBotParams::from_config(bad), InputError);
  BotConfig unknown = BotConfig::from_string("rsik = 1\n", "e.toml", "equity");
  try {
    EquityThresholdParams::from_config(unknown);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown key 'rsik'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hulhe
