// `hulhe solve --config FILE [--algorithm A] [--iterations N] [--seconds S] [--threads T]
// [--seed X] [--checkpoint PATH] [--resume | --overwrite]`: runs a CFR-family solver
// (pipeline/solver_run.h) with progress lines on stderr and a summary on stdout.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "distributed/distributed_solve.h"
#include "pipeline/solve_config.h"
#include "pipeline/solver_run.h"
#include "util/duration_format.h"
#include "util/input_error.h"
#include "util/output_file.h"
#include "util/thread_start.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string config;
  std::optional<std::string> algorithm;
  std::optional<std::int64_t> iterations;
  std::optional<double> seconds;
  std::optional<int> threads;
  std::optional<std::uint64_t> seed;
  std::optional<std::string> checkpoint;
  bool resume = false;
  bool overwrite = false;
};

void run(const Options& o) {
  // Syntax errors (file:line:column), directories, devices and out-of-range values are
  // InputErrors from the reader; the overrides are checked again below.
  SolveConfig config = SolveConfig::from_file(o.config);
  if (o.algorithm) config.params.algorithm = *o.algorithm;
  if (o.iterations) config.iterations = *o.iterations;
  if (o.seconds) config.seconds = *o.seconds;
  if (o.threads) config.threads = *o.threads;
  if (o.seed) config.params.seed = *o.seed;
  if (o.checkpoint) config.checkpoint = *o.checkpoint;
  config.validate("command line");
  require_thread_start(config.threads);  // the config's count too (util/thread_start.h)
  // Output safety (util/output_file.h), checked before any work: a new run never replaces
  // an existing checkpoint unless told to, and never writes over one of its inputs.
  if (!config.checkpoint.empty()) {
    std::error_code ec;
    if (!o.resume && !o.overwrite && std::filesystem::exists(config.checkpoint, ec))
      throw InputError("checkpoint '" + config.checkpoint +
                       "' exists: --resume continues it, --overwrite replaces it");
    check_output_path(config.checkpoint, "checkpoint", {o.config, config.game_path});
  }

  SolverRun solver(config, o.resume);
  // Under mpirun: one solve over the ranks; rank 0 alone prints (docs/distributed.md).
  solver.run_over(make_solve_ranks(config.sync_every_seconds + config.sync_timeout_seconds));
  const bool speaks = solver.rank() == 0;
  const StrategyTables& t = solver.tables();
  if (speaks) {
    fmt::print(stderr, "game {} · abstraction {} · algorithm {} · seed {} · threads {}{}\n",
               solver.game().name, solver.abstraction().describe(), solver.params().algorithm,
               solver.params().seed, config.threads,
               solver.ranks() > 1 ? fmt::format(" · {} ranks, sync every {:g} s", solver.ranks(),
                                                config.sync_every_seconds)
                                  : std::string());
    fmt::print(stderr,
               "tables: {} information sets, {} entries, {:.2f} MiB ({} regrets and averages); "
               "memory available {:.2f} GiB\n",
               t.num_information_sets(), t.size(), solver.memory_bytes() / 1048576.0,
               to_string(t.precision()), available_memory_bytes() / 1073741824.0);
    if (o.resume)
      fmt::print(stderr, "resuming {} at iteration {}\n", config.checkpoint,
                 solver.iterations_done());
  }
  const SolveSummary s = solver.run(
      [&solver](const Progress& p) { fmt::print(stderr, "{}\n", solve_progress_line(p, solver)); });
  if (!speaks) return;
  if (s.interrupted) fmt::print(stderr, "stopped by signal; checkpoint written\n");
  fmt::print("solved {} with {}: iterations {}..{} in {} ({} it/s)\n", solver.game().name,
             solver.params().algorithm, s.first_iteration, s.iterations, format_duration(s.seconds),
             format_rate((s.iterations - s.first_iteration + 1) / std::max(s.seconds, 1e-9)));
  if (s.report) {
    fmt::print("game value (seat 0): {:.9f} chips/hand\n", s.report->game_value);
    fmt::print("exploitability: {:.6e} chips/hand (NashConv {:.6e})\n",
               s.report->exploitability_chips, s.report->nash_conv);
    if (s.report->exploitability_mbb)
      fmt::print("exploitability: {:.3f} mbb/g\n", *s.report->exploitability_mbb);
  }
  if (!s.checkpoint.empty()) fmt::print("checkpoint: {}\n", s.checkpoint);
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd =
      app.add_subcommand("solve", "Run a CFR-family solver on a game, with checkpoints and resume");
  cmd->add_option("--config", o->config, "run configuration (.toml)")->required();
  cmd->add_option("--algorithm", o->algorithm, "cfr, cfr+, dcfr, cfr-br, external, outcome, pcs");
  cmd->add_option("--iterations", o->iterations,
                  "total iterations (a resumed run counts earlier ones)");
  cmd->add_option("--seconds", o->seconds, "wall-clock budget of this run");
  add_threads_option(cmd, o->threads, "OpenMP threads (default: the config's)");
  add_seed_option(cmd, o->seed, "random seed (sampling algorithms)");
  cmd->add_option("--checkpoint", o->checkpoint,
                  "checkpoint file (written periodically and at the end)");
  CLI::Option* resume = cmd->add_flag("--resume", o->resume, "continue from the checkpoint");
  cmd->add_flag("--overwrite", o->overwrite,
                "start afresh even if the checkpoint file exists, replacing it")
      ->excludes(resume);
  cmd->callback([o] { run(*o); });
}

}  // namespace hulhe::cli
