// End-to-end tests of `hulhe logs`: runs the built binary.
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

const std::string kLog = HULHE_TEST_DATA_DIR "/acpc-holdem.limit.2p.1000hands.log";

// In this process's own folder, removed at exit.
std::string write_temp(const std::string& name, const std::string& text) {
  static const hulhe::testing::TempFolder dir;
  const std::string path = dir / name;
  std::ofstream(path) << text;
  return path;
}

TEST(LogsCli, RealLogInJson) {
  const nlohmann::json j = run_hulhe_json("logs " + kLog + " --json");
  EXPECT_EQ(j["hands"], 1000);
  EXPECT_EQ(j["mismatches"], 0);
  ASSERT_EQ(j["players"].size(), 2U);
  EXPECT_EQ(j["players"][0]["name"], "Alice");
  EXPECT_EQ(j["players"][0]["total"], 1710);
  EXPECT_EQ(j["players"][1]["total"], -1710);
  EXPECT_DOUBLE_EQ(j["players"][0]["mbb_per_game"].get<double>(), 171.0);
  EXPECT_GT(j["players"][0]["ci95_mbb"].get<double>(), 0);
}

TEST(LogsCli, TextSummary) {
  const HulheRun r = run_hulhe("logs " + kLog, true);
  ASSERT_EQ(r.status, 0) << r.out;
  expect_output_has(r, {"1000 hands", "0 mismatches", "Alice"});
}

TEST(LogsCli, NoLimitThreePlayerAndBadLines) {
  const std::string nl = write_temp("hulhe_nl.log",
                                    "STATE:0:r300c/cr900f:AhKh|2c2d/Js9s3c:-300|300:Alice|Bob\n"
                                    "STATE:1:r300c/cr900f:AhKh|2c2d/Js9s3c:-300|300:Bob|Alice\n"
                                    "STATE:2:r99c:AhKh|2c2d:0|0:Alice|Bob\n");
  const HulheRun a = run_hulhe("logs " + nl + " --json --game " + HULHE_SOURCE_DIR +
                                   "/configs/games/holdem.nolimit.2p.reverse_blinds.game",
                               false);
  ASSERT_EQ(a.status, 1) << a.out;  // a bad line: reported, exit status 1
  const auto ja = nlohmann::json::parse(a.out);
  EXPECT_EQ(ja["hands"], 2);
  EXPECT_EQ(ja["bad_lines"], 1);  // r99 is below the minimum raise
  EXPECT_EQ(ja["problems"][0]["line"], 3);
  EXPECT_EQ(ja["players"][0]["total"], 0);  // Alice lost 300 then won 300
  const std::string l3 = write_temp("hulhe_l3.log",
                                    "STATE:0:rff:AhKh|2c2d|3s3h:-5|-10|15:A|B|C\n"
                                    "STATE:1:rff:AhKh|2c2d|3s3h:-5|-10|20:B|C|A\n");
  const HulheRun b = run_hulhe(
      "logs " + l3 + " --json --game " + HULHE_SOURCE_DIR + "/configs/games/holdem.limit.3p.game",
      false);
  ASSERT_EQ(b.status, 1) << b.out;  // a mismatch
  const auto jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(jb["hands"], 2);
  EXPECT_EQ(jb["mismatches"], 1);
  EXPECT_EQ(jb["problems"][0]["line"], 2);
  // Text mode names the line on stderr.
  const HulheRun t = run_hulhe(
      "logs " + l3 + " --game " + HULHE_SOURCE_DIR + "/configs/games/holdem.limit.3p.game", true);
  EXPECT_NE(t.out.find("hulhe_l3.log:2: hand 1"), std::string::npos) << t.out;
}

TEST(LogsCli, UnreadableFilesExitTwo) {
  const HulheRun a = run_hulhe("logs /nonexistent/x.log", true);
  EXPECT_EQ(a.status, 2);
  EXPECT_NE(a.out.find("cannot read dealer log"), std::string::npos) << a.out;
  const std::string bad_game = write_temp("hulhe_bad.game", "GAMEDEF\nlimit\nnumPlayers = 2\n");
  const HulheRun b = run_hulhe("logs " + kLog + " --game " + bad_game, true);
  EXPECT_EQ(b.status, 2);
  EXPECT_NE(b.out.find("hulhe_bad.game:3: missing END GAMEDEF"), std::string::npos) << b.out;
  EXPECT_EQ(run_hulhe("logs", true).status, 2);  // the log is required
}

}  // namespace
