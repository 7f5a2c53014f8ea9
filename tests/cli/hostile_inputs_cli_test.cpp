// Issue 38's hostile inputs outside the server, end to end: a typed input that never ends a
// line, SIGTERM at the prompt, parameter files that are fifos or devices, output names that
// name nothing, and a resume file on a disk that takes no byte. Every run is bounded by
// `timeout`, so a hang shows as status 124, not a hanging suite.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace hulhe {
namespace {

using namespace cli_test;

const std::string kGames = std::string(HULHE_SOURCE_DIR) + "/configs/games/";

HulheRun hulhe(const std::string& args, const std::string& prefix = "") {
  return run_shell(prefix + "timeout 30 " + std::string(HULHE_BINARY) + " " + args + " 2>&1");
}

// AddressSanitizer reserves terabytes of address space, which `ulimit -v` refuses: under it
// the run goes without the limit (an unbounded reader still shows, as the 30 s timeout).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

TEST(HostileInputsCli, PlayHumanEndsAnEndlessLineWithinBoundedMemory) {
  // /dev/zero has no newline: the reader keeps 4,096 bytes of a line and gives up after 1 MiB
  // instead of growing (it reached 2 GB). Under a 1 GiB address-space limit, so growth would
  // fail the run.
  const HulheRun r =
      hulhe("play --human --bot uniform --game " + kGames + "kuhn.game --seed 3 < /dev/zero",
            kAddressSanitizer ? "" : "ulimit -v 1048576; ");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("a line over 1 MiB: end of input"), std::string::npos) << r.out;
}

TEST(HostileInputsCli, SigtermAtThePromptEndsTheSessionWithItsLog) {
  testing::TempFolder dir;
  const std::string log = dir / "session.log";
  // Two hands answered, then the input stays open (sleep) and SIGTERM comes at the prompt.
  const HulheRun r = run_shell(
      "(printf 'c\\nc\\nc\\nc\\nc\\nc\\n'; sleep 30) | (timeout --preserve-status -s TERM 3 " +
      std::string(HULHE_BINARY) + " play --human --bot always-call --game " + kGames +
      "kuhn.game --seed 5 --hands 100 --log " + log + "; echo \"status $?\") 2>&1");
  expect_output_has(r, {"(interrupted)", "status 0"});
  ASSERT_TRUE(std::filesystem::exists(log)) << r.out;
  std::ifstream in(log);
  int states = 0;
  for (std::string line; std::getline(in, line);) states += line.rfind("STATE:", 0) == 0;
  EXPECT_GE(states, 1) << r.out;
}

TEST(HostileInputsCli, ARulesFileThatIsAFifoOrADeviceIsRefused) {
  testing::TempFolder dir;
  const std::string fifo = dir / "rules.toml";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& file : {fifo, std::string("/dev/zero")}) {
    expect_refused(hulhe("match --a bot:rules:" + file + " --b bot:uniform --hands 10"),
                   "is not a regular file", "match " + file);
    expect_refused(hulhe("play --human --bot rules:" + file + " --hands 1 < /dev/null"),
                   "is not a regular file", "play --human " + file);
    expect_refused(hulhe("serve --bot rules:" + file + " --port 0 --db " + (dir / "p.sqlite")),
                   "is not a regular file", "serve " + file);
  }
}

TEST(HostileInputsCli, OutputNamesThatNameNoFileAreRefused) {
  testing::TempFolder dir;
  const std::string strategy = dir / "toy.strategy";
  ASSERT_EQ(hulhe("export --baseline uniform --game " + kGames +
                  "holdem.limit.2p.12card.2rounds.game --out " + strategy)
                .status,
            0);
  expect_refused(hulhe("show --strategy " + strategy + " --sequence '' --svg ''"),
                 "--svg needs a file name", "--svg ''");
  expect_refused(hulhe("show --strategy " + strategy + " --sequence '' --svg -"), "not '-'",
                 "--svg -");
  EXPECT_FALSE(std::filesystem::exists("-"));
  expect_refused(
      hulhe("play --human --bot uniform --game " + kGames + "kuhn.game --log '' < /dev/null"),
      "--log needs a file name", "--log ''");
}

TEST(HostileInputsCli, AResumeFileWhoseHeaderCannotBeWrittenIsNotLeftBehind) {
  testing::TempFolder dir;
  const std::string resume = dir / "br.brr";
  // A file-size limit of 0 bytes stands for a full disk: the header's write fails (EFBIG;
  // SIGXFSZ ignored, as a full disk sends none).
  const HulheRun r =
      hulhe("exploit --game " + kGames +
                "holdem.limit.2p.12card.3rounds.game --policy uniform --flops 2 --quiet "
                "--resume-file " +
                resume,
            "trap '' XFSZ; ulimit -f 0; ");
  expect_refused(r, "cannot write resume file", "a full disk");
  EXPECT_FALSE(std::filesystem::exists(resume)) << r.out;
  // With room, the same command makes the file and finishes.
  const HulheRun ok =
      hulhe("exploit --game " + kGames +
            "holdem.limit.2p.12card.3rounds.game --policy uniform --flops 2 --quiet "
            "--resume-file " +
            resume);
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_TRUE(std::filesystem::exists(resume));
}

}  // namespace
}  // namespace hulhe
