#include "pipeline/pipeline_run.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <utility>

#include "abstraction/abstraction_builder.h"
#include "abstraction/bucket_map.h"
#include "abstraction/clustered_abstraction.h"
#include "solver/average_policy.h"
#include "solver/checkpoint.h"
#include "strategies/strategy_file.h"
#include "util/input_error.h"
#include "util/output_file.h"
#include "util/thread_start.h"

namespace hulhe {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Exploitability of `policy` in the real game: sampled flops or exact; progress to the
// observer, if any.
HoldemBestResponseReport evaluate(const Policy& policy, const EvaluationSettings& e, bool exact,
                                  int threads, PipelineObserver* progress,
                                  std::function<bool()> should_stop = {}) {
  HoldemBestResponseOptions o;
  o.should_stop = std::move(should_stop);
  o.threads = threads;
  o.sample_flops = exact ? 0 : e.flops;
  o.seed = e.seed;
  if (progress != nullptr)
    o.on_progress = [progress](const EvaluationProgress& p) { progress->evaluation_progress(p); };
  return HoldemBestResponse(policy, o).run();
}

}  // namespace

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
                {"iterations_per_second", solve.iterations_per_second()},
                {"table_bytes", solve.table_bytes},
                {"checkpoint", solve.summary.checkpoint},
                {"checkpoint_mb_per_second", solve.checkpoint_mb_per_second}};
  j["export"] = {{"strategy", exported.strategy},
                 {"bits", exported.bits},
                 {"bytes", exported.bytes},
                 {"seconds", exported.seconds}};
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
  AbstractionBuilder builder(
      config_.abstraction, game_.hash(), threads, [&](const AbstractionProgress& p) {
        observer.abstraction_progress(p.stage, p.done, p.total, since(start));
      });
  builder.build().save(path);
  observer.abstraction_built(since(start));
}

PipelineReport PipelineRun::run(PipelineObserver& observer) {
  const auto start = Clock::now();
  const int threads = config_.solve.threads;
  PipelineReport report;
  report.config = config_.path;
  report.game = game_.name;
  report.big_blind = game_.big_blind();

  // 1. Abstraction.
  const auto t_abstract = Clock::now();
  ensure_bucket_map(observer);
  report.abstraction.bucket_map = config_.abstraction.output;
  report.abstraction.seconds = since(t_abstract);

  // 2. Solve, resuming an earlier run of this config; sampled estimates along the way.
  const bool resume =
      !config_.solve.checkpoint.empty() && std::filesystem::exists(config_.solve.checkpoint);
  SolverRun solver(config_.solve, resume);
  observer.solve_started(solver, resume);
  double last_estimate = 0.0;
  const EvaluationSettings& evaluation = config_.evaluation;
  const SolveSummary summary = solver.run([&](const SolveProgress& p) {
    observer.solve_progress(solver, p);
    if (evaluation.every_seconds <= 0 || evaluation.flops <= 0 ||
        p.elapsed_seconds - last_estimate < evaluation.every_seconds)
      return;
    last_estimate = p.elapsed_seconds;
    const auto t = Clock::now();
    const AveragePolicy policy(solver.tree(), solver.abstraction(), solver.tables());
    // SIGTERM during an estimate ends it after the flops in progress; the solve then
    // checkpoints and stops as it would between chunks.
    const HoldemBestResponseReport r =
        evaluate(policy, evaluation, false, threads, nullptr, &SolverRun::stop_requested);
    const double took = since(t);
    report.solve.evaluation_seconds += took;
    solver.exclude_time(took);
    if (!r.complete) {
      observer.estimate_stopped(took);
      return;
    }
    report.curve.push_back({p.elapsed_seconds, p.iterations, report.to_mbb(r.mean),
                            report.to_mbb(r.mean_ci95), false});
    observer.estimate_done(report.curve.back(), evaluation.flops, took);
  });
  if (summary.interrupted) observer.solve_interrupted();
  report.abstraction.description = solver.abstraction().describe();
  report.solve.algorithm = solver.params().algorithm;
  report.solve.threads = threads;
  report.solve.summary = summary;
  report.solve.table_bytes = solver.memory_bytes();
  report.solve.checkpoint_mb_per_second = solver.last_checkpoint_mb_per_second();

  // 3. Export.
  const auto t_export = Clock::now();
  {
    const AveragePolicy policy(solver.tree(), solver.abstraction(), solver.tables());
    StrategyFileMetadata meta;
    if (!summary.checkpoint.empty()) meta.checkpoint_hash = file_hash(summary.checkpoint);
    meta.algorithm = solver.params().algorithm;
    meta.iterations = solver.iterations_done();
    meta.abstraction_kind = config_.solve.abstraction;
    meta.bucket_map = config_.solve.bucket_map;
    meta.bits = config_.exports.bits;
    write_strategy_file(config_.exports.strategy, policy, meta);
  }
  report.exported.strategy = config_.exports.strategy;
  report.exported.bits = config_.exports.bits;
  report.exported.bytes = std::filesystem::file_size(config_.exports.strategy);
  report.exported.seconds = since(t_export);
  observer.exported(report.exported.strategy, report.exported.bytes, report.exported.bits,
                    report.exported.seconds);
  if (summary.interrupted) return report;

  // 4. Evaluate the exported strategy in the real game.
  const auto t_eval = Clock::now();
  const StrategyFile file = StrategyFile::read(config_.exports.strategy);
  report.exact = evaluation.exact;
  report.sampled_flops = evaluation.flops;
  if (evaluation.exact || evaluation.flops > 0) {
    observer.evaluation_started(evaluation.exact, evaluation.flops);
    report.evaluation = evaluate(file, evaluation, evaluation.exact, threads, &observer);
    report.curve.push_back({summary.seconds, summary.iterations,
                            report.to_mbb(report.evaluation->mean),
                            report.to_mbb(report.evaluation->mean_ci95), evaluation.exact});
  }
  report.evaluation_seconds = since(t_eval);
  report.curve_file = evaluation.curve;
  report.report_file = evaluation.report;
  if (!report.curve.empty() && !evaluation.curve.empty()) {
    const std::string csv = curve_csv(report.curve);
    write_output_file(evaluation.curve, "curve", {csv});
    if (!evaluation.plot.empty() && plot_curve(csv, evaluation.plot,
                                               config_.path + ": " + report.solve.algorithm +
                                                   " over " + report.abstraction.description))
      report.plot_file = evaluation.plot;
  }
  report.seconds = since(start);
  if (!evaluation.report.empty())
    write_output_file(evaluation.report, "report", {report.to_json().dump(2), "\n"});
  return report;
}

}  // namespace hulhe
