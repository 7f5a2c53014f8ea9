// Outputs end to end (issue 20, "nothing lost, nothing hangs"): logs never overwrite inputs
// through hard links, a log replaces the old file only when its run ends well, log write
// failures are reported, fifos and devices are refused as outputs before any work (never a
// hang), `hulhe run` checks every output of every stage before it starts, and the next write
// of an output removes the temporary files a kill -9 left. Every run is bounded by
// `timeout 20`, so a regression shows as status 124, not a hanging suite.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "acpc/line_socket.h"
#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"

namespace hulhe {
namespace {

using testing::slurp;
using testing::spit;

using namespace cli_test;

const std::string kGames = std::string(HULHE_SOURCE_DIR) + "/configs/games/";

// `hulhe ARGS` with stdin closed, at most 20 s; `prefix` runs in the same shell first
// (ulimit). With `stderr_too` false, stderr is dropped.
HulheRun hulhe(const std::string& args, const std::string& prefix = "", bool stderr_too = true) {
  return run_shell(prefix + "timeout 20 " + HULHE_BINARY + " " + args + " </dev/null" +
                   (stderr_too ? " 2>&1" : " 2>/dev/null"));
}

// A loopback port nobody listens on: bound by the system, then closed.
int closed_port() {
  LoopbackListener listener(0);
  return listener.port();
}

class OutputFilesCli : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_ / name; }
  // A Kuhn strategy file in the folder (an input to protect).
  std::string kuhn_strategy() {
    const std::string s = path("s.strategy");
    EXPECT_EQ(hulhe("export --baseline uniform --game " + kGames + "kuhn.game --out " + s).status,
              0);
    return s;
  }
  // The folder's entries that are temporary files of some output.
  std::vector<std::string> temporaries() const {
    std::vector<std::string> t;
    for (const std::string& e : dir_.entries())
      if (e.find(".tmp-") != std::string::npos) t.push_back(e);
    return t;
  }

  testing::TempFolder dir_;
};

TEST_F(OutputFilesCli, MatchLogNeverOverwritesAnInputThroughAHardLink) {
  const std::string strategy = kuhn_strategy();
  const std::string before = slurp(strategy);
  ASSERT_EQ(::link(strategy.c_str(), path("s.hard").c_str()), 0);
  expect_refused(hulhe("match --a " + strategy + " --b bot:uniform --game " + kGames +
                       "kuhn.game --hands 20 --quiet --log " + path("s.hard")),
                 "is the input", "hard link to the strategy");
  EXPECT_EQ(slurp(strategy), before);
  // The same with a hard link to the .game file.
  spit(path("kuhn.game"), slurp(kGames + "kuhn.game"));
  ASSERT_EQ(::link(path("kuhn.game").c_str(), path("g.hard").c_str()), 0);
  expect_refused(hulhe("match --a bot:uniform --b bot:uniform --game " + path("kuhn.game") +
                       " --hands 20 --quiet --log " + path("g.hard")),
                 "is the input", "hard link to the game");
  EXPECT_EQ(slurp(path("kuhn.game")), slurp(kGames + "kuhn.game"));
  // play and dealer, with the same message.
  expect_refused(hulhe("play --strategy " + strategy + " --port " + std::to_string(closed_port()) +
                       " --log " + path("s.hard")),
                 "is the input", "play");
  expect_refused(hulhe("dealer --game " + path("kuhn.game") + " --hands 5 --timeout-ms 200 --log " +
                       path("g.hard")),
                 "is the input", "dealer");
  EXPECT_EQ(slurp(strategy), before);
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(OutputFilesCli, AFailedRunLeavesTheOldLogAsItWas) {
  const std::string keep = path("keep.txt");
  spit(keep, "an earlier log\n");
  // play with nobody listening.
  expect_refused(hulhe("play --bot uniform --game " + kGames + "leduc.game --port " +
                       std::to_string(closed_port()) + " --log " + keep),
                 "cannot connect", "play, nobody listening");
  EXPECT_EQ(slurp(keep), "an earlier log\n");
  // dealer with nobody connecting.
  expect_refused(
      hulhe("dealer --game " + kGames + "kuhn.game --hands 5 --timeout-ms 200 --log " + keep),
      "did not connect", "dealer, nobody connecting");
  EXPECT_EQ(slurp(keep), "an earlier log\n");
  // A dealer that wrote nothing creates no log either.
  expect_refused(hulhe("dealer --game " + kGames + "kuhn.game --hands 5 --timeout-ms 200 --log " +
                       path("new.log")),
                 "did not connect", "dealer, new log");
  EXPECT_FALSE(std::filesystem::exists(path("new.log")));
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"keep.txt"});
}

TEST_F(OutputFilesCli, AMatchLogOnAFullDiskIsReportedAndKeepsTheOldLog) {
  const std::string keep = path("keep.txt");
  spit(keep, "an earlier log\n");
  // A file-size limit (SIGXFSZ ignored) makes writes fail part way, like a full disk.
  const HulheRun r = hulhe("match --a bot:uniform --b bot:always-call --game " + kGames +
                               "kuhn.game --hands 20000 --quiet --log " + keep,
                           "trap '' XFSZ; ulimit -f 8; ");
  expect_refused(r, "cannot write log '" + keep + "': write failed", "full disk");
  EXPECT_EQ(slurp(keep), "an earlier log\n");
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"keep.txt"});
}

TEST_F(OutputFilesCli, DevicesAndFifosAreRefusedAsOutputsBeforeAnyWork) {
  const std::string fifo = path("f");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string port = std::to_string(closed_port());
  for (const std::string& out : {fifo, std::string("/dev/full"), std::string("/dev/null")}) {
    expect_refused(hulhe("match --a bot:uniform --b bot:uniform --game " + kGames +
                         "kuhn.game --hands 20 --quiet --log " + out),
                   "not a regular file", "match --log " + out);
    expect_refused(hulhe("dealer --game " + kGames + "kuhn.game --hands 5 --log " + out),
                   "not a regular file", "dealer --log " + out);
    expect_refused(hulhe("play --bot uniform --game " + kGames + "leduc.game --port " + port +
                         " --log " + out),
                   "not a regular file", "play --log " + out);
    expect_refused(hulhe("exploit --game " + kGames +
                         "holdem.limit.2p.12card.3rounds.game --policy uniform --quiet "
                         "--resume-file " +
                         out),
                   "not a regular file", "exploit --resume-file " + out);
  }
  // The message says how to write to the terminal or a pipe.
  expect_refused(hulhe("play --bot uniform --port " + port + " --log /dev/full"),
                 "'-' writes to the standard output", "hint");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(OutputFilesCli, DashWritesTheLogAloneToStandardOutput) {
  const HulheRun r = hulhe("match --a bot:uniform --b bot:always-call --game " + kGames +
                               "kuhn.game --hands 50 --quiet --log -",
                           "", false);
  ASSERT_EQ(r.status, 0) << r.out;
  std::istringstream lines(r.out);
  int states = 0;
  int scores = 0;
  for (std::string line; std::getline(lines, line);) {
    states += line.rfind("STATE:", 0) == 0;
    scores += line.rfind("SCORE:", 0) == 0;
    EXPECT_TRUE(line.rfind("STATE:", 0) == 0 || line.rfind("SCORE:", 0) == 0) << line;
  }
  EXPECT_EQ(states, 50);
  EXPECT_EQ(scores, 1);
  // The summary went to stderr.
  const std::string match = std::string(HULHE_BINARY) +
                            " match --a bot:uniform --b bot:always-call --game " + kGames +
                            "kuhn.game --hands 50 --quiet --log - </dev/null";
  const HulheRun both = run_shell("timeout 20 " + match + " 2>&1 >/dev/null");
  EXPECT_EQ(both.status, 0) << both.out;
  EXPECT_NE(both.out.find("A wins"), std::string::npos) << both.out;
  // A write error on the standard output is reported too.
  expect_refused(run_shell("timeout 20 " + match + " 2>&1 >/dev/full"), "cannot write log '-'",
                 "stdout is /dev/full");
  EXPECT_TRUE(dir_.entries().empty());
}

// The quick pipeline config, written to the folder with every output in the folder; `paths`
// replace some of them (key: output, checkpoint, strategy, curve, plot, report).
std::string pipeline_config(const testing::TempFolder& dir,
                            const std::map<std::string, std::string>& paths) {
  std::string text = slurp(std::string(HULHE_SOURCE_DIR) + "/configs/hulhe-quick.toml");
  auto set = [&](const std::string& key, const std::string& old_value, std::string value) {
    if (paths.count(key)) value = paths.at(key);
    const std::string line = key + " = \"" + old_value + "\"";
    const std::size_t at = text.find(line);
    ASSERT_NE(at, std::string::npos) << line;
    text.replace(at, line.size(), key + " = \"" + value + "\"");
  };
  const std::string game = "games/holdem.limit.2p.reverse_blinds.game";
  text.replace(text.find(game), game.size(), kGames + "holdem.limit.2p.reverse_blinds.game");
  set("output", "hulhe-quick.buckets", dir / "q.buckets");
  set("checkpoint", "hulhe-quick.ckpt", dir / "q.ckpt");
  set("strategy", "hulhe-quick.strategy", dir / "q.strategy");
  set("curve", "hulhe-quick.curve.csv", dir / "q.csv");
  set("plot", "hulhe-quick.curve.svg", dir / "q.svg");
  set("report", "hulhe-quick.report.json", dir / "q.json");
  spit(dir / "q.toml", text);
  return dir / "q.toml";
}

TEST_F(OutputFilesCli, RunChecksEveryOutputAgainstEveryInputBeforeWorking) {
  const std::string config = path("q.toml");
  const std::string game = kGames + "holdem.limit.2p.reverse_blinds.game";
  struct Case {
    std::map<std::string, std::string> paths;
    std::string fragment, what;
  };
  const std::vector<Case> cases = {
      {{{"curve", config}}, "is the input", "curve is the config"},
      {{{"report", game}}, "is the input", "report is the .game file"},
      {{{"checkpoint", config}}, "is the input", "checkpoint is the config"},
      {{{"strategy", game}}, "is the input", "strategy file is the .game file"},
      {{{"output", config}}, "is the input", "bucket map is the config"},
      {{{"plot", path("q.buckets")}}, "are the same file", "plot is the bucket map"},
      {{{"curve", path("x")}, {"report", path("./x")}}, "are the same file", "curve and report"},
      {{{"strategy", path("q.ckpt")}}, "are the same file", "strategy file and checkpoint"},
      {{{"report", path("q.strategy.last")}}, "are the same file", "report and last strategy"},
      {{{"report", path("fifo")}}, "not a regular file", "report is a fifo"},
      {{{"plot", "/dev/full"}}, "not a regular file", "plot is /dev/full"},
      {{{"curve", path("no/such/folder/c.csv")}}, "cannot create files", "missing folder"},
  };
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  for (const Case& c : cases) {
    pipeline_config(dir_, c.paths);
    const std::string before = slurp(config);
    expect_refused(hulhe("run --config " + config + " --seconds 1"), c.fragment, c.what);
    EXPECT_EQ(slurp(config), before) << c.what;
    EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"fifo", "q.toml"}))
        << c.what << ": the work started";
  }
}

TEST_F(OutputFilesCli, TheNextWriteRemovesTheTemporariesAKillLeft) {
  const std::string config = path("kuhn.toml");
  spit(config, "game = \"" + kGames + "kuhn.game\"\niterations = 50\n");
  const std::string ckpt = path("k.ckpt");
  // What a kill -9 during a checkpoint write and during a match leaves behind.
  spit(path("k.ckpt.tmp-Ab3dE9"), "half a checkpoint");
  spit(path("m.log.tmp-x1Y2z3"), "half a log");
  // Not temporaries of these outputs: never touched.
  spit(path("k.ckpt.tmp-short"), "keep");
  spit(path("other.ckpt.tmp-Ab3dE9"), "keep");
  ASSERT_EQ(hulhe("solve --config " + config + " --checkpoint " + ckpt).status, 0);
  ASSERT_EQ(hulhe("match --a bot:uniform --b bot:uniform --game " + kGames +
                  "kuhn.game --hands 20 --quiet --log " + path("m.log"))
                .status,
            0);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"k.ckpt", "k.ckpt.tmp-short", "kuhn.toml",
                                                      "m.log", "other.ckpt.tmp-Ab3dE9"}));
}

}  // namespace
}  // namespace hulhe
