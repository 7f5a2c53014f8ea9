// The README stays true: every example command in it (tests/cli/readme_examples.h gives the
// convention) is run in a fresh folder, in README order, and what it prints must match the
// README with only timings, rates, dates and the folder's path masked. A changed number
// fails this test; long runs are skipped by an explicit marker in the README.
#include "tests/cli/readme_examples.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/cli/run_hulhe.h"

namespace hulhe {
namespace {

using readme::Block;
using readme::mask_timings;
using readme::parse_blocks;

using Ran = cli_test::HulheRun;

// `command` through the shell in `folder`, with `hulhe` on the PATH, stdout and stderr.
Ran run_in(const std::string& folder, const std::string& command) {
  std::string quoted;  // the command inside single quotes
  for (char c : command) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return cli_test::run_shell("cd '" + folder + "' && PATH='" + folder +
                             "/.bin':\"$PATH\" timeout 300 " + "sh -c '" + quoted + "' 2>&1");
}

TEST(ReadmeExamples, ParsesCommandsOutputsMarkersAndStatuses) {
  const std::string md =
      "text\n```\nusage line\n$ hulhe a --x\nout 1\n$ hulhe b\nhulhe: error: no (exit status 2)\n"
      "$ echo $?\n2\n```\n<!-- readme-test: skip (slow) -->\n```\n$ hulhe run\n```\n"
      "<!-- readme-test: setup touch f -->\n```\n$ cd x && make\n```\n```\nno commands\n```\n";
  const auto blocks = parse_blocks(md);
  ASSERT_EQ(blocks.size(), 3u);
  ASSERT_EQ(blocks[0].examples.size(), 3u);
  EXPECT_EQ(blocks[0].line, 2);
  EXPECT_EQ(blocks[0].examples[0].command, "hulhe a --x");
  EXPECT_EQ(blocks[0].examples[0].expected, "out 1\n");
  EXPECT_EQ(blocks[0].examples[0].line, 4);
  EXPECT_FALSE(blocks[0].examples[0].status.has_value());
  EXPECT_EQ(blocks[0].examples[1].expected, "hulhe: error: no\n");
  EXPECT_EQ(blocks[0].examples[1].status, 2);
  EXPECT_EQ(blocks[0].examples[2].command, "echo $?");
  EXPECT_EQ(blocks[1].skip, " (slow) -->");
  EXPECT_EQ(blocks[2].setup, std::vector<std::string>{"touch f"});
  EXPECT_EQ(blocks[2].unsupported, std::vector<std::string>{"cd x && make"});
}

TEST(ReadmeExamples, MasksTimingsButNotOtherNumbers) {
  const std::string a =
      "iteration 1000/5000 · 4719 it/s · elapsed 0.2s · ETA 0.8s · exploitability 2.384e-04\n"
      "solved in 1.0s (4923 it/s), 12,345 hands/s, 1h02m, 3m05s, 12 ms at 2024-05-01 10:00:03\n"
      "{\"seconds\":1.25,\"hands\":1000,\"eta_seconds\":3} in /tmp/abc/x.ckpt   \n\n";
  const std::string b =
      "iteration 1000/5000 · 911 it/s · elapsed 1.7s · ETA 12.0s · exploitability 2.384e-04\n"
      "solved in 9.5s (12 it/s), 99 hands/s, 0h01m, 0m59s, 7 ms at 2025-12-31 23:59:59\n"
      "{\"seconds\":10,\"hands\":1000,\"eta_seconds\":0.5} in /tmp/abc/x.ckpt\n";
  EXPECT_EQ(mask_timings(a, "/tmp/abc"), mask_timings(b, "/tmp/abc"));
  EXPECT_EQ(mask_timings("1000 hands, 0 mismatches, 3 streets, 5 s\n", ""),
            "1000 hands, 0 mismatches, 3 streets, <time>\n");
  // Timed progress lines (those with an ETA) are left out: a slower build prints more.
  EXPECT_EQ(mask_timings(a, ""), mask_timings(a.substr(a.find('\n') + 1), ""));
  // A changed number is a difference.
  EXPECT_NE(mask_timings(a, ""),
            mask_timings(std::string(a).replace(a.find(":1000"), 5, ":1001"), ""));
  EXPECT_NE(mask_timings("{\"hands\":1000}", ""), mask_timings("{\"hands\":1001}", ""));
}

TEST(ReadmeExamples, EveryUnskippedExamplePrintsWhatTheReadmeSays) {
  const std::string source = HULHE_SOURCE_DIR;
  std::ifstream in(source + "/README.md");
  ASSERT_TRUE(in) << "README.md";
  std::stringstream text;
  text << in.rdbuf();
  const auto blocks = parse_blocks(text.str());

  std::string pattern = testing::TempDir() + "/hulhe_readme_XXXXXX";
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  const std::string folder = std::filesystem::canonical(pattern).string();
  namespace fs = std::filesystem;
  fs::create_directories(folder + "/.bin");
  fs::create_symlink(HULHE_BINARY, folder + "/.bin/hulhe");
  // The inputs the examples name, read-only through links: configs/ and tests/data/.
  fs::create_symlink(source + "/configs", folder + "/configs");
  fs::create_directories(folder + "/tests");
  fs::create_symlink(source + "/tests/data", folder + "/tests/data");

  int checked = 0, skipped = 0;
  for (const Block& block : blocks) {
    if (!block.skip.empty()) {
      skipped += static_cast<int>(block.examples.size() + block.unsupported.size());
      continue;
    }
    for (const std::string& command : block.unsupported)
      ADD_FAILURE() << "README.md:" << block.line << ": '$ " << command
                    << "' is not a hulhe command: add <!-- readme-test: skip (why) --> before "
                       "the block";
    for (const std::string& setup : block.setup) {
      const Ran r = run_in(folder, setup);
      ASSERT_EQ(r.status, 0) << "README.md:" << block.line << ": setup '" << setup << "'\n"
                             << r.out;
    }
    int previous_status = 0;
    for (const readme::Example& e : block.examples) {
      ++checked;
      if (e.command == "echo $?") {
        EXPECT_EQ(std::to_string(previous_status) + "\n", e.expected)
            << "README.md:" << e.line << ": exit status";
        continue;
      }
      const Ran r = run_in(folder, e.command);
      previous_status = r.status;
      EXPECT_EQ(mask_timings(r.out, folder), mask_timings(e.expected, folder))
          << "README.md:" << e.line << ": $ " << e.command;
      if (e.status) {
        EXPECT_EQ(r.status, *e.status) << "README.md:" << e.line << ": $ " << e.command;
      }
    }
  }
  std::error_code ec;
  fs::remove_all(folder, ec);
  EXPECT_GE(checked, 15) << "too few README examples checked";
  std::printf("README examples: %d checked, %d skipped\n", checked, skipped);
}

}  // namespace
}  // namespace hulhe
