// End-to-end `hulhe solve` and `hulhe export`: runs the built binary on Kuhn and Leduc.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace {

using namespace hulhe::cli_test;

// In this process's own folder, removed at exit.
std::string temp(const std::string& name) {
  static const hulhe::testing::TempFolder dir;
  return dir / name;
}

const std::string kLeduc = std::string(HULHE_SOURCE_DIR) + "/configs/leduc.toml";
const std::string kKuhn = std::string(HULHE_SOURCE_DIR) + "/configs/kuhn.toml";

TEST(SolveCli, LeducCfrPlusReachesTheGameValue) {
  const std::string ckpt = temp("leduc.ckpt");
  const HulheRun r =
      run_hulhe("solve --config " + kLeduc + " --iterations 2500 --checkpoint " + ckpt);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("game value (seat 0): -0.08560"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("information sets"), std::string::npos) << r.out;  // memory line
  EXPECT_TRUE(std::filesystem::exists(ckpt));
  // Resume to a larger total: continues from 2500.
  const HulheRun more =
      run_hulhe("solve --config " + kLeduc + " --iterations 3000 --resume --checkpoint " + ckpt);
  ASSERT_EQ(more.status, 0) << more.out;
  EXPECT_NE(more.out.find("iterations 2501..3000"), std::string::npos) << more.out;
  // Export, then the strategy file is readable by exploit.
  const std::string strategy = temp("leduc.strategy");
  const HulheRun ex = run_hulhe("export --checkpoint " + ckpt + " --out " + strategy);
  ASSERT_EQ(ex.status, 0) << ex.out;
  const HulheRun ev = run_hulhe("exploit --strategy " + strategy + " --json");
  ASSERT_EQ(ev.status, 0) << ev.out;
  EXPECT_NE(ev.out.find("\"exploitability_chips\""), std::string::npos) << ev.out;
  std::filesystem::remove(ckpt);
  std::filesystem::remove(strategy);
}

TEST(SolveCli, EveryAlgorithmRunsOnKuhn) {
  for (const char* a : {"cfr", "cfr+", "dcfr", "pcs", "external", "outcome"}) {
    const std::string ckpt = temp(std::string("kuhn_") + a + ".ckpt");
    const HulheRun r = run_hulhe("solve --config " + kKuhn + " --algorithm " + a +
                                 " --iterations 3000 --threads 1 --seed 5 --checkpoint " + ckpt);
    ASSERT_EQ(r.status, 0) << a << "\n" << r.out;
    EXPECT_NE(r.out.find(std::string("with ") + a), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("exploitability:"), std::string::npos) << r.out;
    std::filesystem::remove(ckpt);
  }
}

TEST(SolveCli, BadInputExitsTwo) {
  EXPECT_EQ(run_hulhe("solve --config /nonexistent.toml").status, 2);
  EXPECT_EQ(
      run_hulhe("solve --config " + kKuhn + " --algorithm nope --checkpoint " + temp("x")).status,
      2);
  const HulheRun r =
      run_hulhe("solve --config " + kKuhn + " --resume --checkpoint " + temp("missing.ckpt"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("missing.ckpt"), std::string::npos) << r.out;
  // A Kuhn checkpoint resumed with the Leduc config: another game.
  const std::string ckpt = temp("kuhn_for_leduc.ckpt");
  ASSERT_EQ(run_hulhe("solve --config " + kKuhn + " --iterations 10 --checkpoint " + ckpt).status,
            0);
  const HulheRun wrong = run_hulhe("solve --config " + kLeduc + " --resume --checkpoint " + ckpt);
  EXPECT_EQ(wrong.status, 2) << wrong.out;
  EXPECT_NE(wrong.out.find("another game"), std::string::npos) << wrong.out;
  std::filesystem::remove(ckpt);
}

TEST(SolveCli, SigintWritesACheckpoint) {
  const std::string ckpt = temp("sigint.ckpt");
  const std::string cmd = std::string(HULHE_BINARY) + " solve --config " + kLeduc +
                          " --algorithm cfr --iterations 100000000 --checkpoint " + ckpt +
                          " > /dev/null 2>&1 & pid=$!; sleep 1; kill -INT $pid; wait $pid";
  const int raw = std::system(("sh -c '" + cmd + "'").c_str());
  EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0);
  ASSERT_TRUE(std::filesystem::exists(ckpt));
  const HulheRun r = run_hulhe("exploit --checkpoint " + ckpt);
  EXPECT_EQ(r.status, 0) << r.out;
  std::filesystem::remove(ckpt);
}

}  // namespace
