// `hulhe run [--config configs/hulhe-quick.toml] [--seconds S] [--threads T] [--json]`: the
// whole pipeline of a pipeline config (pipeline/pipeline_config.h): build the bucket map (or
// reuse a matching one), solve (resuming an earlier run of the same config), export the
// strategy file, evaluate it by real-game best response (a sampled estimate with its interval
// during the solve and at the end, exact when the config asks), then write the
// exploitability-vs-time curve (CSV), its plot (SVG by gnuplot, where installed), a JSON
// report, and print a one-screen summary.
#include <fcntl.h>
#include <fmt/format.h>
#include <omp.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "abstraction/abstraction_builder.h"
#include "abstraction/bucket_map.h"
#include "best_response/holdem/holdem_best_response.h"
#include "cli/commands.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/solver_run.h"
#include "solver/average_policy.h"
#include "solver/checkpoint.h"
#include "strategies/strategy_file.h"
#include "util/duration_format.h"
#include "util/input_error.h"
#include "util/output_file.h"
#include "util/thread_start.h"

namespace hulhe::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string config = "configs/hulhe-quick.toml";
  std::optional<double> seconds;
  std::optional<int> threads;
  bool json = false;
};

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// One point of the exploitability-vs-time curve.
struct CurvePoint {
  double solve_seconds = 0.0;  // solver time so far, this invocation and earlier ones
  std::int64_t iterations = 0;
  double mbb = 0.0;       // exploitability estimate, mbb/g
  double ci95_mbb = 0.0;  // half-width; 0 when exact
  bool exact = false;
};

// Exploitability of `policy` in the real game, mbb/g: sampled flops or exact.
HoldemBestResponseReport evaluate(const Policy& policy, const EvaluationSettings& e, bool exact,
                                  int threads, bool progress,
                                  std::function<bool()> should_stop = {}) {
  HoldemBestResponseOptions o;
  o.should_stop = std::move(should_stop);
  o.threads = threads;
  o.sample_flops = exact ? 0 : e.flops;
  o.seed = e.seed;
  if (progress) o.on_progress = print_best_response_progress();
  return HoldemBestResponse(policy, o).run();
}

double chips_to_mbb(const GameDefinition& game, double chips) {
  return chips * 1000.0 / game.big_blind();
}

// Returns the bucket map's path after building it when missing or stale.
void ensure_bucket_map(const PipelineConfig& config, const GameDefinition& game, int threads) {
  const std::string& path = config.abstraction.output;
  if (std::filesystem::exists(path)) {
    const BucketMap map = BucketMap::load(path, game.hash(), game.name);
    if (map.source_hash == config.abstraction.hash()) {
      fmt::print(stderr, "[1/4] abstraction: reusing {} (built from this config)\n", path);
      return;
    }
    throw InputError("bucket map " + path + " exists but was built from another abstraction " +
                     "description than " + config.path +
                     "; move it away or change 'output' in the config");
  }
  fmt::print(stderr, "[1/4] abstraction: building {} ({} threads)\n", path, threads);
  const auto start = Clock::now();
  auto last = Clock::now() - std::chrono::seconds(10);
  AbstractionBuilder builder(
      config.abstraction, game.hash(), threads, [&](const AbstractionProgress& p) {
        if (p.done < p.total && Clock::now() - last < std::chrono::seconds(5)) return;
        last = Clock::now();
        fmt::print(stderr, "      {}: {}/{} ({:.0f}%) · elapsed {}\n", p.stage, p.done, p.total,
                   p.total > 0 ? 100.0 * p.done / p.total : 100.0, format_duration(since(start)));
      });
  builder.build().save(path);
  fmt::print(stderr, "      bucket map written in {}\n", format_duration(since(start)));
}

std::string curve_csv(const std::vector<CurvePoint>& curve) {
  std::string text = "solve_seconds,iterations,exploitability_mbb,ci95_mbb,exact\n";
  for (const CurvePoint& p : curve)
    text += fmt::format("{:.1f},{},{:.3f},{:.3f},{}\n", p.solve_seconds, p.iterations, p.mbb,
                        p.ci95_mbb, p.exact ? 1 : 0);
  return text;
}

// A gnuplot single-quoted string: quotes doubled, control bytes (which would end the script
// line) replaced.
std::string gnuplot_quoted(const std::string& text) {
  std::string q = "'";
  for (const char c : text) {
    if (c == '\'')
      q += "''";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      q += '?';
    else
      q += c;
  }
  return q + "'";
}

// Runs gnuplot (Debian's gnuplot-nox) with `script` on its stdin, without a shell, and returns
// what it printed (the SVG); nothing when gnuplot is missing or fails.
std::optional<std::string> run_gnuplot(const std::string& script) {
  int in[2];
  int out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return std::nullopt;
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  char name[] = "gnuplot";
  char* argv[] = {name, nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    return std::nullopt;
  }
  // A gnuplot that died early must not kill hulhe by SIGPIPE; the script (under 1 KiB plus
  // the curve) is written before the output is read, which a pipe's buffer allows.
  struct sigaction ignore {};
  struct sigaction saved {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &saved);
  bool sent = true;
  for (std::size_t done = 0; done < script.size();) {
    const ssize_t n = ::write(in[1], script.data() + done, script.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      sent = false;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(in[1]);
  ::sigaction(SIGPIPE, &saved, nullptr);
  std::string svg;
  char buffer[1 << 14];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    svg.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!sent || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || svg.empty()) return std::nullopt;
  return svg;
}

// The curve with its 95% intervals as SVG, written like every output (write_output_file);
// the data go inline, so no file but the plot itself is named in the script. False when
// gnuplot is missing or fails.
bool plot_curve(const std::string& csv_text, const std::string& svg, const std::string& title) {
  std::string script = "$curve << EOD\n" + csv_text.substr(csv_text.find('\n') + 1) + "EOD\n";
  script += "set terminal svg size 800,500 dynamic background rgb 'white'\n";
  script += "set datafile separator ','\n";
  script += "set title " + gnuplot_quoted(title) + " noenhanced\n";
  script += "set xlabel 'solver time (s)'\nset ylabel 'exploitability (mbb/g, real game)'\n";
  script += "set grid\nset key top right\n";
  script +=
      "plot $curve using 1:3:4 with yerrorlines lw 2 pt 7 title 'best response, 95% interval'\n";
  const std::optional<std::string> image = run_gnuplot(script);
  if (!image) return false;
  write_output_file(svg, "plot", {*image});
  return true;
}

void run(const Options& o) {
  const auto start = Clock::now();
  PipelineConfig config = PipelineConfig::from_file(o.config);
  if (o.seconds) config.solve.seconds = *o.seconds;
  if (o.threads) config.solve.threads = *o.threads;
  config.solve.validate("command line");
  require_thread_start(config.solve.threads);  // the config's count too (util/thread_start.h)
  // Every output of every stage, against every input and each other, before the hours of
  // the abstraction and the solve (pipeline/pipeline_config.h).
  config.check_outputs();
  const int threads = config.solve.threads;
  GameDefinition game = GameDefinition::from_file(config.solve.game_path);
  game.name = std::filesystem::path(config.solve.game_path).stem().string();
  fmt::print(stderr, "hulhe run: {} · game {} · {} threads\n", o.config, game.name, threads);

  // 1. Abstraction.
  const auto t_abstract = Clock::now();
  ensure_bucket_map(config, game, threads);
  const double abstract_seconds = since(t_abstract);

  // 2. Solve, resuming an earlier run of this config; sampled estimates along the way.
  const bool resume =
      !config.solve.checkpoint.empty() && std::filesystem::exists(config.solve.checkpoint);
  SolverRun solver(config.solve, resume);
  fmt::print(stderr,
             "[2/4] solve: {} over {} · tables {:.1f} MiB ({}) of {:.1f} GiB available · "
             "budget {}{}\n",
             solver.params().algorithm, solver.abstraction().describe(),
             solver.memory_bytes() / 1048576.0, to_string(solver.tables().precision()),
             available_memory_bytes() / 1073741824.0, format_duration(config.solve.seconds),
             resume ? fmt::format(" · resuming {} at iteration {}", config.solve.checkpoint,
                                  solver.iterations_done())
                    : std::string());
  std::vector<CurvePoint> curve;
  double evaluating = 0.0;  // seconds spent on estimates during the solve
  double last_estimate = 0.0;
  const double every = config.evaluation.every_seconds;
  const SolveSummary summary = solver.run([&](const SolveProgress& p) {
    std::string line =
        fmt::format("      iteration {} · {:.0f} it/s · elapsed {} · ETA {}", p.iterations,
                    p.iterations_per_second, format_duration(p.elapsed_seconds),
                    format_duration(p.eta_seconds));
    if (p.checkpoint_written)
      line += fmt::format(" · checkpoint {:.1f}s ({:.0f} MB/s)", solver.last_checkpoint_seconds(),
                          solver.last_checkpoint_mb_per_second());
    fmt::print(stderr, "{}\n", line);
    if (every > 0 && config.evaluation.flops > 0 && p.elapsed_seconds - last_estimate >= every) {
      last_estimate = p.elapsed_seconds;
      const auto t = Clock::now();
      const AveragePolicy policy(solver.tree(), solver.abstraction(), solver.tables());
      // SIGTERM during an estimate ends it after the flops in progress; the solve then
      // checkpoints and stops as it would between chunks.
      const auto r =
          evaluate(policy, config.evaluation, false, threads, false, &SolverRun::stop_requested);
      const double took = since(t);
      evaluating += took;
      solver.exclude_time(took);
      if (!r.complete) {
        fmt::print(stderr, "      estimate stopped by signal after {}\n", format_duration(took));
        return;
      }
      curve.push_back({p.elapsed_seconds, p.iterations, chips_to_mbb(game, r.mean),
                       chips_to_mbb(game, r.mean_ci95), false});
      fmt::print(stderr, "      exploitability ≈ {:.1f} ± {:.1f} mbb/g ({} flops, {})\n",
                 curve.back().mbb, curve.back().ci95_mbb, config.evaluation.flops,
                 format_duration(took));
    }
  });
  if (summary.interrupted) fmt::print(stderr, "      stopped by signal; checkpoint written\n");

  // 3. Export.
  const auto t_export = Clock::now();
  const AveragePolicy policy(solver.tree(), solver.abstraction(), solver.tables());
  StrategyFileMetadata meta;
  if (!summary.checkpoint.empty()) meta.checkpoint_hash = file_hash(summary.checkpoint);
  meta.algorithm = solver.params().algorithm;
  meta.iterations = solver.iterations_done();
  meta.abstraction_kind = config.solve.abstraction;
  meta.bucket_map = config.solve.bucket_map;
  meta.bits = config.exports.bits;
  write_strategy_file(config.exports.strategy, policy, meta);
  const double export_seconds = since(t_export);
  fmt::print(stderr, "[3/4] export: {} ({:.1f} MB, {}-bit) in {}\n", config.exports.strategy,
             std::filesystem::file_size(config.exports.strategy) / 1e6, config.exports.bits,
             format_duration(export_seconds));
  if (summary.interrupted) return;

  // 4. Evaluate the exported strategy in the real game.
  const auto t_eval = Clock::now();
  const StrategyFile file = StrategyFile::read(config.exports.strategy);
  const bool exact = config.evaluation.exact;
  std::optional<HoldemBestResponseReport> final_report;
  if (exact || config.evaluation.flops > 0) {
    fmt::print(stderr, "[4/4] evaluate: real-game best response, {}\n",
               exact ? std::string("exact (all canonical flops)")
                     : fmt::format("{} sampled flops", config.evaluation.flops));
    final_report = evaluate(file, config.evaluation, exact, threads, true);
    curve.push_back({summary.seconds, summary.iterations, chips_to_mbb(game, final_report->mean),
                     chips_to_mbb(game, final_report->mean_ci95), exact});
  }
  const double eval_seconds = since(t_eval);
  bool plotted = false;
  if (!curve.empty() && !config.evaluation.curve.empty()) {
    const std::string csv = curve_csv(curve);
    write_output_file(config.evaluation.curve, "curve", {csv});
    if (!config.evaluation.plot.empty())
      plotted = plot_curve(csv, config.evaluation.plot,
                           fmt::format("{}: {} over {}", o.config, solver.params().algorithm,
                                       solver.abstraction().describe()));
  }

  nlohmann::json j;
  j["config"] = o.config;
  j["game"] = game.name;
  j["abstraction"] = {{"bucket_map", config.abstraction.output},
                      {"description", solver.abstraction().describe()},
                      {"seconds", abstract_seconds}};
  j["solve"] = {{"algorithm", solver.params().algorithm},
                {"threads", threads},
                {"iterations", summary.iterations},
                {"first_iteration", summary.first_iteration},
                {"seconds", summary.seconds},
                {"evaluation_seconds_during_solve", evaluating},
                {"iterations_per_second", (summary.iterations - summary.first_iteration + 1) /
                                              std::max(summary.seconds, 1e-9)},
                {"table_bytes", solver.memory_bytes()},
                {"checkpoint", summary.checkpoint},
                {"checkpoint_mb_per_second", solver.last_checkpoint_mb_per_second()}};
  j["export"] = {{"strategy", config.exports.strategy},
                 {"bits", config.exports.bits},
                 {"bytes", std::filesystem::file_size(config.exports.strategy)},
                 {"seconds", export_seconds}};
  if (final_report) {
    const auto& r = *final_report;
    j["evaluation"] = {
        {"exact", exact},
        {"flops", exact ? r.flop_classes : config.evaluation.flops},
        {"br_value_vs_seat_mbb", {chips_to_mbb(game, r.value[0]), chips_to_mbb(game, r.value[1])}},
        {"exploitability_mbb", chips_to_mbb(game, r.mean)},
        {"ci95_mbb", chips_to_mbb(game, r.mean_ci95)},
        {"seconds", eval_seconds}};
  }
  j["curve"] = nlohmann::json::array();
  for (const CurvePoint& p : curve)
    j["curve"].push_back({{"solve_seconds", p.solve_seconds},
                          {"iterations", p.iterations},
                          {"exploitability_mbb", p.mbb},
                          {"ci95_mbb", p.ci95_mbb}});
  j["files"] = {{"curve", config.evaluation.curve},
                {"plot", plotted ? config.evaluation.plot : ""},
                {"report", config.evaluation.report}};
  j["seconds"] = since(start);
  if (!config.evaluation.report.empty())
    write_output_file(config.evaluation.report, "report", {j.dump(2), "\n"});
  if (o.json) {
    fmt::print("{}\n", j.dump());
    return;
  }
  fmt::print("hulhe run {} — {}\n", o.config, game.name);
  fmt::print("  abstraction  {} ({})\n", solver.abstraction().describe(),
             config.abstraction.output);
  fmt::print("  solve        {} · {} iterations ({} this run) · {} · {:.0f} it/s · {} threads\n",
             solver.params().algorithm, summary.iterations,
             summary.iterations - summary.first_iteration + 1, format_duration(summary.seconds),
             (summary.iterations - summary.first_iteration + 1) / std::max(summary.seconds, 1e-9),
             threads);
  fmt::print("  tables       {:.1f} MiB · checkpoint {}\n", solver.memory_bytes() / 1048576.0,
             summary.checkpoint);
  fmt::print("  strategy     {} ({:.1f} MB, {}-bit)\n", config.exports.strategy,
             std::filesystem::file_size(config.exports.strategy) / 1e6, config.exports.bits);
  if (final_report) {
    const auto& r = *final_report;
    if (exact)
      fmt::print("  exploitable  {:.1f} mbb/g (real game, exact, {} flops, {})\n",
                 chips_to_mbb(game, r.mean), r.flop_classes, format_duration(eval_seconds));
    else if (std::isfinite(r.mean_ci95))
      fmt::print("  exploitable  {:.1f} ± {:.1f} mbb/g (real game, {} sampled flops, 95%, {})\n",
                 chips_to_mbb(game, r.mean), chips_to_mbb(game, r.mean_ci95),
                 config.evaluation.flops, format_duration(eval_seconds));
    else
      fmt::print("  exploitable  {:.1f} mbb/g (real game, 1 sampled flop: no interval, {})\n",
                 chips_to_mbb(game, r.mean), format_duration(eval_seconds));
    fmt::print("               BR vs seat 0 {:+.1f}, vs seat 1 {:+.1f} mbb/g\n",
               chips_to_mbb(game, r.value[0]), chips_to_mbb(game, r.value[1]));
  }
  if (!curve.empty())
    fmt::print("  curve        {}{}\n", config.evaluation.curve,
               plotted ? " · plot " + config.evaluation.plot : " (no plot: gnuplot missing)");
  fmt::print("  report       {}\n", config.evaluation.report);
  fmt::print("  total        {}\n", format_duration(since(start)));
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
