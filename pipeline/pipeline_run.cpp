#include "pipeline/pipeline_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <span>
#include <system_error>
#include <utility>

#include "abstraction/abstraction_builder.h"
#include "abstraction/bucket_map.h"
#include "abstraction/clustered_abstraction.h"
#include "abstraction/strategy_thinning.h"
#include "solver/average_policy.h"
#include "solver/checkpoint.h"
#include "strategy_files/compact_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "util/input_error.h"
#include "util/output_file.h"
#include "util/thread_start.h"

namespace hulhe {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// `policy` as a strategy file of `e` plays it: thinned, then quantised exactly as the writer
// quantises and the reader scales (strategy_files/strategy_file.h), so that an estimate of it
// during the solve is the estimate of the file it would export, bit for bit.
class ExportedView final : public Policy {
 public:
  ExportedView(const Policy& policy, const ExportSettings& e)
      : thinned_(policy, e.thinning), bits_(e.bits) {}

  const BettingTree& tree() const override { return thinned_.tree(); }
  const CardAbstraction& abstraction() const override { return thinned_.abstraction(); }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override {
    thinned_.action_probabilities(round, node, bucket, out);
    quantization_round_trip(out, bits_);
  }

 private:
  ThinnedPolicy thinned_;
  int bits_;
};

double nan_if_not_finite(double v) {
  return std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

// Exploitability of `policy` in the real game: sampled flops (always the same ones: the seed
// and the count fix the systematic sample) or exact; progress to the observer, if any.
HoldemBestResponseReport PipelineRun::evaluate(const Policy& policy, bool exact,
                                               PipelineObserver* progress,
                                               std::function<bool()> should_stop) const {
  const EvaluationSettings& e = config_.evaluation;
  HoldemBestResponseOptions o;
  o.should_stop = std::move(should_stop);
  o.threads = config_.solve.threads;
  o.sample_flops = exact ? 0 : e.flops;
  o.seed = e.seed;
  if (progress != nullptr)
    o.on_progress = [progress](const Progress& p) { progress->evaluation_progress(p); };
  if (estimator_) return estimator_(policy, o);
  return HoldemBestResponse(policy, o).run();
}

double PipelineReport::to_mbb(double chips) const {
  return chips * 1000.0 / big_blind;
}

double PipelineReport::Solve::iterations_per_second() const {
  return static_cast<double>(summary.iterations - summary.first_iteration + 1) /
         std::max(summary.seconds, 1e-9);
}

nlohmann::json PipelineReport::to_json() const {
  nlohmann::json j;
  j["config"] = config;
  j["game"] = game;
  j["abstraction"] = {{"bucket_map", abstraction.bucket_map},
                      {"description", abstraction.description},
                      {"seconds", abstraction.seconds}};
  j["solve"] = {{"algorithm", solve.algorithm},
                {"threads", solve.threads},
                {"iterations", solve.summary.iterations},
                {"first_iteration", solve.summary.first_iteration},
                {"seconds", solve.summary.seconds},
                {"evaluation_seconds_during_solve", solve.evaluation_seconds},
                {"best_export_seconds_during_solve", solve.best_export_seconds},
                {"iterations_per_second", solve.iterations_per_second()},
                {"table_bytes", solve.table_bytes},
                {"checkpoint", solve.summary.checkpoint},
                {"checkpoint_mb_per_second", solve.checkpoint_mb_per_second}};
  j["export"] = {{"strategy", exported.strategy},
                 {"bits", exported.bits},
                 {"bytes", exported.bytes},
                 {"seconds", exported.seconds},
                 {"thinning", exported.thinning},
                 {"compact", exported.compact},
                 {"compact_check_seconds", exported.compact_check_seconds}};
  if (kept) {
    const KeptStrategy& k = *kept;
    j["kept"] = {{"strategy", exported.strategy},
                 {"iterations", k.iterations},
                 {"solve_seconds", k.solve_seconds},
                 {"exploitability_mbb", nan_if_not_finite(k.mbb)},
                 {"ci95_mbb", nan_if_not_finite(k.ci95_mbb)},
                 {"is_last", k.is_last},
                 {"candidates", k.candidates},
                 {"last",
                  {{"strategy", k.last_strategy.empty() ? exported.strategy : k.last_strategy},
                   {"iterations", k.last_iterations},
                   {"exploitability_mbb", nan_if_not_finite(k.last_mbb)},
                   {"ci95_mbb", nan_if_not_finite(k.last_ci95_mbb)}}}};
  } else {
    j["kept"] = nullptr;
  }
  if (evaluation) {
    const HoldemBestResponseReport& r = *evaluation;
    j["evaluation"] = {{"exact", exact},
                       {"flops", exact ? r.flop_classes : sampled_flops},
                       {"br_value_vs_seat_mbb", {to_mbb(r.value[0]), to_mbb(r.value[1])}},
                       {"exploitability_mbb", to_mbb(r.mean)},
                       {"ci95_mbb", to_mbb(r.mean_ci95)},
                       {"seconds", evaluation_seconds}};
  }
  j["curve"] = nlohmann::json::array();
  for (const CurvePoint& p : curve)
    j["curve"].push_back({{"solve_seconds", p.solve_seconds},
                          {"iterations", p.iterations},
                          {"exploitability_mbb", p.mbb},
                          {"ci95_mbb", p.ci95_mbb}});
  j["files"] = {{"curve", curve_file}, {"plot", plot_file}, {"report", report_file}};
  j["seconds"] = seconds;
  return j;
}

PipelineRun::PipelineRun(PipelineConfig config) : config_(std::move(config)) {
  config_.solve.validate("command line");
  require_thread_start(config_.solve.threads);  // the config's count too (util/thread_start.h)
  // Every output of every stage, against every input and each other, before the hours of
  // the abstraction and the solve.
  config_.check_outputs();
  game_ = GameDefinition::from_file(config_.solve.game_path);
  game_.name = std::filesystem::path(config_.solve.game_path).stem().string();
  require_holdem(game_, config_.solve.game_path);  // before hours of building a map for it
}

void PipelineRun::ensure_bucket_map(PipelineObserver& observer) {
  const std::string& path = config_.abstraction.output;
  if (std::filesystem::exists(path)) {
    const BucketMap map = BucketMap::load(path, game_.hash(), game_.name);
    if (map.source_hash == config_.abstraction.hash()) {
      observer.abstraction_reused(path);
      return;
    }
    throw InputError("bucket map " + path + " exists but was built from another abstraction " +
                     "description than " + config_.path +
                     "; move it away or change 'output' in the config");
  }
  const int threads = config_.solve.threads;
  observer.abstraction_building(path, threads);
  const auto start = Clock::now();
  AbstractionBuilder builder(config_.abstraction, game_.hash(), threads, [&](const Progress& p) {
    Progress step = p;
    step.elapsed_seconds = since(start);  // of the whole stage 1
    observer.abstraction_progress(step);
  });
  builder.build().save(path);
  observer.abstraction_built(since(start));
}

PipelineReport PipelineRun::run(PipelineObserver& observer) {
  const auto start = Clock::now();
  const int threads = config_.solve.threads;
  const ExportSettings& exports = config_.exports;
  PipelineReport report;
  report.config = config_.path;
  report.game = game_.name;
  report.big_blind = game_.big_blind();

  const bool many = ranks_ && ranks_->size() > 1;
  // 1. Abstraction. Over several ranks the map must exist: N ranks building one file would
  // each take the whole machine's memory for the same result.
  const auto t_abstract = Clock::now();
  if (many && !std::filesystem::exists(config_.abstraction.output))
    throw InputError("bucket map " + config_.abstraction.output +
                     " does not exist; under mpirun build it first, in one process: hulhe "
                     "abstract --config " +
                     config_.path);
  ensure_bucket_map(observer);
  report.abstraction.bucket_map = config_.abstraction.output;
  report.abstraction.seconds = since(t_abstract);

  // 2. Solve, resuming an earlier run of this config; sampled estimates along the way.
  const bool resume =
      !config_.solve.checkpoint.empty() && std::filesystem::exists(config_.solve.checkpoint);
  SolverRun solver(config_.solve, resume, game_);  // the game read once, by the constructor
  if (many) solver.run_over(ranks_);
  // A compact export's river model, checked against every canonical river hand once here
  // (it depends on the bucket map only), so each strategy the run writes costs no more than a
  // plain one. Rank 0 alone writes strategy files.
  std::optional<CompactBucketAbstraction> compact;
  if (exports.compact && (!many || ranks_->rank() == 0)) {
    const auto* clustered = dynamic_cast<const ClusteredAbstraction*>(&solver.abstraction());
    if (clustered == nullptr)
      throw InputError(config_.path +
                       ": 'export.compact' needs a bucket map; the solve's "
                       "abstraction is " +
                       solver.abstraction().describe());
    const auto t_compact = Clock::now();
    compact.emplace(CompactBucketAbstraction::from(*clustered, config_.solve.bucket_map, threads,
                                                   [&](const Progress& p) {
                                                     Progress step = p;
                                                     step.stage = "compact export: " + p.stage;
                                                     observer.abstraction_progress(step);
                                                   }));
    report.exported.compact_check_seconds = since(t_compact);
  }
  observer.solve_started(solver, resume);
  // Every strategy file of the run: the average strategy thinned (export settings) and
  // quantised by the writer; `checkpoint` is the file its tables are in, if any.
  auto write_strategy = [&](const std::string& path, std::int64_t iterations,
                            const std::string& checkpoint) {
    const AveragePolicy average(solver.tree(), solver.abstraction(), solver.tables());
    const ThinnedPolicy policy(average, exports.thinning);
    StrategyFileMetadata meta;
    if (!checkpoint.empty()) meta.checkpoint_hash = file_hash(checkpoint);
    meta.algorithm = exports.thinning.applied_to(solver.params().algorithm);
    meta.iterations = iterations;
    meta.abstraction_kind = config_.solve.abstraction;
    meta.bucket_map = config_.solve.bucket_map;
    meta.bits = exports.bits;
    if (compact)
      write_compact_strategy_file(path, policy, *compact, meta);
    else
      write_strategy_file(path, policy, meta);
  };
  double last_estimate = 0.0;
  std::optional<CurvePoint> best;  // the estimate of what the strategy file holds now
  const EvaluationSettings& evaluation = config_.evaluation;
  const double budget = config_.solve.seconds;
  const SolveSummary summary = solver.run([&](const Progress& p) {
    observer.solve_progress(solver, p);
    if (evaluation.every_seconds <= 0 || evaluation.flops <= 0 ||
        p.elapsed_seconds - last_estimate < evaluation.every_seconds)
      return;
    // The solve ends after this chunk, or within half an interval: stage 4 estimates the
    // last strategy on the same flops, so an estimate here would about double the final wait.
    if (p.done >= p.total ||
        (budget > 0 && budget - p.elapsed_seconds < 0.5 * evaluation.every_seconds) ||
        SolverRun::stop_requested())
      return;
    last_estimate = p.elapsed_seconds;
    const auto t = Clock::now();
    const AveragePolicy average(solver.tree(), solver.abstraction(), solver.tables());
    const ExportedView policy(average, exports);
    // SIGTERM during an estimate ends it after the flops in progress; the solve then
    // checkpoints and stops as it would between chunks.
    const HoldemBestResponseReport r = evaluate(policy, false, nullptr, &SolverRun::stop_requested);
    const double took = since(t);
    report.solve.evaluation_seconds += took;
    solver.exclude_time(took);
    if (!r.complete) {
      observer.estimate_stopped(took);
      return;
    }
    report.curve.push_back(
        {p.elapsed_seconds, p.done, report.to_mbb(r.mean), report.to_mbb(r.mean_ci95), false});
    observer.estimate_done(report.curve.back(), evaluation.flops, took);
    if (best && !(report.curve.back().mbb < best->mbb)) return;
    const auto t_write = Clock::now();
    write_strategy(exports.strategy, p.done, "");
    best = report.curve.back();
    const double wrote = since(t_write);
    report.solve.best_export_seconds += wrote;
    solver.exclude_time(wrote);
    observer.best_kept(*best, exports.strategy, wrote);
  });
  if (summary.interrupted) observer.solve_interrupted();
  report.abstraction.description = solver.abstraction().describe();
  report.solve.algorithm = solver.params().algorithm;
  report.solve.threads = threads;
  report.solve.summary = summary;
  report.solve.table_bytes = solver.memory_bytes();
  report.solve.checkpoint_mb_per_second = solver.last_checkpoint_mb_per_second();
  // Over several ranks rank 0 alone exports and evaluates (the others' tables are the same).
  if (many && ranks_->rank() != 0) return report;

  // 3. Export the last strategy: beside the best so far, if there is one.
  const std::string last_path = best ? exports.last_strategy() : exports.strategy;
  const auto t_export = Clock::now();
  write_strategy(last_path, solver.iterations_done(), summary.checkpoint);
  if (!best) {
    // A `.last` of an earlier run would describe a choice this run did not make.
    std::error_code ignored;
    std::filesystem::remove(exports.last_strategy(), ignored);
  }
  report.exported.strategy = exports.strategy;
  report.exported.bits = exports.bits;
  report.exported.thinning = exports.thinning.describe();
  report.exported.compact = exports.compact;
  report.exported.bytes = std::filesystem::file_size(exports.strategy);
  report.exported.seconds = since(t_export);
  observer.exported(last_path, std::filesystem::file_size(last_path), exports.bits,
                    report.exported.seconds);
  if (best) {
    KeptStrategy k;
    k.iterations = best->iterations;
    k.solve_seconds = best->solve_seconds;
    k.mbb = best->mbb;
    k.ci95_mbb = best->ci95_mbb;
    k.is_last = false;
    k.candidates = static_cast<int>(report.curve.size());
    k.last_iterations = summary.iterations;
    k.last_mbb = k.last_ci95_mbb = std::numeric_limits<double>::quiet_NaN();
    k.last_strategy = last_path;
    report.kept = k;
  }
  if (summary.interrupted) return report;

  // 4. Evaluate the last strategy file in the real game; with a best so far, on the same
  // sampled flops, to decide which one the strategy file keeps.
  const auto t_eval = Clock::now();
  report.exact = evaluation.exact;
  report.sampled_flops = evaluation.flops;
  bool evaluate_kept_exactly = false;
  {
    const StrategyFile file = StrategyFile::read(last_path);
    const bool exact_now = evaluation.exact && !best;
    if (exact_now || evaluation.flops > 0) {
      observer.evaluation_started(exact_now, evaluation.flops);
      report.evaluation = evaluate(file, exact_now, &observer);
      report.curve.push_back({summary.seconds, summary.iterations,
                              report.to_mbb(report.evaluation->mean),
                              report.to_mbb(report.evaluation->mean_ci95), exact_now});
    }
    evaluate_kept_exactly = evaluation.exact && best;
  }
  if (best) {
    KeptStrategy& k = *report.kept;
    const CurvePoint& last = report.curve.back();
    k.candidates = static_cast<int>(report.curve.size());
    k.last_mbb = last.mbb;
    k.last_ci95_mbb = last.ci95_mbb;
    if (!(last.mbb > best->mbb)) {  // the last wins a tie
      std::error_code ec;
      std::filesystem::rename(last_path, exports.strategy, ec);
      if (ec)
        throw InputError("cannot move " + last_path + " to " + exports.strategy + ": " +
                         ec.message());
      k.iterations = last.iterations;
      k.solve_seconds = last.solve_seconds;
      k.mbb = last.mbb;
      k.ci95_mbb = last.ci95_mbb;
      k.is_last = true;
      k.last_strategy.clear();
      report.exported.bytes = std::filesystem::file_size(exports.strategy);
    }
    observer.strategy_kept(k);
    if (evaluate_kept_exactly) {
      const StrategyFile file = StrategyFile::read(exports.strategy);
      observer.evaluation_started(true, evaluation.flops);
      report.evaluation = evaluate(file, true, &observer);
      // Beside the kept strategy's estimate, so that the curve stays in time order.
      auto at = std::find_if(report.curve.begin(), report.curve.end(),
                             [&](const CurvePoint& c) { return c.iterations == k.iterations; });
      report.curve.insert(at == report.curve.end() ? at : at + 1,
                          {k.solve_seconds, k.iterations, report.to_mbb(report.evaluation->mean),
                           report.to_mbb(report.evaluation->mean_ci95), true});
    }
  }
  report.evaluation_seconds = since(t_eval);
  report.curve_file = evaluation.curve;
  report.report_file = evaluation.report;
  report.plot_asked = !evaluation.plot.empty();
  if (!report.curve.empty() && !evaluation.curve.empty()) {
    const std::string csv = curve_csv(report.curve);
    write_output_file(evaluation.curve, "curve", {csv});
    if (!evaluation.plot.empty() &&
        plot_curve(csv, evaluation.plot,
                   std::filesystem::path(config_.path).filename().string() + ": " +
                       report.solve.algorithm + " over " + report.abstraction.description))
      report.plot_file = evaluation.plot;
  }
  report.seconds = since(start);
  if (!evaluation.report.empty())
    write_output_file(evaluation.report, "report", {report.to_json().dump(2), "\n"});
  return report;
}

}  // namespace hulhe
