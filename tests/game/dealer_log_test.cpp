#include "game/dealer_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "util/input_error.h"

namespace hulhe {
namespace {

GameDefinition load(const std::string& name) {
  return GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name +
                                   ".game");
}

const char* const kRealLog = HULHE_TEST_DATA_DIR "/acpc-holdem.limit.2p.1000hands.log";

TEST(DealerLog, ReplaysTheRealThousandHandLog) {
  const GameDefinition g = load("holdem.limit.2p.reverse_blinds");
  std::ifstream in(kRealLog);
  ASSERT_TRUE(in) << kRealLog;
  const LogReport r = replay_log(in, g);
  EXPECT_EQ(r.hands, 1000);
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_EQ(r.bad_lines, 0);
  EXPECT_TRUE(r.has_score);
  EXPECT_TRUE(r.score_matches);
  EXPECT_TRUE(r.problems.empty());
  ASSERT_EQ(r.players.size(), 2U);
  EXPECT_EQ(r.players[0].name, "Alice");
  EXPECT_EQ(r.players[0].total, 1710);
  EXPECT_EQ(r.players[1].name, "Bob");
  EXPECT_EQ(r.players[1].total, -1710);
  EXPECT_EQ(r.players[0].hands, 1000);
  EXPECT_NEAR(r.players[0].mbb_per_game, 171.0, 1e-9);  // 1710 chips / 1000 hands / 10 chips

  // The 95% interval, recomputed here from the raw values (two-pass variance).
  std::ifstream again(kRealLog);
  std::string line;
  std::vector<double> alice;
  while (std::getline(again, line)) {
    if (!line.starts_with("STATE:")) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string part; std::getline(ss, part, ':');) f.push_back(part);
    const auto bar_v = f[4].find('|'), bar_n = f[5].find('|');
    const bool alice_first = f[5].substr(0, bar_n) == "Alice";
    alice.push_back(std::stod(alice_first ? f[4].substr(0, bar_v) : f[4].substr(bar_v + 1)));
  }
  ASSERT_EQ(alice.size(), 1000U);
  double mean = 0, var = 0;
  for (double v : alice) mean += v / 1000;
  for (double v : alice) var += (v - mean) * (v - mean) / 999;
  EXPECT_NEAR(r.players[0].ci95_mbb, 1.96 * std::sqrt(var / 1000) * 100, 1e-6);
  EXPECT_NEAR(r.players[1].ci95_mbb, r.players[0].ci95_mbb, 1e-6);
}

TEST(DealerLog, EveryRealLineRoundTrips) {
  const GameDefinition g = load("holdem.limit.2p.reverse_blinds");
  std::ifstream in(kRealLog);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (!line.starts_with("STATE:")) continue;
    EXPECT_EQ(log_state_string(parse_log_state(line, g)), line);
    ++n;
  }
  EXPECT_EQ(n, 1000);
}

TEST(DealerLog, NoLimitAndThreePlayerLines) {
  const GameDefinition nl = load("holdem.nolimit.2p.reverse_blinds");
  std::istringstream nl_log(
      "# a no-limit match\n"
      "STATE:0:r300c/cr900f:AhKh|2c2d/Js9s3c:-300|300:Alice|Bob\n"
      "STATE:1:r20000c///:AhKh|2c2d/Js9s3c/4d/5h:-20000|20000:Alice|Bob\n"
      "STATE:2:cc/cc/cc/r250c:AhKh|AcKc/Js9s3c/4d/5h:0|0:Alice|Bob\n"
      "SCORE:-20300|20300:Alice|Bob\n");
  const LogReport a = replay_log(nl_log, nl);
  EXPECT_EQ(a.hands, 3);
  EXPECT_EQ(a.mismatches, 0) << (a.problems.empty() ? "" : a.problems[0].message);
  EXPECT_TRUE(a.score_matches);
  EXPECT_EQ(a.players[0].name, "Alice");
  EXPECT_EQ(a.players[0].total, -300 - 20000);
  EXPECT_NEAR(a.players[0].mbb_per_game, (-300 - 20000) / 3.0 / 100 * 1000, 1e-9);

  const GameDefinition l3 = load("holdem.limit.3p");
  // Hand 0: the button raises, the blinds fold. Hand 1: all three put in 20 preflop, the
  // button folds on the flop, and the two blinds tie with the board's straight and split
  // the button's 20: 10 each.
  std::istringstream l3_log(
      "STATE:0:rff:AhKh|2c2d|3s3h:-5|-10|15:A|B|C\n"
      "STATE:1:rcc/rcf/cc/cc:2c3d|2h3s|4c5d/TsJsQs/Kd/Ah:10|10|-20:A|B|C\n");
  const LogReport b = replay_log(l3_log, l3);
  EXPECT_EQ(b.hands, 2);
  EXPECT_EQ(b.mismatches, 0) << (b.problems.empty() ? "" : b.problems[0].message);
  ASSERT_EQ(b.players.size(), 3U);
  EXPECT_EQ(b.players[2].total, 15 - 20);
}

TEST(DealerLog, ReportsMismatchesAndBadLinesWithoutStopping) {
  const GameDefinition g = load("holdem.limit.2p.reverse_blinds");
  std::istringstream log(
      "STATE:0:f:5s4c|Kc7d:5|-5:Alice|Bob\n"                            // 1 good
      "STATE:1:f:5s4c|Kc7d:-5|5:Alice|Bob\n"                            // 2 wrong values
      "STATE:2:x:5s4c|Kc7d:5|-5:Alice|Bob\n"                            // 3 bad action
      "STATE:3:rrrrc///:5s4c|Kc7d/2c3c4c/5c/6c:0|0:Alice|Bob\n"         // 4 over the cap
      "STATE:4:f:5s4c|5s7d:5|-5:Alice|Bob\n"                            // 5 a card twice
      "STATE:5:cc/cc/cc/cc:5s4c|Kc7d/2c3c4c/5c:0|0:Alice|Bob\n"         // 6 river missing
      "STATE:6:f:5s4c|Kc7d:5|-5:Alice\n"                                // 7 one name
      "STATE:7:f:5s4c|Kc7d:5|five:Alice|Bob\n"                          // 8 bad value
      "STATE:8:rc/:5s4c|Kc7d/2c3c4c:0|0:Alice|Bob\n"                    // 9 hand not over
      "STATE:9:f:5s4c|:5|-5:Alice|Bob\n"                                // 10 hole cards missing
      "STATE:x:f:5s4c|Kc7d:5|-5:Alice|Bob\n"                            // 11 bad hand number
      "garbage\n"                                                       // 12
      "STATE:12:cc/cc/cc/cc:AsAh|Kc7d/2c3c4d/5c/9h:10|-10:Bob|Alice\n"  // 13 good
      "SCORE:10|-10:Alice|Bob\n");                                      // 14 disagrees
  const LogReport r = replay_log(log, g);
  EXPECT_EQ(r.hands, 3);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.bad_lines, 10);
  EXPECT_FALSE(r.score_matches);
  std::vector<int> lines;
  for (const LogProblem& p : r.problems) lines.push_back(p.line);
  EXPECT_EQ(lines, (std::vector<int>{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 14}));  // both totals
  EXPECT_EQ(r.players[0].total, 5 - 5 - 10);  // the log's values are what the players got
  EXPECT_EQ(r.players[1].total, -5 + 5 + 10);
}

TEST(DealerLog, ParseErrorsAreInputErrors) {
  const GameDefinition g = load("holdem.limit.2p.reverse_blinds");
  EXPECT_THROW(parse_log_state("STATE:0:f:5s4c|Kc7d:5|-5", g), InputError);
  EXPECT_THROW(parse_log_state("MATCHSTATE:0:0:f:5s4c|Kc7d:5|-5:A|B", g), InputError);
  EXPECT_THROW(parse_log_state("STATE:0:f:5s4c|Kc7d:5|-5:A|", g), InputError);
}

}  // namespace
}  // namespace hulhe
