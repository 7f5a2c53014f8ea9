// `hulhe equity ... --exact` estimates its work first (issue 20): `random random random
// --exact` ran for minutes without a word (and would have run for hours, holding a class
// table of tens of GB). Above the limit it is exit status 2 with the estimate and the Monte
// Carlo command to run instead; below it the enumeration runs as before.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/run_hulhe.h"

namespace {

using namespace hulhe::cli_test;

HulheRun run_bounded(const std::string& args) {
  return run_shell("timeout 20 " + std::string(HULHE_BINARY) + " " + args + " </dev/null 2>&1");
}

TEST(EquityExactLimitCli, TooLargeExactIsRefusedWithTheMonteCarloCommand) {
  const HulheRun r = run_bounded("equity random random random --exact");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--exact would enumerate 2.33e+09 deals"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("estimate it instead: hulhe equity random random random --monte-carlo "
                       "--stderr 0.0001"),
            std::string::npos)
      << r.out;
  // The board, dead cards and ranges that need quoting are carried into the suggestion.
  const HulheRun b = run_bounded("equity random random 'QQ+,AKs' --board Td9c2s --dead 2h --exact");
  EXPECT_EQ(b.status, 2) << b.out;
  EXPECT_NE(b.out.find("hulhe equity random random QQ+,AKs --board Td9c2s --dead 2h "
                       "--monte-carlo"),
            std::string::npos)
      << b.out;
  EXPECT_EQ(run_bounded("equity random random --exact --threads 2").status, 2);
}

TEST(EquityExactLimitCli, SmallExactRequestsStillRun) {
  const HulheRun r = run_bounded("equity AhKh QsQd --exact");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("exact: 1712304 deals enumerated"), std::string::npos) << r.out;
  // A random hand against two pairs on a flop: 32M deals, ~2 s under the sanitizers.
  const HulheRun k = run_bounded("equity random KK QQ --board 2c3d4h --exact --json");
  EXPECT_EQ(k.status, 0) << k.out;
  // The suggested Monte Carlo command runs.
  EXPECT_EQ(run_bounded("equity random random random --monte-carlo --stderr 0.001").status, 0);
}

}  // namespace
