// The README and docs/*.md stay true: every example command in them
// (tests/cli/readme_examples.h gives the convention) is run, each page's examples in order in
// a fresh folder, and what it prints must match the page with only timings, rates, dates and
// the folder's path masked. A changed number fails this test; long runs are skipped by an
// explicit marker in the page.
#include "tests/cli/readme_examples.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

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
  // Timed progress lines (those with an ETA) are left out: a slower build prints more. Their
  // shapes are compared instead: the same numbers' places, whatever the numbers.
  EXPECT_EQ(mask_timings(a, ""), mask_timings(a.substr(a.find('\n') + 1), ""));
  EXPECT_EQ(readme::eta_line_shapes(a, ""), readme::eta_line_shapes(b, ""));
  EXPECT_EQ(readme::eta_line_shapes(a, ""),
            std::set<std::string>{"iteration #/# · <rate> · elapsed <time> · ETA <time> · "
                                  "exploitability #"});
  EXPECT_NE(readme::eta_line_shapes(a, ""),
            readme::eta_line_shapes("iteration 1000 · 4719 it/s · elapsed 0.2s · ETA 0.8s", ""));
  // A changed number is a difference.
  EXPECT_NE(mask_timings(a, ""),
            mask_timings(std::string(a).replace(a.find(":1000"), 5, ":1001"), ""));
  EXPECT_NE(mask_timings("{\"hands\":1000}", ""), mask_timings("{\"hands\":1001}", ""));
}

TEST(ReadmeExamples, ChecksTheReadmeAndEveryDocsPage) {
  const auto pages = readme::markdown_files(HULHE_SOURCE_DIR);
  ASSERT_FALSE(pages.empty());
  EXPECT_EQ(pages.front(), "README.md");
  for (const char* page : {"docs/commands.md", "docs/robustness.md", "docs/DESIGN.md"})
    EXPECT_NE(std::find(pages.begin(), pages.end(), page), pages.end()) << page;
  EXPECT_TRUE(std::is_sorted(pages.begin() + 1, pages.end()));
}

// Runs the examples of one markdown file (`page`, relative to the source folder) in order,
// in a fresh folder of their own, so later examples use files earlier ones wrote. Failures
// name the page and the line.
void check_page(const std::string& source, const std::string& page, int& checked, int& skipped) {
  std::ifstream in(source + "/" + page);
  ASSERT_TRUE(in) << page;
  std::stringstream text;
  text << in.rdbuf();
  const auto blocks = parse_blocks(text.str());
  if (blocks.empty()) return;

  const hulhe::testing::TempFolder dir;  // removed with everything in it, failures included
  const std::string folder = std::filesystem::canonical(dir.path()).string();
  namespace fs = std::filesystem;
  fs::create_directories(folder + "/.bin");
  fs::create_symlink(HULHE_BINARY, folder + "/.bin/hulhe");
  // The inputs the examples name, read-only through links: configs/ and tests/data/.
  fs::create_symlink(source + "/configs", folder + "/configs");
  fs::create_directories(folder + "/tests");
  fs::create_symlink(source + "/tests/data", folder + "/tests/data");

  for (const Block& block : blocks) {
    if (!block.skip.empty()) {
      skipped += static_cast<int>(block.examples.size() + block.unsupported.size());
      continue;
    }
    for (const std::string& command : block.unsupported)
      ADD_FAILURE() << page << ":" << block.line << ": '$ " << command
                    << "' is not a hulhe command: add <!-- readme-test: skip (why) --> before "
                       "the block";
    for (const std::string& setup : block.setup) {
      const Ran r = run_in(folder, setup);
      ASSERT_EQ(r.status, 0) << page << ":" << block.line << ": setup '" << setup << "'\n" << r.out;
    }
    int previous_status = 0;
    for (const readme::Example& e : block.examples) {
      ++checked;
      if (e.command == "echo $?") {
        EXPECT_EQ(std::to_string(previous_status) + "\n", e.expected)
            << page << ":" << e.line << ": exit status";
        continue;
      }
      const Ran r = run_in(folder, e.command);
      previous_status = r.status;
      EXPECT_EQ(mask_timings(r.out, folder), mask_timings(e.expected, folder))
          << page << ":" << e.line << ": $ " << e.command;
      if (const auto shown = readme::eta_line_shapes(e.expected, folder); !shown.empty()) {
        for (const std::string& shape : readme::eta_line_shapes(r.out, folder)) {
          EXPECT_TRUE(shown.count(shape))
              << page << ":" << e.line << ": $ " << e.command << ": a progress line '" << shape
              << "' of a shape the page does not show";
        }
      }
      if (e.status) {
        EXPECT_EQ(r.status, *e.status) << page << ":" << e.line << ": $ " << e.command;
      }
    }
  }
}

TEST(ReadmeExamples, EveryUnskippedExamplePrintsWhatTheDocsSay) {
  const std::string source = HULHE_SOURCE_DIR;
  int checked = 0, skipped = 0;
  for (const std::string& page : readme::markdown_files(source)) {
    const int checked_before = checked, skipped_before = skipped;
    check_page(source, page, checked, skipped);
    if (checked > checked_before || skipped > skipped_before)
      std::printf("%s: %d examples checked, %d skipped\n", page.c_str(), checked - checked_before,
                  skipped - skipped_before);
  }
  EXPECT_GE(checked, 15) << "too few examples checked";
  std::printf("examples in README.md and docs/*.md: %d checked, %d skipped\n", checked, skipped);
}

}  // namespace
}  // namespace hulhe
