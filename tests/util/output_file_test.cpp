#include "util/output_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using namespace testing;  // TempFolder, slurp, spit, error_of, FileSizeLimit

TEST(OutputFile, WritesReplacesAndLeavesNoTemporaryFile) {
  TempFolder dir;
  const std::string path = dir / "out.bin";
  write_output_file(path, "test file", {"abc", std::string_view("\0de", 3)});
  EXPECT_EQ(slurp(path), std::string("abc\0de", 6));
  write_output_file(path, "test file", {"second"});
  EXPECT_EQ(slurp(path), "second");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.bin"});
}

TEST(OutputFile, NewFilesFollowTheUmaskExistingFilesKeepTheirMode) {
  TempFolder dir;
  const mode_t old = ::umask(022);
  write_output_file(dir / "new", "test file", {"x"});
  ::umask(old);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "new").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644U);
  ASSERT_EQ(::chmod((dir / "new").c_str(), 0600), 0);
  write_output_file(dir / "new", "test file", {"y"});
  ASSERT_EQ(::stat((dir / "new").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600U);
}

TEST(OutputFile, RefusesDirectoriesDevicesAndEmptyPaths) {
  TempFolder dir;
  EXPECT_NE(error_of([&] { check_output_path(dir.path(), "checkpoint"); }).find("is a directory"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] { write_output_file(dir.path(), "checkpoint", {"x"}); }).find("is a directory"),
      std::string::npos);
  for (const char* device : {"/dev/null", "/dev/full"}) {
    const std::string e = error_of([&] { write_output_file(device, "checkpoint", {"x"}); });
    EXPECT_NE(e.find("not a regular file"), std::string::npos) << device << ": " << e;
    struct stat st {};
    ASSERT_EQ(::stat(device, &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << device << " was replaced";
  }
  const std::string fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(error_of([&] { check_output_path(fifo, "checkpoint"); }).find("not a regular file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_output_path("", "checkpoint"); }).find("empty path"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              check_output_path(dir / "no/such/folder/x", "checkpoint");
            }).find("cannot create files in folder"),
            std::string::npos);
}

TEST(OutputFile, RefusesAnInputBySameInodeOrSamePath) {
  TempFolder dir;
  const std::string input = dir / "config.toml";
  spit(input, "game = 1\n");
  // The same file under another spelling, a hard link and a symbolic link.
  const std::string spelled = dir.path() + "/./" + "config.toml";
  ASSERT_EQ(::link(input.c_str(), (dir / "hard").c_str()), 0);
  ASSERT_EQ(::symlink(input.c_str(), (dir / "soft").c_str()), 0);
  for (const std::string& out : {input, spelled, dir / "hard", dir / "soft"}) {
    const std::string e = error_of([&] { check_output_path(out, "checkpoint", {input}); });
    EXPECT_NE(e.find("is the input"), std::string::npos) << out << ": " << e;
  }
  EXPECT_EQ(slurp(input), "game = 1\n");
  // Two paths of a file that does not exist yet.
  const std::string e = error_of([&] {
    check_output_path(dir / "new.ckpt", "checkpoint",
                      {dir.path() + "/../" + std::filesystem::path(dir.path()).filename().string() +
                       "/new.ckpt"});
  });
  EXPECT_NE(e.find("is the input"), std::string::npos) << e;
  // Another file, and empty input paths, are fine; the check leaves nothing behind.
  EXPECT_EQ(error_of([&] { check_output_path(dir / "other", "checkpoint", {input, ""}); }), "");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"config.toml", "hard", "soft"}));
}

TEST(OutputFile, AFailedWriteKeepsTheOldFileAndRemovesItsTemporaryFile) {
  TempFolder dir;
  const std::string path = dir / "out.bin";
  spit(path, "old content");
  const std::string big(100000, 'x');
  const std::string e = error_on_a_full_disk([&] { write_output_file(path, "checkpoint", {big}); });
  EXPECT_NE(e.find("cannot write checkpoint"), std::string::npos) << e;
  EXPECT_EQ(slurp(path), "old content");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.bin"});
}

}  // namespace
}  // namespace hulhe
