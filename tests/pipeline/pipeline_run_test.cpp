// PipelineRun end to end on HULHE, small enough for a test: a bucket map made from the hand
// index (tests/support/hulhe_fixtures.h) stands in for a built one (stage 1 reuses it, as
// it reuses any map built from the config's description), a one-second solve, an export and a
// one-flop real-game best response. The observer must see every stage in order, and the
// report, the curve and the JSON file must say the same. With scripted estimates in place of
// the best responses (PipelineRun::use_estimator), the strategy file must keep the strategy
// of the lowest estimate, and the end must estimate once.
#include "pipeline/pipeline_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "pipeline/pipeline_config.h"
#include "strategy_files/strategy_file.h"
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
  void solve_progress(const SolverRun&, const Progress&) override { add("progress"); }
  void estimate_done(const CurvePoint&, int, double) override { add("estimate"); }
  void exported(const std::string&, std::uint64_t, int, double) override { add("exported"); }
  void evaluation_started(bool exact, int flops) override {
    EXPECT_FALSE(exact);
    EXPECT_EQ(flops, 1);
    add("evaluate");
  }
  void best_kept(const CurvePoint&, const std::string&, double) override { add("best"); }
  void strategy_kept(const KeptStrategy&) override { add("kept"); }

 private:
  void add(const std::string& e) {
    if (events.empty() || events.back() != e) events.push_back(e);
  }
};

// The index-hash map of `config`'s game, saved where the config builds its map, as if built
// from the config's description.
void save_index_hash_map(const PipelineConfig& config) {
  const GameDefinition game = GameDefinition::from_file(config.solve.game_path);
  auto map =
      std::const_pointer_cast<BucketMap>(testing::index_hash_bucket_map(game, {169, 8, 8, 8}));
  map->source_hash = config.abstraction.hash();
  map->save(config.abstraction.output);
}

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
    << "[evaluate]\nflops = 1\nevery_seconds = 0.3\nseed = 1\n"
    << "curve = \"" << (dir / "curve.csv") << "\"\nplot = \"\"\nreport = \""
    << (dir / "report.json") << "\"\n";
  return s.str();
}

TEST(PipelineRunSlow, EveryStageReportsInOrderAndTheFilesAgree) {
  const TempFolder dir;
  testing::spit(dir / "run.toml", config_text(dir, "holdem.limit.2p.reverse_blinds.game"));
  PipelineConfig config = PipelineConfig::from_file(dir / "run.toml");
  save_index_hash_map(config);

  RecordingObserver seen;
  const PipelineReport r = PipelineRun(config).run(seen);
  ASSERT_GE(seen.events.size(), 6u);
  EXPECT_EQ(seen.events.front(), "reused");
  EXPECT_EQ(seen.events[1], "solve");
  EXPECT_FALSE(seen.resumed);
  const std::vector<std::string> tail(seen.events.end() - 3, seen.events.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"exported", "evaluate", "kept"}));
  EXPECT_NE(std::find(seen.events.begin(), seen.events.end(), "progress"), seen.events.end());

  EXPECT_FALSE(r.solve.summary.interrupted);
  EXPECT_EQ(r.solve.summary.first_iteration, 1);
  EXPECT_GT(r.solve.summary.iterations, 1000);
  ASSERT_TRUE(r.evaluation.has_value());
  EXPECT_GT(r.to_mbb(r.evaluation->mean), 0.0);
  ASSERT_FALSE(r.curve.empty());
  EXPECT_DOUBLE_EQ(r.curve.back().mbb, r.to_mbb(r.evaluation->mean));
  EXPECT_EQ(r.curve.back().iterations, r.solve.summary.iterations);
  // plot = "": none asked, so `hulhe run` does not blame a missing gnuplot.
  EXPECT_FALSE(r.plot_asked);
  EXPECT_TRUE(r.plot_file.empty());
  // One CSV line per curve point; the JSON file is the report.
  const std::string csv = testing::slurp(dir / "curve.csv");
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), r.curve.size() + 1);
  // (Compared as text: one flop gives no interval, NaN, which JSON writes as null.)
  EXPECT_EQ(nlohmann::json::parse(testing::slurp(dir / "report.json")).dump(), r.to_json().dump());
  EXPECT_EQ(r.to_json()["evaluation"]["flops"], 1);

  // Estimates every 0.3 s of a 1-second solve: one at least, so the end chose between it and
  // the last. The strategy file's estimate, made again now, is the kept one's to the bit: the
  // estimates during the solve are of the strategy as exported (thinned and quantised).
  ASSERT_TRUE(r.kept.has_value());
  EXPECT_GE(r.kept->candidates, 2);
  EXPECT_EQ(r.kept->candidates, static_cast<int>(r.curve.size()));
  double lowest = r.curve.front().mbb;
  for (const CurvePoint& p : r.curve) lowest = std::min(lowest, p.mbb);
  EXPECT_EQ(r.kept->mbb, lowest);
  const StrategyFile kept = StrategyFile::read(config.exports.strategy);
  EXPECT_EQ(kept.metadata().iterations, r.kept->iterations);
  HoldemBestResponseOptions same_flops;
  same_flops.sample_flops = 1;
  same_flops.seed = 1;
  EXPECT_EQ(r.to_mbb(HoldemBestResponse(kept, same_flops).run().mean), r.kept->mbb);
  EXPECT_EQ(std::filesystem::exists(config.exports.last_strategy()), !r.kept->is_last);

  // A second run of the same config resumes the checkpoint.
  RecordingObserver again;
  const PipelineReport r2 = PipelineRun(config).run(again);
  EXPECT_TRUE(again.resumed);
  EXPECT_EQ(r2.solve.summary.first_iteration, r.solve.summary.iterations + 1);
}

// Estimates from a script instead of best responses: those during the solve (of the
// strategy as it would be exported) take `during` in turn (then 900 mbb/g), the one of a
// strategy file (the end's) `final_mbb`. Records what it was asked.
struct ScriptedEstimates {
  std::vector<double> during;
  double final_mbb = 0.0;
  double big_blind = 10.0;
  int solve_calls = 0;
  int file_calls = 0;
  std::vector<HoldemBestResponseOptions> options;
  bool all_quantised = true;  // every probability seen during the solve a multiple of 1/255
  bool all_pure = true;

  PipelineRun::Estimator estimator() {
    return [this](const Policy& policy, const HoldemBestResponseOptions& o) {
      options.push_back(o);
      HoldemBestResponseReport r;
      r.exact = o.sample_flops == 0;
      double mbb = final_mbb;
      if (dynamic_cast<const StrategyFile*>(&policy) != nullptr) {
        ++file_calls;
      } else {
        mbb = static_cast<std::size_t>(solve_calls) < during.size() ? during[solve_calls] : 900.0;
        ++solve_calls;
        look_at(policy);
      }
      r.mean = mbb * big_blind / 1000.0;
      r.value = {r.mean, r.mean};
      r.mean_ci95 = 1.0 * big_blind / 1000.0;
      return r;
    };
  }

 private:
  // A few information sets of every round, as the estimate would read them.
  void look_at(const Policy& policy) {
    const BettingTree& tree = policy.tree();
    for (int round = 0; round < tree.game().num_rounds; ++round)
      for (std::int32_t n = 0; n < std::min(tree.num_decision_nodes(round), 5); ++n)
        for (std::int32_t b = 0; b < policy.abstraction().num_buckets(round); ++b) {
          double p[kNumActionKinds];
          const std::span<double> out(p, tree.node(tree.decision_node(round, n)).num_actions);
          policy.action_probabilities(round, n, b, out);
          int nonzero = 0;
          for (const double v : out) {
            all_quantised = all_quantised && std::abs(v * 255.0 - std::round(v * 255.0)) < 1e-9;
            nonzero += v > 0.0;
          }
          all_pure = all_pure && nonzero == 1;
        }
  }
};

// Counts what the end of a run reports.
class KeptObserver final : public PipelineObserver {
 public:
  int estimates = 0, bests = 0, evaluations = 0, kepts = 0;
  std::vector<CurvePoint> best_points;
  KeptStrategy kept;
  void estimate_done(const CurvePoint&, int, double) override { ++estimates; }
  void best_kept(const CurvePoint& p, const std::string&, double) override {
    ++bests;
    best_points.push_back(p);
  }
  void evaluation_started(bool, int) override { ++evaluations; }
  void strategy_kept(const KeptStrategy& k) override {
    ++kepts;
    kept = k;
  }
};

TEST(PipelineRunSlow, KeepsTheStrategyOfTheLowestEstimateAndEstimatesTheEndOnce) {
  const TempFolder dir;
  std::string text = config_text(dir, "holdem.limit.2p.reverse_blinds.game");
  auto set = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  set("every_seconds = 0.3", "every_seconds = 0.2");
  set("\nseconds = 1\n", "\nseconds = 1.5\n");
  set("flops = 1\n", "flops = 3\n");
  testing::spit(dir / "run.toml", text);
  PipelineConfig config = PipelineConfig::from_file(dir / "run.toml");
  ASSERT_EQ(config.evaluation.flops, 3);
  save_index_hash_map(config);
  const std::string last = config.exports.last_strategy();

  // 1. The second estimate is the lowest; the last (450) is not: the strategy file keeps the
  // second, `.last` the last.
  ScriptedEstimates script;
  script.during = {500.0, 300.0, 400.0};
  script.final_mbb = 450.0;
  KeptObserver seen;
  PipelineRun run(config);
  run.use_estimator(script.estimator());
  const PipelineReport r = run.run(seen);
  ASSERT_GE(script.solve_calls, 2) << "too few estimates during the solve";
  EXPECT_EQ(script.file_calls, 1);  // one estimate at the end, of the exported file
  EXPECT_EQ(seen.evaluations, 1);
  EXPECT_EQ(seen.estimates, script.solve_calls);
  EXPECT_EQ(seen.bests, 2);  // 500, then 300
  ASSERT_EQ(seen.best_points.size(), 2u);
  EXPECT_EQ(seen.best_points[1].mbb, 300.0);
  EXPECT_TRUE(script.all_quantised);
  // Common random numbers: every estimate asks for the same sample of flops.
  for (const HoldemBestResponseOptions& o : script.options) {
    EXPECT_EQ(o.sample_flops, 3);
    EXPECT_EQ(o.seed, 1u);
  }
  ASSERT_TRUE(r.kept.has_value());
  const KeptStrategy& k = *r.kept;
  EXPECT_EQ(seen.kepts, 1);
  EXPECT_EQ(seen.kept.iterations, k.iterations);
  EXPECT_FALSE(k.is_last);
  EXPECT_EQ(k.mbb, 300.0);
  EXPECT_EQ(k.iterations, seen.best_points[1].iterations);
  EXPECT_EQ(k.iterations, r.curve[1].iterations);
  EXPECT_EQ(k.last_mbb, 450.0);
  EXPECT_EQ(k.last_iterations, r.solve.summary.iterations);
  EXPECT_LT(k.iterations, k.last_iterations);
  EXPECT_EQ(k.candidates, script.solve_calls + 1);
  EXPECT_EQ(k.last_strategy, last);
  // The files: the kept strategy at the configured path (written during the solve: no
  // checkpoint holds its tables), the last beside it.
  const StrategyFile kept_file = StrategyFile::read(config.exports.strategy);
  EXPECT_EQ(kept_file.metadata().iterations, k.iterations);
  EXPECT_EQ(kept_file.metadata().checkpoint_hash, 0u);
  const StrategyFile last_file = StrategyFile::read(last);
  EXPECT_EQ(last_file.metadata().iterations, r.solve.summary.iterations);
  EXPECT_NE(last_file.metadata().checkpoint_hash, 0u);
  EXPECT_EQ(r.exported.strategy, config.exports.strategy);
  EXPECT_EQ(r.exported.bytes, std::filesystem::file_size(config.exports.strategy));
  // The report names it; the curve ends with the last's estimate.
  const nlohmann::json j = nlohmann::json::parse(testing::slurp(dir / "report.json"));
  EXPECT_EQ(j["kept"]["strategy"], config.exports.strategy);
  EXPECT_EQ(j["kept"]["iterations"], k.iterations);
  EXPECT_EQ(j["kept"]["exploitability_mbb"], 300.0);
  EXPECT_EQ(j["kept"]["is_last"], false);
  EXPECT_EQ(j["kept"]["last"]["strategy"], last);
  EXPECT_EQ(j["kept"]["last"]["exploitability_mbb"], 450.0);
  EXPECT_EQ(j["kept"]["last"]["iterations"], r.solve.summary.iterations);
  EXPECT_EQ(r.curve.back().mbb, 450.0);
  EXPECT_EQ(r.curve.back().iterations, r.solve.summary.iterations);

  // 2. Resumed, purified: the last ties the lowest estimate and wins; it replaces the strategy
  // file and no `.last` remains.
  config.exports.thinning = StrategyThinning::purify();
  ScriptedEstimates again;
  again.during = {250.0};
  again.final_mbb = 250.0;
  KeptObserver seen2;
  PipelineRun run2(config);
  run2.use_estimator(again.estimator());
  const PipelineReport r2 = run2.run(seen2);
  ASSERT_GE(again.solve_calls, 1);
  EXPECT_EQ(again.file_calls, 1);
  EXPECT_TRUE(again.all_pure);
  ASSERT_TRUE(r2.kept.has_value());
  EXPECT_TRUE(r2.kept->is_last);
  EXPECT_EQ(r2.kept->iterations, r2.solve.summary.iterations);
  EXPECT_EQ(r2.kept->mbb, 250.0);
  EXPECT_TRUE(r2.kept->last_strategy.empty());
  EXPECT_FALSE(std::filesystem::exists(last));
  const StrategyFile pure = StrategyFile::read(config.exports.strategy);
  EXPECT_EQ(pure.metadata().iterations, r2.solve.summary.iterations);
  EXPECT_EQ(pure.metadata().algorithm, "external, purified");
  EXPECT_EQ(r2.to_json()["export"]["thinning"], "purified");
  EXPECT_EQ(r2.to_json()["kept"]["is_last"], true);

  // 3. No estimates during the solve: the last goes straight to the strategy file; nothing to
  // choose, one estimate at the end, and a `.last` of an earlier run goes away.
  testing::spit(last, "an earlier run's last strategy");
  config.evaluation.every_seconds = 0;
  config.solve.seconds = 0.3;
  ScriptedEstimates plain;
  plain.final_mbb = 700.0;
  KeptObserver seen3;
  PipelineRun run3(config);
  run3.use_estimator(plain.estimator());
  const PipelineReport r3 = run3.run(seen3);
  EXPECT_EQ(plain.solve_calls, 0);
  EXPECT_EQ(plain.file_calls, 1);
  EXPECT_EQ(seen3.bests + seen3.kepts, 0);
  EXPECT_FALSE(r3.kept.has_value());
  EXPECT_TRUE(r3.to_json()["kept"].is_null());
  EXPECT_FALSE(std::filesystem::exists(last));
  EXPECT_EQ(StrategyFile::read(config.exports.strategy).metadata().iterations,
            r3.solve.summary.iterations);
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
