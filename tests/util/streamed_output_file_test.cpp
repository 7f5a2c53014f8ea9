// StreamedOutputFile: a temporary file beside the target until commit, nothing changed on a
// failure or without commit, write errors reported, non-regular targets refused, and the
// temporary files of killed runs removed by the next commit (and nothing else).
#include "util/streamed_output_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"
#include "util/output_file.h"

namespace hulhe {
namespace {

using namespace testing;  // TempFolder, slurp, spit, error_of, FileSizeLimit

// The folder's entries other than `keep`: the temporary files.
std::vector<std::string> others(const TempFolder& dir, const std::vector<std::string>& keep) {
  std::vector<std::string> rest;
  for (const std::string& e : dir.entries())
    if (std::find(keep.begin(), keep.end(), e) == keep.end()) rest.push_back(e);
  return rest;
}

TEST(StreamedOutputFile, TheTargetChangesOnlyAtCommit) {
  TempFolder dir;
  const std::string path = dir / "match.log";
  spit(path, "old log\n");
  StreamedOutputFile out(path, "log");
  out.stream() << "STATE:0\n" << std::flush;
  EXPECT_EQ(slurp(path), "old log\n");
  const std::vector<std::string> tmp = others(dir, {"match.log"});
  ASSERT_EQ(tmp.size(), 1U);
  EXPECT_EQ(tmp[0].rfind("match.log.tmp-", 0), 0U) << tmp[0];
  out.stream() << "STATE:1\n";
  out.commit();
  EXPECT_EQ(slurp(path), "STATE:0\nSTATE:1\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"match.log"});
}

TEST(StreamedOutputFile, WithoutCommitNothingChangesAndNothingIsLeft) {
  TempFolder dir;
  const std::string path = dir / "keep.txt";
  spit(path, "keep me");
  {
    StreamedOutputFile out(path, "log");
    out.stream() << "lines of a run that failed\n";
  }
  EXPECT_EQ(slurp(path), "keep me");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.txt"});
  { StreamedOutputFile out(dir / "new.txt", "log"); }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.txt"});
}

TEST(StreamedOutputFile, KeepIfNewNeverReplacesAFile) {
  TempFolder dir;
  spit(dir / "old.log", "old");
  {
    StreamedOutputFile out(dir / "old.log", "log");
    out.stream() << "partial";
    EXPECT_FALSE(out.keep_if_new());
  }
  EXPECT_EQ(slurp(dir / "old.log"), "old");
  {
    StreamedOutputFile out(dir / "new.log", "log");
    out.stream() << "partial";
    EXPECT_TRUE(out.keep_if_new());
  }
  EXPECT_EQ(slurp(dir / "new.log"), "partial");
  {
    StreamedOutputFile out(dir / "empty.log", "log");  // nothing worth keeping
    EXPECT_FALSE(out.keep_if_new());
  }
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"new.log", "old.log"}));
}

TEST(StreamedOutputFile, RefusesNonRegularFilesInputsAndHardLinksBeforeWriting) {
  TempFolder dir;
  const std::string fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string e = error_of([&] { StreamedOutputFile(fifo, "log"); });
  EXPECT_NE(e.find("not a regular file"), std::string::npos) << e;
  e = error_of([&] { StreamedOutputFile(fifo, "log", {}, DashMeans::kStandardOutput); });
  EXPECT_NE(e.find("'-' writes to the standard output"), std::string::npos) << e;
  e = error_of([&] { StreamedOutputFile("/dev/full", "log", {}, DashMeans::kStandardOutput); });
  EXPECT_NE(e.find("not a regular file"), std::string::npos) << e;
  e = error_of([&] { StreamedOutputFile(dir.path(), "log"); });
  EXPECT_NE(e.find("is a directory"), std::string::npos) << e;
  const std::string input = dir / "s.strategy";
  spit(input, "strategy");
  ASSERT_EQ(::link(input.c_str(), (dir / "s.hard").c_str()), 0);
  e = error_of([&] { StreamedOutputFile(dir / "s.hard", "log", {input}); });
  EXPECT_NE(e.find("is the input"), std::string::npos) << e;
  EXPECT_EQ(slurp(input), "strategy");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"fifo", "s.hard", "s.strategy"}));
}

TEST(StreamedOutputFile, AFailedWriteIsReportedAndKeepsTheOldFile) {
  TempFolder dir;
  const std::string path = dir / "out.log";
  spit(path, "old content");
  bool failed = false;
  const std::string e = error_on_a_full_disk([&] {
    StreamedOutputFile out(path, "log");
    for (int i = 0; i < 10000; ++i) out.stream() << "STATE:" << i << ":cc:Kh|Qs:0|0:a|b\n";
    out.stream().flush();
    failed = out.failed();
    out.commit();
  });
  EXPECT_TRUE(failed);
  EXPECT_NE(e.find("cannot write log '" + path + "': write failed"), std::string::npos) << e;
  EXPECT_NE(e.find("File too large"), std::string::npos) << e;
  EXPECT_EQ(slurp(path), "old content");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.log"});
}

TEST(StreamedOutputFile, DashIsTheStandardOutputOnlyWhenAllowed) {
  TempFolder dir;
  const std::string saved_cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  {
    StreamedOutputFile out("-", "strategy file");  // a file named "-"
    EXPECT_FALSE(out.is_standard_output());
    out.stream() << "x";
    out.commit();
  }
  EXPECT_EQ(slurp(dir / "-"), "x");
  {
    StreamedOutputFile out("-", "log", {}, DashMeans::kStandardOutput);
    EXPECT_TRUE(out.is_standard_output());
    out.commit();  // nothing written: nothing to report
  }
  std::filesystem::current_path(saved_cwd);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"-"});
}

TEST(StreamedOutputFile, ACommitRemovesTheStaleTemporariesOfItsTargetOnly) {
  TempFolder dir;
  const std::string path = dir / "run.ckpt";
  // Left by killed writers of run.ckpt: removed.
  for (const char* stale : {"run.ckpt.tmp-AbC123", "run.ckpt.tmp-zzzzzz"})
    spit(dir / stale, "half a checkpoint");
  // Everything else stays: other targets, other suffix lengths or characters, a folder, a
  // symbolic link and a fifo of the pattern, and the user's own files.
  const std::vector<std::string> kept = {"other.ckpt.tmp-AbC123", "run.ckpt.tmp-AbC12",
                                         "run.ckpt.tmp-AbC1234",  "run.ckpt.tmp-AbC-23",
                                         "run.ckpt.tmp-dir123",   "run.ckpt.tmp-link12",
                                         "run.ckpt.tmp-fifo12",   "xrun.ckpt.tmp-AbC123",
                                         "run.ckpt.tmp",          "run.ckpt.bak"};
  for (const std::string& name : kept)
    if (name != "run.ckpt.tmp-dir123" && name != "run.ckpt.tmp-link12" &&
        name != "run.ckpt.tmp-fifo12")
      spit(dir / name, "keep");
  ASSERT_TRUE(std::filesystem::create_directory(dir / "run.ckpt.tmp-dir123"));
  spit(dir / "target", "target of the link");
  ASSERT_EQ(::symlink((dir / "target").c_str(), (dir / "run.ckpt.tmp-link12").c_str()), 0);
  ASSERT_EQ(::mkfifo((dir / "run.ckpt.tmp-fifo12").c_str(), 0600), 0);

  write_output_file(path, "checkpoint", {"new"});
  EXPECT_EQ(slurp(path), "new");
  std::vector<std::string> expected = kept;
  expected.push_back("run.ckpt");
  expected.push_back("target");
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(dir.entries(), expected);
  EXPECT_EQ(slurp(dir / "target"), "target of the link");
  // An output that is not committed (a failed run) removes nothing.
  spit(dir / "run.ckpt.tmp-Qq0000", "stale");
  {
    StreamedOutputFile out(path, "checkpoint");
    out.stream() << "x";
  }
  EXPECT_EQ(slurp(dir / "run.ckpt.tmp-Qq0000"), "stale");
  EXPECT_EQ(slurp(path), "new");
}

}  // namespace
}  // namespace hulhe
