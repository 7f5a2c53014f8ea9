// PipelineRun end to end on HULHE, small enough for a test: a bucket map made from the hand
// index (tests/support/hulhe_fixtures.h) stands in for a built one (stage 1 reuses it, as
// it reuses any map built from the config's description), a one-second solve, an export and a
// one-flop real-game best response. The observer must see every stage in order, and the
// report, the curve and the JSON file must say the same.
#include "pipeline/pipeline_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "pipeline/pipeline_config.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using testing::TempFolder;

// Every callback as one word, in order; repeated progress reports count once in a row.
class RecordingObserver final : public PipelineObserver {
 public:
  std::vector<std::string> events;
  bool resumed = false;
  void abstraction_reused(const std::string&) override { add("reused"); }
  void abstraction_building(const std::string&, int) override { add("building"); }
  void solve_started(const SolverRun&, bool r) override {
    resumed = r;
    add("solve");
  }
  void solve_progress(const SolverRun&, const SolveProgress&) override { add("progress"); }
  void estimate_done(const CurvePoint&, int, double) override { add("estimate"); }
  void exported(const std::string&, std::uint64_t, int, double) override { add("exported"); }
  void evaluation_started(bool exact, int flops) override {
    EXPECT_FALSE(exact);
    EXPECT_EQ(flops, 1);
    add("evaluate");
  }

 private:
  void add(const std::string& e) {
    if (events.empty() || events.back() != e) events.push_back(e);
  }
};

std::string config_text(const TempFolder& dir, const std::string& game) {
  std::ostringstream s;
  s << "game = \"" << HULHE_SOURCE_DIR << "/configs/games/" << game << "\"\n"
    << "seed = 1\noutput = \"" << (dir / "map.buckets") << "\"\n"
    << "[preflop]\nmethod = \"lossless\"\n"
    << "[flop]\nmethod = \"ehs\"\nbuckets = 8\n"
    << "[turn]\nmethod = \"ehs\"\nbuckets = 8\n"
    << "[river]\nmethod = \"ehs\"\nbuckets = 8\n"
    << "[solve]\nalgorithm = \"external\"\niterations = 2000000000\nseconds = 1\nthreads = 1\n"
    << "checkpoint = \"" << (dir / "run.ckpt") << "\"\nprogress_every_seconds = 0.2\n"
    << "[export]\nstrategy = \"" << (dir / "run.strategy") << "\"\nbits = 8\n"
    << "[evaluate]\nflops = 1\nevery_seconds = 0.5\nseed = 1\n"
    << "curve = \"" << (dir / "curve.csv") << "\"\nplot = \"\"\nreport = \""
    << (dir / "report.json") << "\"\n";
  return s.str();
}

TEST(PipelineRunSlow, EveryStageReportsInOrderAndTheFilesAgree) {
  const TempFolder dir;
  testing::spit(dir / "run.toml", config_text(dir, "holdem.limit.2p.reverse_blinds.game"));
  PipelineConfig config = PipelineConfig::from_file(dir / "run.toml");
  {
    const GameDefinition game = GameDefinition::from_file(config.solve.game_path);
    auto map =
        std::const_pointer_cast<BucketMap>(testing::index_hash_bucket_map(game, {169, 8, 8, 8}));
    map->source_hash = config.abstraction.hash();
    map->save(config.abstraction.output);
  }

  RecordingObserver seen;
  const PipelineReport r = PipelineRun(config).run(seen);
  ASSERT_GE(seen.events.size(), 6u);
  EXPECT_EQ(seen.events.front(), "reused");
  EXPECT_EQ(seen.events[1], "solve");
  EXPECT_FALSE(seen.resumed);
  const std::vector<std::string> tail(seen.events.end() - 2, seen.events.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"exported", "evaluate"}));
  EXPECT_NE(std::find(seen.events.begin(), seen.events.end(), "progress"), seen.events.end());

  EXPECT_FALSE(r.solve.summary.interrupted);
  EXPECT_EQ(r.solve.summary.first_iteration, 1);
  EXPECT_GT(r.solve.summary.iterations, 1000);
  ASSERT_TRUE(r.evaluation.has_value());
  EXPECT_GT(r.to_mbb(r.evaluation->mean), 0.0);
  ASSERT_FALSE(r.curve.empty());
  EXPECT_DOUBLE_EQ(r.curve.back().mbb, r.to_mbb(r.evaluation->mean));
  EXPECT_EQ(r.curve.back().iterations, r.solve.summary.iterations);
  // One CSV line per curve point; the JSON file is the report.
  const std::string csv = testing::slurp(dir / "curve.csv");
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), r.curve.size() + 1);
  // (Compared as text: one flop gives no interval, NaN, which JSON writes as null.)
  EXPECT_EQ(nlohmann::json::parse(testing::slurp(dir / "report.json")).dump(), r.to_json().dump());
  EXPECT_EQ(r.to_json()["evaluation"]["flops"], 1);

  // A second run of the same config resumes the checkpoint.
  RecordingObserver again;
  const PipelineReport r2 = PipelineRun(config).run(again);
  EXPECT_TRUE(again.resumed);
  EXPECT_EQ(r2.solve.summary.first_iteration, r.solve.summary.iterations + 1);
}

// A board of one card a round is not hold'em: refused before any map is built (it once
// built one, then crashed in the solver reading past the board).
TEST(PipelineRun, RefusesAGameThatIsNotHoldem) {
  const TempFolder dir;
  testing::spit(dir / "run.toml", config_text(dir, "holdem.limit.2p.12card.4rounds.game"));
  const PipelineConfig config = PipelineConfig::from_file(dir / "run.toml");
  const std::string e = testing::error_of([&] { PipelineRun run(config); });
  EXPECT_NE(e.find("is not two-player hold'em"), std::string::npos) << e;
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"run.toml"});
}

}  // namespace
}  // namespace hulhe
