// End-to-end `hulhe lbr`: HULHE always-fold gives up exactly 750 mbb/g, Leduc against the
// exact best response of `exploit`, the same answer on any number of threads, bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace {

using namespace hulhe::cli_test;

const std::string kGames = std::string(HULHE_SOURCE_DIR) + "/configs/games/";

TEST(LbrCli, HulheAlwaysFoldGivesUp750MbbPerGame) {
  const nlohmann::json j =
      run_hulhe_json("lbr --game " + kGames +
                     "holdem.limit.2p.reverse_blinds.game --policy always-fold "
                     "--hands 100 --threads 2 --equity-boards 100 --json");
  EXPECT_EQ(j["lbr_mbb"].get<double>(), 750.0);
  EXPECT_EQ(j["lbr_value_vs_seat"][0].get<double>(), 10.0);  // it is the big blind: raise
  EXPECT_EQ(j["lbr_value_vs_seat"][1].get<double>(), 5.0);   // it is the small blind: folds
  EXPECT_EQ(j["decisions"]["raise"].get<int>(), 50);
  EXPECT_EQ(j["hands"].get<int>(), 100);
}

TEST(LbrCli, LeducBelowTheExactBestResponseOnAnyThreadCount) {
  const std::string policy = "--game " + kGames + "leduc.game --policy uniform";
  const HulheRun br = run_hulhe("exploit " + policy + " --json", false);
  ASSERT_EQ(br.status, 0) << br.out;
  const double exact = nlohmann::json::parse(br.out)["exploitability_chips"].get<double>();
  const HulheRun one = run_hulhe("lbr " + policy + " --hands 20000 --seed 4 --json", false);
  const HulheRun two =
      run_hulhe("lbr " + policy + " --hands 20000 --seed 4 --threads 2 --json", false);
  ASSERT_EQ(one.status, 0) << one.out;
  ASSERT_EQ(two.status, 0) << two.out;
  const auto a = nlohmann::json::parse(one.out);
  const auto b = nlohmann::json::parse(two.out);
  EXPECT_EQ(a["lbr_chips"].get<double>(), b["lbr_chips"].get<double>());
  EXPECT_EQ(a["decisions"], b["decisions"]);
  const double lbr = a["lbr_chips"].get<double>();
  const double ci = a["ci95_chips"].get<double>();
  EXPECT_GT(ci, 0.0);
  EXPECT_LE(lbr - ci, exact);
  EXPECT_GT(lbr, 0.75 * exact);  // uniform is easy to exploit; LBR gets most of it
  EXPECT_NEAR(a["lbr_mbb"].get<double>(), lbr * 1000.0, 1e-9);
}

TEST(LbrCli, CheckpointAndStrategyFileOfASolvedLeduc) {
  const hulhe::testing::TempFolder dir;
  const std::string ckpt = dir / "leduc.ckpt";
  const std::string strategy = dir / "leduc.strategy";
  const std::string config = std::string(HULHE_SOURCE_DIR) + "/configs/leduc.toml";
  ASSERT_EQ(run_hulhe("solve --config " + config + " --iterations 200 --checkpoint " + ckpt).status,
            0);
  ASSERT_EQ(run_hulhe("export --checkpoint " + ckpt + " --out " + strategy).status, 0);
  const HulheRun br = run_hulhe("exploit --checkpoint " + ckpt + " --json", false);
  ASSERT_EQ(br.status, 0) << br.out;
  const double exact = nlohmann::json::parse(br.out)["exploitability_chips"].get<double>();
  for (const std::string& source : {"--checkpoint " + ckpt, "--strategy " + strategy}) {
    SCOPED_TRACE(source);
    const nlohmann::json j = run_hulhe_json("lbr " + source + " --hands 200000 --threads 2 --json");
    // 200 CFR+ iterations leave 5 mbb/g to exploit; LBR stays below that.
    EXPECT_LE(j["lbr_chips"].get<double>() - j["ci95_chips"].get<double>(), exact);
    EXPECT_LT(j["ci95_chips"].get<double>(), 0.02);
  }
}

TEST(LbrCli, TextReport) {
  const HulheRun r = run_hulhe("lbr --game " + kGames +
                               "holdem.limit.2p.12card.2rounds.game --policy uniform --hands 500");
  ASSERT_EQ(r.status, 0) << r.out;
  expect_output_has(r, {"local best response against uniform", "LBR value vs seat 0: +", "mbb/g"});
}

TEST(LbrCli, BadInputExitsWithStatus2) {
  const hulhe::testing::TempFolder dir;
  const std::string junk = dir / "junk.strategy";
  std::ofstream(junk) << "not a strategy file";
  EXPECT_EQ(run_hulhe("lbr --strategy " + junk + " --hands 10").status, 2);
  EXPECT_EQ(run_hulhe("lbr --strategy " + (dir / "missing.strategy") + " --hands 10").status, 2);
  const std::string leduc = "--game " + kGames + "leduc.game --policy uniform";
  const HulheRun zero = run_hulhe("lbr " + leduc + " --hands 0");
  EXPECT_EQ(zero.status, 2);
  EXPECT_NE(zero.out.find("--hands: Value 0 not in range 1 to 100000000"), std::string::npos)
      << zero.out;
  const HulheRun huge = run_hulhe("lbr " + leduc + " --hands 99999999999999999999");
  EXPECT_EQ(huge.status, 2) << huge.out;  // was "internal error" (a vector of 10^20 slots)
  EXPECT_EQ(huge.out.find("internal error"), std::string::npos) << huge.out;
  EXPECT_EQ(run_hulhe("lbr " + leduc).status, 2);  // --hands is required
  EXPECT_EQ(run_hulhe("lbr --policy uniform --hands 10").status, 2);
  EXPECT_EQ(run_hulhe("lbr " + leduc + " --hands 10 --policy nonsense").status, 2);
  EXPECT_EQ(run_hulhe("lbr --game " + kGames + "leduc.game --policy nonsense --hands 10").status,
            2);
  EXPECT_EQ(run_hulhe("lbr " + leduc + " --hands 10 --threads 0").status, 2);
}

}  // namespace
