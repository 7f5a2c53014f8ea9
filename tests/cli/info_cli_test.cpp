// End-to-end tests of `hulhe info`: runs the built binary.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace {

using namespace hulhe::cli_test;

std::string game(const std::string& name) {
  return std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name + ".game";
}

TEST(InfoCli, HulheCountsInJson) {
  const nlohmann::json j =
      run_hulhe_json("info --game " + game("holdem.limit.2p.reverse_blinds") + " --json");
  EXPECT_EQ(j["sequences_entering_round"], nlohmann::json({1, 7, 63, 567}));
  EXPECT_EQ(j["decision_nodes_per_round"], nlohmann::json({8, 70, 630, 5670}));
  EXPECT_EQ(j["canonical_hands_per_round"], nlohmann::json({169, 1286792, 13960050, 123156254}));
  EXPECT_EQ(j["information_sets"].get<std::uint64_t>(), 319365922522608ULL);
  EXPECT_EQ(j["num_players"], 2);
  EXPECT_EQ(j["big_blind"], 10);
}

TEST(InfoCli, DefaultIsHulheAndTextNamesTheCounts) {
  const HulheRun r = run_hulhe("info");
  ASSERT_EQ(r.status, 0) << r.out;
  expect_output_has(r, {"holdem.limit.2p.reverse_blinds", "319,365,922,522,608", "123,156,254"});
}

TEST(InfoCli, SmallGamesAndGamesWithoutTree) {
  const auto kuhn = nlohmann::json::parse(run_hulhe("info --json --game " + game("kuhn")).out);
  EXPECT_EQ(kuhn["information_sets"], 12);
  EXPECT_EQ(kuhn["deck"]["cards"], "QsKsAs");
  const auto leduc = nlohmann::json::parse(run_hulhe("info --json --game " + game("leduc")).out);
  EXPECT_EQ(leduc["information_sets"], 936);
  EXPECT_EQ(leduc["canonical_hands_per_round"], nlohmann::json({3, 15}));
  EXPECT_EQ(leduc["sequences_entering_round"], nlohmann::json({1, 5}));
  const HulheRun nl = run_hulhe("info --json --game " + game("holdem.nolimit.3p"));
  ASSERT_EQ(nl.status, 0) << nl.out;
  const auto j = nlohmann::json::parse(nl.out);
  EXPECT_EQ(j["betting"], "nolimit");
  EXPECT_EQ(j["stacks"], nlohmann::json({20000, 20000, 20000}));
  EXPECT_FALSE(j.contains("information_sets"));
}

TEST(InfoCli, BadGameFilesExitTwo) {
  const hulhe::testing::TempFolder dir;
  const std::string bad = dir / "hulhe_info_bad.game";
  {
    std::ofstream f(bad);
    f << "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nraiseSize = x\n";
  }
  const HulheRun r = run_hulhe("info --game " + bad);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("hulhe_info_bad.game:6: 'raiseSize' expects whole numbers"),
            std::string::npos)
      << r.out;
  const HulheRun missing = run_hulhe("info --game /nonexistent/none.game");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("cannot read game definition"), std::string::npos) << missing.out;
  EXPECT_EQ(run_hulhe("info --gmae x").status, 2);
}

}  // namespace
