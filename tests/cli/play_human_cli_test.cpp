// `hulhe play --human` with typed input from a file (the terminal itself is tested under tmux,
// tests/scripts/play_human_tmux_test.py): bad words and illegal actions answered, the end of
// input ending the session with its summary, the log replayed by `hulhe logs`, and bad
// options refused with exit status 2.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace hulhe {
namespace {

using cli_test::run_hulhe;
using testing::TempFolder;

const std::string kLeduc = std::string(HULHE_SOURCE_DIR) + "/configs/games/leduc.game";

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(PlayHumanCli, TypedSessionEndsAtEndOfInputAndItsLogReplays) {
  TempFolder dir;
  // A bad word, a pasted page, a fold where checking is free (illegal), the probabilities,
  // then calls until the input ends in the middle of a hand.
  std::string typed = "hello\n" + std::string(5000, 'x') + "\nf\np\n";
  for (int i = 0; i < 40; ++i) typed += "c\n";
  write(dir / "typed.txt", typed);
  const auto r =
      run_hulhe("play --human --bot always-raise --game " + kLeduc + " --seed 4 --name ada --log " +
                (dir / "h.log") + " < " + (dir / "typed.txt"));
  ASSERT_EQ(r.status, 0) << r.out;
  expect_output_has(
      r, {"'hello' is not an action: type f, c, r, p or q", "not now: action 'f' is not legal"});
  EXPECT_NE(r.out.find("  '" + std::string(40, 'x') + "...' is not an action"), std::string::npos);
  expect_output_has(r, {"(end of input)", "the hand in progress is not counted"});
  // Against always-raise every call goes to a showdown: 40 calls are 20 hands' worth or so.
  const auto hands_at = r.out.find("session (ada against always-raise): ");
  ASSERT_NE(hands_at, std::string::npos) << r.out;
  const int hands = std::stoi(r.out.substr(hands_at + 36));
  EXPECT_GE(hands, 10);
  const auto logs = run_hulhe("logs --game " + kLeduc + " " + (dir / "h.log"));
  EXPECT_EQ(logs.status, 0) << logs.out;
  EXPECT_NE(logs.out.find(std::to_string(hands) +
                          " hands of leduc replayed; 0 mismatches, 0 bad lines; SCORE line agrees"),
            std::string::npos)
      << logs.out;
}

TEST(PlayHumanCli, HandsOptionEndsTheSessionAndQuitEndsItEarly) {
  TempFolder dir;
  std::string typed;
  for (int i = 0; i < 100; ++i) typed += "c\n";
  write(dir / "calls.txt", typed);
  const auto r = run_hulhe("play --human --bot always-call --game " + kLeduc + " --hands 3 < " +
                           (dir / "calls.txt"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("=== hand 3 "), std::string::npos);
  EXPECT_EQ(r.out.find("=== hand 4 "), std::string::npos);
  EXPECT_NE(r.out.find("session (you against always-call): 3 hands"), std::string::npos);
  write(dir / "quit.txt", "q\n");
  const auto q =
      run_hulhe("play --human --bot always-call --game " + kLeduc + " < " + (dir / "quit.txt"));
  ASSERT_EQ(q.status, 0) << q.out;
  EXPECT_NE(q.out.find("session (you against always-call): 0 hands"), std::string::npos);
}

TEST(PlayHumanCli, BadOptionsExitWithStatusTwo) {
  TempFolder dir;
  const std::string none = " < /dev/null";
  auto refused = [&](const std::string& args, const std::string& message) {
    const auto r = run_hulhe("play --human " + args + none);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
  };
  refused("--bot nobody", "nobody");
  refused("--bot always-call --game " + kLeduc + " --log " + kLeduc, "log");
  refused("--bot always-call --game " + std::string(HULHE_SOURCE_DIR) +
              "/configs/games/holdem.nolimit.2p.reverse_blinds.game",
          "needs a 2-player limit game");
  refused("--bot always-call --port 5", "excludes");
  refused("--bot always-call --hands -1", "--hands");
  const auto r = run_hulhe("play --bot always-call --hands 3");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--port"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace hulhe
