// `hulhe abstract`: builds a HULHE card abstraction (bucket map) from a TOML config; shows
// progress per stage (rate, ETA) on stderr and a summary per round on stdout.
#include <fmt/core.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "abstraction/abstraction_builder.h"
#include "abstraction/abstraction_config.h"
#include "abstraction/clustered_abstraction.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "game/game_definition.h"
#include "util/input_error.h"
#include "util/output_file.h"
#include "util/thread_start.h"

namespace hulhe::cli {
namespace {

struct AbstractOptions {
  std::string config;
  std::optional<int> threads;
  std::optional<std::string> out;
  std::optional<std::uint64_t> seed;
  bool json = false;
};

void run(const AbstractOptions& opt) {
  AbstractionConfig config = AbstractionConfig::from_file(opt.config);
  if (opt.seed) config.seed = *opt.seed;
  if (opt.out) config.output = *opt.out;
  int threads = opt.threads ? *opt.threads : config.threads;
  if (threads == 0) threads = omp_get_max_threads();
  require_thread_start(threads);  // the config's count too (util/thread_start.h)
  omp_set_num_threads(threads);
  GameDefinition game = GameDefinition::from_file(config.game_path);
  require_holdem(game, config.game_path);
  // Fail now, not after the whole build, if the output cannot be written or is an input.
  check_output_path(config.output, "bucket map", {opt.config, config.game_path});
  fmt::print(stderr, "hulhe abstract: {} → {} ({} threads, seed {})\n", opt.config, config.output,
             threads, config.seed);
  for (int r = 0; r < 4; ++r)
    fmt::print(stderr, "  {:<8} {}\n", kRoundNames[r], config.describe(r));
  auto start = std::chrono::steady_clock::now();
  // A stage's start (done 0) prints nothing; its progress and end print a line.
  AbstractionBuilder builder(config, game.hash(), threads, [](const Progress& p) {
    if (p.done > 0) fmt::print(stderr, "{}\n", abstraction_progress_line(p));
  });
  BucketMap map = builder.build();
  map.save(config.output);
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto bytes = std::filesystem::file_size(config.output);
  const std::uint64_t hash = map.hash();

  if (opt.json) {
    nlohmann::json j;
    j["config"] = opt.config;
    j["output"] = config.output;
    j["hash"] = fmt::format("{:016x}", hash);
    j["threads"] = threads;
    j["seed"] = config.seed;
    j["seconds"] = total;
    j["bytes"] = bytes;
    for (const RoundReport& r : builder.round_reports())
      j["rounds"].push_back({{"round", kRoundNames[r.round]},
                             {"method", r.method},
                             {"buckets", r.buckets},
                             {"hands", r.hands},
                             {"min_hands", r.min_hands},
                             {"median_hands", r.median_hands},
                             {"max_hands", r.max_hands},
                             {"cost", r.cost},
                             {"seconds", r.seconds}});
    for (const StageReport& s : builder.stage_reports())
      j["stages"].push_back(
          {{"stage", s.name}, {"seconds", s.seconds}, {"peak_rss_mib", s.peak_rss_mib}});
    // Paths need not be UTF-8: invalid bytes become U+FFFD instead of an exception.
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    return;
  }
  fmt::print("{:<8} {:<12} {:>8} {:>12} {:>26} {:>14} {:>9}\n", "round", "method", "buckets",
             "hands", "hands/bucket min/med/max", "cost", "time");
  for (const RoundReport& r : builder.round_reports())
    fmt::print("{:<8} {:<12} {:>8} {:>12} {:>26} {:>14.6g} {:>8.1f}s\n", kRoundNames[r.round],
               r.method, r.buckets, r.hands,
               fmt::format("{} / {} / {}", r.min_hands, r.median_hands, r.max_hands), r.cost,
               r.seconds);
  fmt::print("\nstage{:<52} {:>9} {:>12}\n", "", "time", "peak memory");
  for (const StageReport& s : builder.stage_reports())
    fmt::print("  {:<55} {:>8.1f}s {:>8.0f} MiB\n", s.name, s.seconds, s.peak_rss_mib);
  fmt::print("\nwrote {} ({:.1f} MiB, abstraction hash {:016x}) in {:.1f}s\n", config.output,
             bytes / 1048576.0, hash, total);
}

}  // namespace

void add_abstract_command(CLI::App& app) {
  auto opt = std::make_shared<AbstractOptions>();
  CLI::App* cmd = app.add_subcommand(
      "abstract", "Build a HULHE card abstraction (bucket map) from a TOML config");
  cmd->add_option("--config", opt->config,
                  "abstraction config (TOML), e.g. configs/hulhe-quick.toml")
      ->required();
  add_threads_option(cmd, opt->threads, "OpenMP threads (default: config, else all cores)");
  cmd->add_option("--out", opt->out, "output bucket map (default: the config's 'output')");
  add_seed_option(cmd, opt->seed, "random seed (default: the config's 'seed')");
  cmd->add_flag("--json", opt->json, "print the summary as one JSON object");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace hulhe::cli
