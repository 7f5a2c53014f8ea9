// End-to-end tests of `hulhe equity`: runs the built binary and checks its output.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/run_hulhe.h"

namespace {

using namespace hulhe::cli_test;

TEST(EquityCli, ExactJsonMatchesGroundTruth) {
  const nlohmann::json j = run_hulhe_json("equity AhKh QsQd --json");
  EXPECT_EQ(j["method"], "exact");
  EXPECT_EQ(j["combinations"], 1712304);
  ASSERT_EQ(j["players"].size(), 2U);
  EXPECT_EQ(j["players"][0]["range"], "AhKh");
  EXPECT_NEAR(j["players"][0]["equity"].get<double>(), 0.4621445725, 1e-10);
  EXPECT_NEAR(j["players"][0]["win"].get<double>(), 787966.0 / 1712304, 1e-12);
  EXPECT_NEAR(j["players"][1]["tie"].get<double>(), 6732.0 / 1712304, 1e-12);
  double sum = 0;
  for (const auto& [name, share] : j["players"][1]["categories"].items())
    sum += share.get<double>();
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_TRUE(j.contains("seconds"));
}

TEST(EquityCli, MonteCarloAgreesWithExact) {
  const std::string spot = "equity AsKs random QQ+ --board Qs7h2d --dead 2c --json";
  const HulheRun exact = run_hulhe(spot + " --exact");
  const HulheRun mc = run_hulhe(spot + " --monte-carlo --stderr 0.004 --seed 3 --threads 2");
  ASSERT_EQ(exact.status, 0) << exact.out;
  ASSERT_EQ(mc.status, 0) << mc.out;
  const auto e = nlohmann::json::parse(exact.out);
  const auto m = nlohmann::json::parse(mc.out);
  EXPECT_EQ(m["method"], "monte-carlo");
  EXPECT_LE(m["stderr"].get<double>(), 0.004);
  for (int i = 0; i < 3; ++i) {
    const double se = m["players"][i]["stderr"].get<double>();
    EXPECT_LE(
        std::abs(m["players"][i]["equity"].get<double>() - e["players"][i]["equity"].get<double>()),
        4 * se);
  }
}

TEST(EquityCli, PrintsATablePerPlayer) {
  const HulheRun r = run_hulhe("equity AhKh QsQd");
  ASSERT_EQ(r.status, 0) << r.out;
  expect_output_has(r, {"1712304 deals", "46.214%", "straight flush"});
}

TEST(EquityCli, BadInputExitsTwoNamingIt) {
  HulheRun r = run_hulhe("equity AhKh AKx");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("AKx"), std::string::npos) << r.out;
  r = run_hulhe("equity AhKh QsQd --board 2c3c");
  EXPECT_EQ(r.status, 2) << r.out;
  r = run_hulhe("equity AhKh AhQd");
  EXPECT_EQ(r.status, 2) << r.out;
  r = run_hulhe("equity AhKh");
  EXPECT_EQ(r.status, 2) << r.out;
}

}  // namespace
