// Issue 38: what a command prints is its output like any file: when stdout cannot take it
// (`> /dev/full`, a full disk, a closed pipe) the command exits 2 with a message, never 0
// with its whole output lost. Sixteen commands, each with stdout on /dev/full.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace hulhe {
namespace {

using namespace cli_test;

const std::string kGames = std::string(HULHE_SOURCE_DIR) + "/configs/games/";
const std::string kConfigs = std::string(HULHE_SOURCE_DIR) + "/configs/";

TEST(StdoutWriteErrorCli, EveryCommandReportsAFailedWriteWithStatus2) {
  testing::TempFolder dir;
  const std::string hulhe = "timeout 60 " + std::string(HULHE_BINARY);
  const std::string ckpt = dir / "kuhn.ckpt", strategy = dir / "kuhn.strategy";
  // Inputs made with stdout where it belongs.
  ASSERT_EQ(run_shell(hulhe + " solve --config " + kConfigs + "kuhn.toml --iterations 200 " +
                      "--checkpoint " + ckpt + " >/dev/null 2>&1")
                .status,
            0);
  ASSERT_EQ(
      run_shell(hulhe + " export --checkpoint " + ckpt + " --out " + strategy + " >/dev/null 2>&1")
          .status,
      0);
  const std::string holdem = dir / "toy.strategy",
                    toy = kGames + "holdem.limit.2p.12card.2rounds.game";
  ASSERT_EQ(run_shell(hulhe + " export --baseline uniform --game " + toy + " --out " + holdem +
                      " >/dev/null 2>&1")
                .status,
            0);
  const std::vector<std::string> commands = {
      "info --game " + kGames + "leduc.game --json",
      "info --game " + kGames + "holdem.limit.2p.reverse_blinds.game",
      "hand As Ks Qs Js Ts 2c 3d",
      "logs " + std::string(HULHE_SOURCE_DIR) + "/tests/data/acpc-holdem.limit.2p.1000hands.log",
      "equity AhKh QsQd --board Th9h2s --json",
      "equity AhKh QsQd",
      "solve --config " + kConfigs + "kuhn.toml --iterations 100 --checkpoint " +
          (dir / "again.ckpt"),
      "export --checkpoint " + ckpt + " --out " + (dir / "again.strategy"),
      "exploit --checkpoint " + ckpt,
      "exploit --game " + kGames + "kuhn.game --policy uniform --json",
      "compare --a bot:always-call --b bot:uniform --game " + toy + " --quiet",
      "show --strategy " + holdem + " --sequence ''",
      "lbr --game " + toy + " --policy always-call --hands 100",
      "match --a bot:always-call --b bot:uniform --game " + kGames + "kuhn.game --hands 100",
      "tournament --agents bot:always-call bot:uniform bot:always-fold --hands 100 --game " +
          kGames + "kuhn.game --quiet",
      "play --human --bot uniform --game " + kGames + "kuhn.game --seed 1 --hands 1",
  };
  for (const std::string& args : commands) {
    const HulheRun r = run_shell(hulhe + " " + args + " </dev/null 2>&1 >/dev/full");
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("cannot write the output to stdout"), std::string::npos) << args << "\n"
                                                                                  << r.out;
    EXPECT_EQ(r.out.find("internal error"), std::string::npos) << args << "\n" << r.out;
    // The same command with stdout where it belongs succeeds: the failure was the write.
    // (Outputs the failed run wrote go to other names: a checkpoint is never overwritten.)
    std::string fresh = args;
    for (std::size_t at; (at = fresh.find("again.")) != std::string::npos;)
      fresh.replace(at, 6, "fresh.");
    const HulheRun ok = run_shell(hulhe + " " + fresh + " </dev/null >/dev/null 2>&1");
    EXPECT_EQ(ok.status, 0) << args;
  }
}

}  // namespace
}  // namespace hulhe
