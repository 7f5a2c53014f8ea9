// A pipeline config's [export] table: thresholding and purification
// (abstraction/strategy_thinning.h) are read and checked with messages naming file and key,
// and the last strategy's file `<strategy>.last` is one of the run's outputs.
#include "pipeline/pipeline_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"

namespace hulhe {
namespace {

using testing::TempFolder;

// A pipeline config with `export_lines` in its [export] table.
std::string write_config(const TempFolder& dir, const std::string& export_lines) {
  const std::string path = dir / "run.toml";
  testing::spit(path, "game = \"" + std::string(HULHE_SOURCE_DIR) +
                          "/configs/games/holdem.limit.2p.reverse_blinds.game\"\n"
                          "seed = 1\noutput = \"" +
                          (dir / "map.buckets") +
                          "\"\n"
                          "[preflop]\nmethod = \"lossless\"\n"
                          "[flop]\nmethod = \"ehs\"\nbuckets = 8\n"
                          "[turn]\nmethod = \"ehs\"\nbuckets = 8\n"
                          "[river]\nmethod = \"ehs\"\nbuckets = 8\n"
                          "[solve]\nalgorithm = \"external\"\nseconds = 1\n"
                          "[export]\nstrategy = \"" +
                          (dir / "run.strategy") + "\"\n" + export_lines);
  return path;
}

TEST(PipelineConfigExport, ReadsThresholdAndPurify) {
  const TempFolder dir;
  const PipelineConfig plain = PipelineConfig::from_file(write_config(dir, ""));
  EXPECT_FALSE(plain.exports.thinning.active());
  const PipelineConfig t = PipelineConfig::from_file(write_config(dir, "threshold = 0.15\n"));
  EXPECT_EQ(t.exports.thinning.kind, StrategyThinning::Kind::kThreshold);
  EXPECT_EQ(t.exports.thinning.threshold, 0.15);
  const PipelineConfig p = PipelineConfig::from_file(write_config(dir, "purify = true\n"));
  EXPECT_EQ(p.exports.thinning.kind, StrategyThinning::Kind::kPurify);
  const PipelineConfig off = PipelineConfig::from_file(write_config(dir, "purify = false\n"));
  EXPECT_FALSE(off.exports.thinning.active());
  const PipelineConfig both =
      PipelineConfig::from_file(write_config(dir, "purify = false\nthreshold = 0.3\n"));
  EXPECT_EQ(both.exports.thinning.threshold, 0.3);
}

TEST(PipelineConfigExport, RefusesABadThresholdOrBothThinnings) {
  const TempFolder dir;
  const std::string path = dir / "run.toml";
  struct Case {
    std::string lines, message;
  };
  const std::vector<Case> cases = {
      {"threshold = 0\n", ": 'export.threshold' must be a number in (0, 1)"},
      {"threshold = 1\n", ": 'export.threshold' must be a number in (0, 1)"},
      {"threshold = 1.5\n", ": 'export.threshold' must be a number in (0, 1)"},
      {"threshold = -0.1\n", ": 'export.threshold' must be a number in (0, 1)"},
      {"threshold = nan\n", ": 'export.threshold' must be a number in (0, 1)"},
      {"threshold = \"0.15\"\n", ": key 'threshold' has the wrong type"},
      {"purify = 1\n", ": key 'purify' has the wrong type"},
      {"threshold = 0.15\npurify = true\n",
       ": 'export.threshold' and 'export.purify' exclude each other; give one"},
      {"purge = true\n", ": unknown key 'export.purge'"},
  };
  for (const Case& c : cases) {
    write_config(dir, c.lines);
    EXPECT_EQ(testing::error_of([&] { PipelineConfig::from_file(path); }), path + c.message)
        << c.lines;
  }
}

// `compact = true` needs an OCHS river: the player recomputes river buckets from its centres.
TEST(PipelineConfigExport, CompactNeedsAnOchsRiver) {
  const TempFolder dir;
  EXPECT_FALSE(PipelineConfig::from_file(write_config(dir, "")).exports.compact);
  const std::string path = write_config(dir, "compact = true\n");
  EXPECT_EQ(testing::error_of([&] { PipelineConfig::from_file(path); }),
            path +
                ": 'export.compact' needs an OCHS river ([river] method = \"ochs\"): the "
                "player computes river buckets from its centres");
  std::string text = testing::slurp(path);
  const std::string ehs_river = "[river]\nmethod = \"ehs\"";
  text.replace(text.find(ehs_river), ehs_river.size(), "[river]\nmethod = \"ochs\"");
  testing::spit(path, text);
  EXPECT_TRUE(PipelineConfig::from_file(path).exports.compact);
}

TEST(PipelineConfigExport, TheLastStrategyFileIsAnOutput) {
  const TempFolder dir;
  const PipelineConfig c = PipelineConfig::from_file(write_config(dir, ""));
  EXPECT_EQ(c.exports.last_strategy(), dir / "run.strategy.last");
  const std::vector<PipelineFile> out = c.outputs();
  EXPECT_TRUE(std::any_of(out.begin(), out.end(), [&](const PipelineFile& f) {
    return f.what == "last strategy file" && f.path == dir / "run.strategy.last";
  }));
}

}  // namespace
}  // namespace hulhe
