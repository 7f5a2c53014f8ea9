#include "util/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "game/game_definition.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using testing::error_of;

using testing::TempFolder;

TEST(InputFile, ReadsRegularFilesWithinTheBound) {
  TempFolder dir;
  std::ofstream(dir / "a.txt", std::ios::binary) << std::string("hello\0world", 11);
  EXPECT_EQ(read_input_file(dir / "a.txt", "test file", 11), std::string("hello\0world", 11));
  const std::string e = error_of([&] { read_input_file(dir / "a.txt", "test file", 10); });
  EXPECT_NE(e.find("more than the 10"), std::string::npos) << e;
}

TEST(InputFile, RefusesDirectoriesDevicesFifosMissingAndEmptyPaths) {
  TempFolder dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  const std::pair<std::string, const char*> cases[] = {
      {dir.path(), "is a directory"},
      {"/dev/urandom", "not a regular file"},
      {"/dev/null", "not a regular file"},
      {dir / "fifo", "not a regular file"},  // would block forever if opened
      {dir / "missing", "cannot read"},
      {"", "empty path"},
  };
  for (const auto& test_case : cases) {
    const std::string& path = test_case.first;  // a lambda cannot capture a structured binding
    const char* expected = test_case.second;    // in clang 14
    const std::string a = error_of([&] { read_input_file(path, "game definition", 1 << 20); });
    EXPECT_NE(a.find(expected), std::string::npos) << path << ": " << a;
    const std::string b = error_of([&] { require_input_file(path, "checkpoint"); });
    EXPECT_NE(b.find(expected), std::string::npos) << path << ": " << b;
    const std::string c = error_of([&] { GameDefinition::from_file(path); });
    EXPECT_NE(c.find(expected), std::string::npos) << path << ": " << c;
  }
}

}  // namespace
}  // namespace hulhe
