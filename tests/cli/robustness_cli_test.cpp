// Hostile input and output paths, end to end: every bad input is exit status 2 with one
// message; no command damages a file it was not asked to write; `logs` reports problems
// with exit status 1 and never echoes raw bytes.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"

namespace {

using namespace hulhe::cli_test;

const std::string kGames = std::string(HULHE_SOURCE_DIR) + "/configs/games/";

class RobustnessCli : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return folder_ / name; }
  std::string write(const std::string& name, const std::string& text) const {
    hulhe::testing::spit(path(name), text);
    return path(name);
  }
  static std::string read(const std::string& p) { return hulhe::testing::slurp(p); }
  // A Kuhn solve config whose game path is absolute, so that it can live in the temp folder.
  std::string kuhn_config(const std::string& extra = "") const {
    return write("kuhn.toml", "game = \"" + kGames + "kuhn.game\"\niterations = 50\n" + extra);
  }

  hulhe::testing::TempFolder folder_;
  const std::string dir_ = folder_.path();
};

TEST_F(RobustnessCli, ExportNeverWritesOverItsCheckpoint) {
  const std::string config = kuhn_config();
  const std::string ckpt = path("k.ckpt");
  ASSERT_EQ(run_hulhe("solve --config " + config + " --checkpoint " + ckpt).status, 0);
  const std::string before = read(ckpt);
  expect_refused(run_hulhe("export --checkpoint " + ckpt + " --out " + ckpt), "is the input",
                 "same path");
  expect_refused(run_hulhe("export --checkpoint " + ckpt + " --out " + dir_ + "/./k.ckpt"),
                 "is the input", "another spelling");
  ASSERT_EQ(::link(ckpt.c_str(), path("hard.ckpt").c_str()), 0);
  expect_refused(run_hulhe("export --checkpoint " + ckpt + " --out " + path("hard.ckpt")),
                 "is the input", "hard link");
  EXPECT_EQ(read(ckpt), before);
  expect_refused(run_hulhe("export --checkpoint " + ckpt + " --out " + dir_), "is a directory",
                 "directory");
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  expect_refused(run_hulhe("export --checkpoint " + ckpt + " --out " + path("fifo")),
                 "not a regular file", "fifo");
  struct stat st {};
  ASSERT_EQ(::stat(path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  expect_refused(run_hulhe("export --checkpoint " + dir_ + " --out " + path("s")), "is a directory",
                 "checkpoint directory");
}

TEST_F(RobustnessCli, SolveKeepsExistingCheckpointsAndInputs) {
  const std::string config = kuhn_config();
  const std::string ckpt = path("k.ckpt");
  ASSERT_EQ(run_hulhe("solve --config " + config + " --iterations 100 --checkpoint " + ckpt).status,
            0);
  const std::string first = read(ckpt);
  // A new run without --resume or --overwrite leaves the 100-iteration checkpoint alone.
  expect_refused(run_hulhe("solve --config " + config + " --checkpoint " + ckpt), "--overwrite",
                 "existing checkpoint");
  EXPECT_EQ(read(ckpt), first);
  const HulheRun over =
      run_hulhe("solve --config " + config + " --checkpoint " + ckpt + " --overwrite");
  ASSERT_EQ(over.status, 0) << over.out;
  EXPECT_NE(over.out.find("iterations 1..50"), std::string::npos) << over.out;
  EXPECT_NE(read(ckpt), first);
  EXPECT_EQ(
      run_hulhe("solve --config " + config + " --checkpoint " + ckpt + " --resume --overwrite")
          .status,
      2);
  // The config itself, a directory, a fifo, a missing folder: refused before any work.
  const std::string config_text = read(config);
  expect_refused(run_hulhe("solve --config " + config + " --overwrite --checkpoint " + config),
                 "is the input", "config as checkpoint");
  EXPECT_EQ(read(config), config_text);
  expect_refused(run_hulhe("solve --config " + config + " --overwrite --checkpoint " + dir_),
                 "is a directory", "directory");
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  expect_refused(
      run_hulhe("solve --config " + config + " --overwrite --checkpoint " + path("fifo")),
      "not a regular file", "fifo");
  expect_refused(run_hulhe("solve --config " + config + " --checkpoint " + path("no/x.ckpt")),
                 "cannot create files", "missing folder");
  // Nothing but the files made here is left in the folder (no temporary files).
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir_))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"fifo", "k.ckpt", "kuhn.toml"}));
}

TEST_F(RobustnessCli, SolveOptionsAndConfigValuesAreRangeChecked) {
  const std::string config = kuhn_config();
  const std::string run = "solve --config " + config + " --checkpoint " + path("x.ckpt") + " ";
  expect_refused(run_hulhe(run + "--iterations -1"), "'iterations'", "--iterations -1");
  expect_refused(run_hulhe(run + "--seconds -1"), "'seconds'", "--seconds -1");
  expect_refused(run_hulhe(run + "--seconds nan"), "--seconds", "--seconds nan");
  // Refused when parsed, like every command's --threads (cli/thread_seed_options.h).
  expect_refused(run_hulhe(run + "--threads 100000"), "--threads: threads must be",
                 "--threads 100000");
  expect_refused(run_hulhe(run + "--seed -1"), "seed", "--seed -1");
  for (const std::string& bad :
       {std::string("[parameters]\ndcfr_alpha = nan\n"),
        std::string("[parameters]\ndcfr_gamma = -1.0\n"),
        std::string("[parameters]\ncfr_plus_delay = -9223372036854775808\n"),
        std::string("checkpoint_every_seconds = -inf\n"), std::string("seed = -1\n")}) {
    const std::string c = kuhn_config(bad);
    expect_refused(run_hulhe("solve --config " + c), "kuhn.toml", bad);
  }
  EXPECT_FALSE(std::filesystem::exists(path("x.ckpt")));
}

TEST_F(RobustnessCli, TomlSyntaxErrorsAndDirectoriesNameFileLineAndColumn) {
  const std::string bad = write("bad.toml", "game = \"x.game\"\n\niterations = = 3\n");
  const HulheRun s = run_hulhe("solve --config " + bad);
  expect_refused(s, "bad.toml:3:", "solve syntax error");
  EXPECT_EQ(std::count(s.out.begin(), s.out.end(), '\n'), 1) << s.out;
  expect_refused(run_hulhe("abstract --config " + bad), "bad.toml:3:", "abstract syntax error");
  expect_refused(run_hulhe("solve --config " + dir_), "is a directory", "solve directory");
  expect_refused(run_hulhe("abstract --config " + dir_), "is a directory", "abstract directory");
  expect_refused(run_hulhe("exploit --strategy " + dir_), "is a directory", "strategy directory");
  expect_refused(run_hulhe("exploit --checkpoint " + dir_), "is a directory",
                 "checkpoint directory");
  expect_refused(run_hulhe("solve --config /dev/zero"), "not a regular file", "/dev/zero");
}

TEST_F(RobustnessCli, GameFilesAreBoundedAndRegular) {
  const std::string base =
      "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 4\nblind = 10 5\nraiseSize = 10 10 20 20\n"
      "firstPlayer = 2 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
      "numBoardCards = 0 3 1 1\n";
  int i = 0;
  for (const char* caps : {"", "maxRaises = 0\n", "maxRaises = 1\n", "maxRaises = 255\n"}) {
    std::string text = base;
    text.append(caps).append("END GAMEDEF\n");  // appended: GCC 12 warns falsely on chains of +
    std::string name = std::to_string(i++);
    name += ".game";
    const std::string g = write(name, text);
    expect_refused(run_hulhe("info --game " + g), "maxRaises", caps);
    expect_refused(run_hulhe("exploit --game " + g + " --policy uniform"), "maxRaises", caps);
  }
  expect_refused(run_hulhe("info --game ''"), "empty path", "--game ''");
  expect_refused(run_hulhe("logs --game '' " + path("x.log")), "empty path", "logs --game ''");
  expect_refused(run_hulhe("info --game /dev/urandom"), "not a regular file", "/dev/urandom");
  expect_refused(run_hulhe("info --game " + dir_), "is a directory", "directory");
}

TEST_F(RobustnessCli, NumericOptionsAreRangeChecked) {
  const std::pair<const char*, const char*> cases[] = {
      {"equity AK QQ --threads 100000", "--threads"},
      {"equity AK QQ --threads -1", "--threads"},
      {"equity AK QQ --threads 0", "--threads"},
      {"equity AK QQ --seed -1", "--seed"},
      {"equity AK QQ --seconds 0", "--seconds"},
      {"equity AK QQ --seconds nan", "--seconds"},
      {"equity AK QQ --seconds -1", "--seconds"},
      {"equity AK QQ --stderr 0", "--stderr"},
      {"equity AK QQ --stderr nan", "--stderr"},
      {"equity AK QQ --stderr -0.1", "--stderr"},
      {"abstract --config configs/hulhe-quick.toml --threads 100000", "--threads"},
      {"abstract --config configs/hulhe-quick.toml --seed -1", "--seed"},
      {"exploit --game configs/games/kuhn.game --policy uniform --threads -1", "--threads"},
      {"exploit --game configs/games/kuhn.game --policy uniform --threads 100000", "--threads"},
  };
  for (const auto& [args, fragment] : cases)
    expect_refused(run_hulhe(std::string("") + args), fragment, args);
  // In range: still fine.
  EXPECT_EQ(run_hulhe("equity AhKh QsQd --board Th9h2s --threads 1 --seed 0").status, 0);
}

TEST_F(RobustnessCli, LogsExitStatusesAndEscaping) {
  const std::string log = std::string(HULHE_TEST_DATA_DIR) + "/acpc-holdem.limit.2p.1000hands.log";
  if (std::filesystem::exists(log)) {
    EXPECT_EQ(run_hulhe("logs " + log, false).status, 0);
  }
  const std::string good = "STATE:0:cc/cc/cc/cc:AhKh|2c2d/Js9s3c/4d/5h:-10|10:Alice|Bob\n";
  const std::string wrong = "STATE:1:cc/cc/cc/cc:AhKh|2c2d/Js9s3c/4d/5h:10|-10:Bob|Alice\n";
  EXPECT_EQ(run_hulhe("logs " + write("ok.log", good)).status, 0);
  const HulheRun mismatch = run_hulhe("logs " + write("m.log", good + wrong));
  EXPECT_EQ(mismatch.status, 1) << mismatch.out;
  EXPECT_NE(mismatch.out.find("1 mismatch"), std::string::npos) << mismatch.out;
  // Raw escape sequences, NULs and invalid UTF-8 from the log are escaped, in text and JSON.
  const std::string binary =
      write("b.log", good + std::string("STATE:\x1b[2J\xff\x00junk\n", 17) + "\xc3\x28:garbage\n");
  const HulheRun text = run_hulhe("logs " + binary);
  EXPECT_EQ(text.status, 1) << text.out;
  EXPECT_EQ(text.out.find('\x1b'), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find('\xff'), std::string::npos) << text.out;
  expect_output_has(text, {"\\x1b[2J\\xff", "'\\xc3(:garbage'"});
  const HulheRun json = run_hulhe("logs --json " + binary, false);
  EXPECT_EQ(json.status, 1) << json.out;
  EXPECT_TRUE(nlohmann::json::accept(json.out)) << json.out;
  // Unusable: a directory, an empty log, a log of another game.
  expect_refused(run_hulhe("logs " + dir_), "is a directory", "directory");
  expect_refused(run_hulhe("logs " + write("empty.log", "# nothing\n")), "no STATE lines", "empty");
  const std::string leduc = write("leduc.log",
                                  "STATE:0:cc/cc:Ks|Qs/Ah:0|0:A|B\n"
                                  "STATE:1:rc/cc:Qs|Ks/Ah:0|0:B|A\n");
  expect_refused(run_hulhe("logs " + leduc), "another game", "Leduc log as hold'em");
}

TEST_F(RobustnessCli, JsonOutputSurvivesNonUtf8FileNames) {
  const std::string name = path("g\xff\xfe.game");
  std::filesystem::copy_file(kGames + "kuhn.game", name);
  const HulheRun info = run_hulhe("info --json --game '" + name + "'", false);
  ASSERT_EQ(info.status, 0) << info.out;
  const auto j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["game"], "g\xef\xbf\xbd\xef\xbf\xbd");  // U+FFFD twice
}

}  // namespace
