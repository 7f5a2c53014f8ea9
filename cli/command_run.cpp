// `hulhe run [--config configs/hulhe-quick.toml] [--seconds S] [--threads T] [--json]`: the
// whole pipeline of a pipeline config (pipeline/pipeline_run.h: abstraction, solve, export,
// real-game evaluation, curve, plot, report). This file prints what happens along the way on
// stderr and a one-screen summary (or the JSON report) on stdout.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "distributed/distributed_solve.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/pipeline_run.h"
#include "util/duration_format.h"
#include "util/input_error.h"
#include "util/process_facts.h"

namespace hulhe::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string config = "configs/hulhe-quick.toml";
  std::optional<double> seconds;
  std::optional<int> threads;
  bool json = false;
};

// The pipeline's progress as lines on stderr.
class ProgressLines final : public PipelineObserver {
 public:
  void abstraction_reused(const std::string& bucket_map) override {
    fmt::print(stderr, "[1/4] abstraction: reusing {} (built from this config)\n", bucket_map);
  }
  void abstraction_building(const std::string& bucket_map, int threads) override {
    fmt::print(stderr, "[1/4] abstraction: building {} ({} threads)\n", bucket_map, threads);
  }
  // At most one line per 5 seconds, and the end of each stage.
  void abstraction_progress(const Progress& p) override {
    if (p.done < p.total && Clock::now() - last_line_ < std::chrono::seconds(5)) return;
    last_line_ = Clock::now();
    fmt::print(stderr, "{}\n", run_abstraction_progress_line(p));
  }
  void abstraction_built(double seconds) override {
    fmt::print(stderr, "      bucket map written in {}\n", format_duration(seconds));
  }
  void solve_started(const SolverRun& solver, bool resumed) override {
    const SolveConfig& c = solver.config();
    fmt::print(stderr,
               "[2/4] solve: {} over {} · tables {:.1f} MiB ({}) of {:.1f} GiB available · "
               "budget {}{}\n",
               solver.params().algorithm, solver.abstraction().describe(),
               solver.memory_bytes() / 1048576.0, to_string(solver.tables().precision()),
               available_memory_bytes() / 1073741824.0, format_duration(c.seconds),
               resumed ? fmt::format(" · resuming {} at iteration {}", c.checkpoint,
                                     solver.iterations_done())
                       : std::string());
  }
  void solve_progress(const SolverRun& solver, const Progress& p) override {
    fmt::print(stderr, "{}\n", run_solve_progress_line(p, solver));
  }
  void estimate_done(const CurvePoint& point, int flops, double seconds) override {
    fmt::print(stderr, "      exploitability ≈ {:.1f} ± {:.1f} mbb/g ({} flops, {})\n", point.mbb,
               point.ci95_mbb, flops, format_duration(seconds));
  }
  void best_kept(const CurvePoint& point, const std::string& strategy, double seconds) override {
    fmt::print(stderr, "      lowest so far ({:.1f} mbb/g at iteration {}): written to {} in {}\n",
               point.mbb, point.iterations, strategy, format_duration(seconds));
  }
  void estimate_stopped(double seconds) override {
    fmt::print(stderr, "      estimate stopped by signal after {}\n", format_duration(seconds));
  }
  void solve_interrupted() override {
    fmt::print(stderr, "      stopped by signal; checkpoint written\n");
  }
  void exported(const std::string& strategy, std::uint64_t bytes, int bits,
                double seconds) override {
    fmt::print(stderr, "[3/4] export: {} ({:.1f} MB, {}-bit) in {}\n", strategy,
               static_cast<double>(bytes) / 1e6, bits, format_duration(seconds));
  }
  void evaluation_started(bool exact, int flops) override {
    fmt::print(stderr, "[4/4] evaluate: real-game best response, {}\n",
               exact ? std::string("exact (all canonical flops)")
                     : fmt::format("{} sampled flops", flops));
  }
  void strategy_kept(const KeptStrategy& k) override {
    if (k.is_last)
      fmt::print(stderr, "      keeping the last strategy ({:.1f} mbb/g, lowest of {} estimates)\n",
                 k.last_mbb, k.candidates);
    else
      fmt::print(stderr,
                 "      keeping iteration {} ({:.1f} mbb/g, lowest of {} estimates); the last "
                 "({:.1f} mbb/g) stays in {}\n",
                 k.iterations, k.mbb, k.candidates, k.last_mbb, k.last_strategy);
  }
  void evaluation_progress(const Progress& p) override {
    fmt::print(stderr, "{}\n", best_response_progress_line(p));
  }

 private:
  Clock::time_point last_line_ = Clock::now() - std::chrono::seconds(10);
};

void print_summary(const PipelineReport& r, const std::string& config, double total_seconds) {
  const SolveSummary& s = r.solve.summary;
  fmt::print("hulhe run {} — {}\n", config, r.game);
  fmt::print("  abstraction  {} ({})\n", r.abstraction.description, r.abstraction.bucket_map);
  fmt::print("  solve        {} · {} iterations ({} this run) · {} · {} it/s · {} threads\n",
             r.solve.algorithm, s.iterations, s.iterations - s.first_iteration + 1,
             format_duration(s.seconds), format_rate(r.solve.iterations_per_second()),
             r.solve.threads);
  fmt::print("  tables       {:.1f} MiB · checkpoint {}\n", r.solve.table_bytes / 1048576.0,
             s.checkpoint);
  fmt::print("  strategy     {} ({:.1f} MB, {}{}-bit{})\n", r.exported.strategy,
             static_cast<double>(r.exported.bytes) / 1e6, r.exported.compact ? "compact, " : "",
             r.exported.bits,
             r.exported.thinning.empty() ? std::string() : ", " + r.exported.thinning);
  if (r.kept) {
    const KeptStrategy& k = *r.kept;
    if (k.is_last)
      fmt::print("  kept         the last, iteration {}: {:.1f} mbb/g, lowest of {} estimates\n",
                 k.iterations, k.mbb, k.candidates);
    else
      fmt::print(
          "  kept         iteration {} ({} of solve): {:.1f} mbb/g, lowest of {} estimates; the "
          "last, iteration {}: {:.1f} mbb/g ({})\n",
          k.iterations, format_duration(k.solve_seconds), k.mbb, k.candidates, k.last_iterations,
          k.last_mbb, k.last_strategy);
  }
  if (r.evaluation) {
    const HoldemBestResponseReport& e = *r.evaluation;
    // A sampled evaluation is of the last strategy, which the strategy file may not hold.
    const char* label = r.kept && !r.kept->is_last && !r.exact ? "last       " : "exploitable";
    if (r.exact)
      fmt::print("  exploitable  {:.1f} mbb/g (real game, exact, {} flops, {})\n", r.to_mbb(e.mean),
                 e.flop_classes, format_duration(r.evaluation_seconds));
    else if (std::isfinite(e.mean_ci95))
      fmt::print("  {}  {:.1f} ± {:.1f} mbb/g (real game, {} sampled flops, 95%, {})\n", label,
                 r.to_mbb(e.mean), r.to_mbb(e.mean_ci95), r.sampled_flops,
                 format_duration(r.evaluation_seconds));
    else
      fmt::print("  {}  {:.1f} mbb/g (real game, 1 sampled flop: no interval, {})\n", label,
                 r.to_mbb(e.mean), format_duration(r.evaluation_seconds));
    fmt::print("               BR vs seat 0 {:+.1f}, vs seat 1 {:+.1f} mbb/g\n",
               r.to_mbb(e.value[0]), r.to_mbb(e.value[1]));
  }
  if (!r.curve.empty())
    fmt::print("  curve        {}{}\n", r.curve_file,
               !r.plot_file.empty() ? " · plot " + r.plot_file
               : r.plot_asked       ? " (no plot: gnuplot missing)"
                                    : "");
  fmt::print("  report       {}\n", r.report_file);
  fmt::print("  total        {}\n", format_duration(total_seconds));
}

void run(const Options& o) {
  const auto start = Clock::now();
  PipelineConfig config = PipelineConfig::from_file(o.config);
  if (o.seconds) config.solve.seconds = *o.seconds;
  if (o.threads) config.solve.threads = *o.threads;
  PipelineRun pipeline(std::move(config));
  // Under mpirun the solve runs over the ranks; rank 0 alone estimates, exports, evaluates
  // and prints (docs/distributed.md).
  const SolveConfig& solve = pipeline.config().solve;
  const std::shared_ptr<SolveRanks> ranks =
      make_solve_ranks(solve.sync_every_seconds + solve.sync_timeout_seconds);
  pipeline.run_over(ranks);
  if (ranks && ranks->rank() != 0) {
    PipelineObserver silent;
    pipeline.run(silent);
    return;
  }
  fmt::print(stderr, "hulhe run: {} · game {} · {} threads{}\n", o.config, pipeline.game().name,
             solve.threads, ranks ? fmt::format(" · {} ranks", ranks->size()) : std::string());
  ProgressLines lines;
  const PipelineReport report = pipeline.run(lines);
  if (report.solve.summary.interrupted) return;
  if (o.json) {
    fmt::print("{}\n", report.to_json().dump());
    return;
  }
  print_summary(report, o.config, std::chrono::duration<double>(Clock::now() - start).count());
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "run", "The whole pipeline: abstraction, solve, export, real-game evaluation, report");
  cmd->add_option("--config", o->config, "pipeline config (.toml)")->capture_default_str();
  cmd->add_option("--seconds", o->seconds, "solve budget of this run (overrides [solve] seconds)");
  add_threads_option(cmd, o->threads, "OpenMP threads (default: the config's)");
  cmd->add_flag("--json", o->json, "print the report as one JSON object");
  cmd->callback([o] { run(*o); });
}

}  // namespace hulhe::cli
