// End to end: `hulhe hand` as a user runs it (exit status and output).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/run_hulhe.h"

namespace {

using namespace hulhe::cli_test;

TEST(HandCli, RoyalFlushAmongSevenCards) {
  const HulheRun r = run_hulhe("hand As Ks Qs Js Ts 2c 3d");
  ASSERT_EQ(r.status, 0) << r.out;
  expect_output_has(r, {"best five: As Ks Qs Js Ts", "straight flush", "7462"});
}

TEST(HandCli, JsonWithCardRuns) {
  const nlohmann::json j = run_hulhe_json("hand AhAd KcKs7h 6d2c --json");
  EXPECT_EQ(j.at("category"), "two pair");
  EXPECT_EQ(j.at("best_five"), (std::vector<std::string>{"Ah", "Ad", "Ks", "Kc", "7h"}));
  // Aces and kings with a seven kicker; two pair is ranks 4138..4995.
  const int rank = j.at("rank");
  EXPECT_GE(rank, 4138);
  EXPECT_LE(rank, 4995);
  const HulheRun five = run_hulhe("hand AhAdKcKs7h --json");
  EXPECT_EQ(nlohmann::json::parse(five.out).at("rank"), rank);
}

TEST(HandCli, BadInputExitsTwo) {
  for (const char* args :
       {"hand As Ks Qs Js", "hand As Ks Qs Js Ts 9s 8s 7s", "hand As As Qs Js Ts",
        "hand AsKsQsJs Ks", "hand Xs Ks Qs Js Ts", "hand AsKsQsJsT"}) {
    const HulheRun r = run_hulhe(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("hulhe: error:"), std::string::npos) << args << "\n" << r.out;
  }
}

}  // namespace
