// End-to-end tests of `hulhe match` and `hulhe tournament`: runs the built binary.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "abstraction/lossless_abstraction.h"
#include "game/game_definition.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "strategy_files/strategy_file.h"
#include "tests/cli/run_hulhe.h"

namespace {

namespace fs = std::filesystem;
using namespace hulhe::cli_test;

const std::string kGames = HULHE_SOURCE_DIR "/configs/games/";
const std::string kBots = HULHE_SOURCE_DIR "/configs/bots/";

class MatchCli : public ::testing::Test {
 protected:
  MatchCli() {
    dir_ = fs::path(::testing::TempDir()) /
           ("hulhe_match_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  ~MatchCli() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }
  // A Leduc strategy file: CFR+, 300 iterations.
  std::string leduc_strategy(const std::string& name) const {
    const hulhe::GameDefinition g = hulhe::GameDefinition::from_file(kGames + "leduc.game");
    hulhe::BettingTree tree(g);
    hulhe::LosslessAbstraction abstraction(g);
    hulhe::StrategyTables tables(tree, abstraction);
    hulhe::CfrParameters params;
    hulhe::make_cfr_algorithm(params, tree, abstraction, tables)->run(1, 300, 1);
    hulhe::write_strategy_file(path(name), hulhe::AveragePolicy(tree, abstraction, tables),
                               {0, "cfr+", 300, "lossless", ""});
    return path(name);
  }
  fs::path dir_;
};

TEST_F(MatchCli, JsonResult) {
  const HulheRun r = run_hulhe(
      "match --a bot:equity --b bot:always-call --hands 2000 --duplicate --seed 3 --threads 2 "
      "--json",
      false);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["hands"], 2000);
  EXPECT_EQ(j["samples"], 1000);
  EXPECT_EQ(j["game"], "holdem.limit.2p.reverse_blinds");
  EXPECT_GT(j["mbb_per_game"].get<double>() - j["ci95_mbb"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(j["mbb_per_game"].get<double>(), 100 * j["chips_per_hand"].get<double>());
  EXPECT_EQ(j["illegal_actions"], 0);
  // Same seed, one thread: the same numbers.
  const auto again = nlohmann::json::parse(
      run_hulhe("match --a bot:equity --b bot:always-call --hands 2000 --duplicate --seed 3 "
                "--threads 1 --json",
                false)
          .out);
  EXPECT_EQ(again["total_chips"], j["total_chips"]);
}

TEST_F(MatchCli, TextSummaryAndProgress) {
  const HulheRun r = run_hulhe(
      "match --a bot:uniform --b bot:uniform --hands 500 --duplicate "
      "--game " +
      kGames + "kuhn.game");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("match: uniform (A) vs uniform (B) · kuhn · 500 hands (250 deals x 2 "
                       "seatings, duplicate)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("A wins +0.0 mbb/g ± 0.0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hands/s, ETA"), std::string::npos) << r.out;
}

TEST_F(MatchCli, LogsReplayWithZeroMismatchesInEveryShippedGame) {
  for (const std::string game :
       {"holdem.limit.2p.reverse_blinds", "holdem.nolimit.2p.reverse_blinds", "holdem.limit.3p",
        "holdem.nolimit.3p", "kuhn", "leduc"}) {
    const std::string log = path(game + ".log");
    const std::string g = "--game " + kGames + game + ".game";
    const HulheRun m = run_hulhe("match --a bot:rules:" + kBots +
                                     "rules-any-game.toml --b bot:function --hands 300 --quiet "
                                     "--log " +
                                     log + " " + g,
                                 false);
    ASSERT_EQ(m.status, 0) << game << m.out;
    const HulheRun r = run_hulhe("logs " + log + " " + g + " --json", false);
    ASSERT_EQ(r.status, 0) << game << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["hands"], 300) << game;
    EXPECT_EQ(j["mismatches"], 0) << game;
    EXPECT_EQ(j["bad_lines"], 0) << game;
    EXPECT_EQ(j["score_line"], "agrees") << game;
  }
}

TEST_F(MatchCli, StrategyFileAgainstBotsAndItself) {
  const std::string s = leduc_strategy("leduc.strategy");
  const std::string g = " --game " + kGames + "leduc.game --json";
  auto self = nlohmann::json::parse(
      run_hulhe("match --a " + s + " --b " + s + " --hands 4000 --duplicate" + g, false).out);
  EXPECT_EQ(self["total_chips"], 0.0);
  auto vs_rules =
      nlohmann::json::parse(run_hulhe("match --a " + s + " --b bot:rules:" + kBots +
                                          "rules-leduc.toml --hands 20000 --duplicate" + g,
                                      false)
                                .out);
  EXPECT_GT(vs_rules["mbb_per_game"].get<double>() - vs_rules["ci95_mbb"].get<double>(), 0.0)
      << vs_rules.dump();
  // A Leduc strategy cannot play hold'em.
  const HulheRun wrong = run_hulhe("match --a " + s + " --b bot:uniform --hands 10");
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.out.find("is a strategy for 'leduc', not for the game played"), std::string::npos)
      << wrong.out;
  // The log may not overwrite an input.
  const HulheRun clobber = run_hulhe("match --a " + s + " --b bot:uniform --hands 10 --game " +
                                     kGames + "leduc.game --log " + s);
  EXPECT_EQ(clobber.status, 2);
  EXPECT_NE(clobber.out.find("is the input"), std::string::npos) << clobber.out;
}

TEST_F(MatchCli, BadInputExitsTwoNamingIt) {
  const std::string bad_rules =
      write("bad.toml",
            "[[rule]]\naction = \"call\"\n[[rule]]\nequity = \"high\"\naction = "
            "\"raise\"\n");
  const struct {
    std::string args, message;
  } cases[] = {
      {"--a bot:nobody --b bot:uniform", "unknown agent 'bot:nobody'"},
      {"--a missing.strategy --b bot:uniform", "unknown agent 'missing.strategy'"},
      {"--a bot:rules:" + bad_rules + " --b bot:uniform", "rule 2: 'equity' must be"},
      {"--a bot:rules --b bot:uniform", "needs its rules"},
      {"--a bot:rules:" + kBots + "rules-holdem.toml --b bot:uniform --game " + kGames +
           "leduc.game",
       "rule 1 ('premium preflop')"},
      {"--a bot:equity:" + path("none.toml") + " --b bot:uniform", "cannot read parameters"},
      {"--a bot:always-call:x.toml --b bot:uniform", "takes no parameters"},
  };
  for (const auto& c : cases) {
    const HulheRun r = run_hulhe("match " + c.args + " --hands 10");
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
  }
}

TEST_F(MatchCli, TournamentRankings) {
  const HulheRun r = run_hulhe(
      "tournament --agents bot:equity bot:always-raise bot:always-fold bot:uniform --hands 2000 "
      "--duplicate --game " +
      kGames + "leduc.game");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Total Bankroll"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Bankroll Instant Run-off"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("match 6/6"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(
      run_hulhe("tournament --agents bot:equity bot:always-raise bot:always-fold --hands 2000 "
                "--duplicate --json --game " +
                    kGames + "leduc.game",
                false)
          .out);
  ASSERT_EQ(j["total_bankroll"].size(), 3U);
  ASSERT_EQ(j["instant_runoff"].size(), 3U);
  EXPECT_DOUBLE_EQ(j["cross_table"]["mbb_per_game"][1][2].get<double>(), 1000.0);
  EXPECT_EQ(j["matches"].size(), 3U);
  const HulheRun one = run_hulhe("tournament --agents bot:equity --hands 10");
  EXPECT_EQ(one.status, 2) << one.out;
}

}  // namespace
