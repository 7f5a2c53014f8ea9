// `hulhe export --checkpoint PATH --out FILE [--bits B] [--threshold T | --purify]`: the
// checkpoint's average strategy as a compact strategy file (strategy_files/strategy_file.h).
// With `--baseline NAME` instead of a checkpoint, a baseline policy (uniform, always-call,
// always-raise) in a game and abstraction of one's choice: a strategy file to try `hulhe
// play` with before a solve. Bucket-map abstractions are embedded, so the file is all a
// player needs. `--threshold` and `--purify` thin either source before quantisation
// (abstraction/strategy_thinning.h; Ganzfried, Sandholm & Waugh 2012) and are recorded in
// the file's algorithm field ("cfr+, purified"). `--compact` writes a HULHE file over an OCHS
// river as format version 3 (strategy_files/compact_bucket_abstraction.h): river buckets computed
// at play time, every canonical river hand checked against the map while exporting.
#include <fmt/format.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "abstraction/abstraction_factory.h"
#include "abstraction/clustered_abstraction.h"
#include "abstraction/strategy_thinning.h"
#include "agents/baseline_policies.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "solver/average_policy.h"
#include "solver/checkpoint.h"
#include "strategy_files/compact_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/output_file.h"
#include "util/thread_start.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string checkpoint;
  std::string baseline;
  std::string game_path;
  std::string bucket_map;
  std::string out;
  int bits = 8;
  std::optional<double> threshold;
  bool purify = false;
  bool compact = false;
  std::optional<int> threads;

  StrategyThinning thinning() const {
    if (purify) return StrategyThinning::purify();
    if (threshold) return StrategyThinning::with_threshold(*threshold);
    return StrategyThinning::none();
  }
};

void report(const std::string& from, const Options& o,
            std::chrono::steady_clock::time_point start) {
  const auto bytes = std::filesystem::file_size(o.out);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const StrategyThinning thinning = o.thinning();
  fmt::print("exported {} to {} ({}{}-bit probabilities{}, {:.1f} MiB) in {:.1f} s\n", from, o.out,
             o.compact ? "compact, " : "", o.bits,
             thinning.active() ? ", " + thinning.describe() : std::string(),
             static_cast<double>(bytes) / (1 << 20), secs);
}

// The strategy file: full (version 2), or with --compact the bucket map's river replaced by
// its OCHS model, checked against every canonical river hand first.
void write_strategy(const Options& o, const Policy& policy, const CardAbstraction& abstraction,
                    const std::string& bucket_map, const StrategyFileMetadata& meta) {
  if (!o.compact) {
    write_strategy_file(o.out, policy, meta);
    return;
  }
  const auto* clustered = dynamic_cast<const ClusteredAbstraction*>(&abstraction);
  if (clustered == nullptr)
    throw InputError("--compact needs a HULHE strategy over a bucket map with an OCHS river; " +
                     abstraction.describe() + " is not one");
  const int threads = o.threads ? *o.threads : omp_get_max_threads();
  require_thread_start(threads);  // util/thread_start.h: a clear error, not libgomp's abort
  double last = 0.0;              // the elapsed time of the last line printed
  const CompactBucketAbstraction compact =
      CompactBucketAbstraction::from(*clustered, bucket_map, threads, [&](const Progress& p) {
        if (p.done < p.total && p.elapsed_seconds - last < 2.0) return;
        last = p.elapsed_seconds;
        fmt::print(stderr, "{}\n", export_progress_line(p));
      });
  fmt::print(stderr, "export: {} of {} canonical river hands kept as exceptions\n",
             compact.exceptions().index.size(), HandIndexer::holdem(3).size());
  write_compact_strategy_file(o.out, policy, compact, meta);
}

void run(const Options& o) {
  if (!supported_probability_bits(o.bits)) throw InputError("--bits must be 2 to 8 or 16");
  // Directories and devices are refused here, with a clear message, before any reader.
  if (!o.checkpoint.empty()) require_input_file(o.checkpoint, "checkpoint");
  check_output_path(o.out, "strategy file", {o.checkpoint, o.bucket_map, o.game_path});
  const auto start = std::chrono::steady_clock::now();
  const StrategyThinning thinning = o.thinning();
  if (!o.checkpoint.empty()) {
    const Checkpoint c = read_checkpoint(o.checkpoint);
    const GameDefinition game = c.game();
    const BettingTree tree(game);
    const auto abstraction = make_abstraction(c.abstraction_kind, game, c.bucket_map);
    check_checkpoint_matches(c, o.checkpoint, game, *abstraction);
    const AveragePolicy average(tree, *abstraction, c.tables);
    const ThinnedPolicy policy(average, thinning);
    StrategyFileMetadata meta;
    meta.checkpoint_hash = file_hash(o.checkpoint);
    meta.algorithm = thinning.applied_to(c.params.algorithm);
    meta.iterations = c.iterations;
    meta.abstraction_kind = c.abstraction_kind;
    meta.bucket_map = c.bucket_map;
    meta.bits = o.bits;
    write_strategy(o, policy, *abstraction, c.bucket_map, meta);
    report(fmt::format("{} ({}, {} iterations of {}, {} information sets)", o.checkpoint, game.name,
                       c.iterations, c.params.algorithm, c.tables.num_information_sets()),
           o, start);
    return;
  }
  const GameDefinition game = GameDefinition::from_option(o.game_path);
  const BettingTree tree(game);
  const std::string kind = o.bucket_map.empty() ? "lossless" : "buckets";
  const auto abstraction = make_abstraction(kind, game, o.bucket_map);
  const auto baseline = make_baseline_policy(o.baseline, tree, *abstraction);
  const ThinnedPolicy policy(*baseline, thinning);
  StrategyFileMetadata meta;
  meta.algorithm = thinning.applied_to("baseline:" + o.baseline);
  meta.abstraction_kind = kind;
  meta.bucket_map = o.bucket_map;
  meta.bits = o.bits;
  write_strategy(o, policy, *abstraction, o.bucket_map, meta);
  report(fmt::format("baseline {} ({}, {})", o.baseline, game.name, abstraction->describe()), o,
         start);
}

}  // namespace

void add_export_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd =
      app.add_subcommand("export", "Write a checkpoint's average strategy to a strategy file");
  auto* checkpoint = cmd->add_option("--checkpoint", o->checkpoint, "solver checkpoint (.ckpt)");
  auto* baseline =
      cmd->add_option("--baseline", o->baseline,
                      "export a baseline policy instead: uniform, always-call or always-raise");
  checkpoint->excludes(baseline);
  baseline->excludes(checkpoint);
  cmd->add_option("--game", o->game_path,
                  "with --baseline: ACPC .game file (default: heads-up limit hold'em)")
      ->excludes(checkpoint);
  cmd->add_option("--bucket-map", o->bucket_map,
                  "with --baseline: bucket map (`hulhe abstract`); default: lossless")
      ->excludes(checkpoint);
  cmd->add_option("--out", o->out, "strategy file to write (.strategy)")->required();
  cmd->add_option("--bits", o->bits,
                  "bits per probability: 8 or 16, or 2 to 7 for smaller compact files "
                  "(coarser probabilities)")
      ->capture_default_str();
  auto* threshold =
      cmd->add_option("--threshold", o->threshold,
                      "drop actions played with probability below T (0 < T < 1) at each "
                      "information set and renormalise the rest")
          ->check(open_interval_check(0.0, 1.0, "a probability threshold in (0, 1)"));
  auto* purify = cmd->add_flag("--purify", o->purify,
                               "play only the most probable action at each information set");
  cmd->add_flag("--compact", o->compact,
                "HULHE over an OCHS river: compute river buckets at play time instead of "
                "storing them (format version 4, about a tenth of the size)");
  add_threads_option(cmd, o->threads, "OpenMP threads of --compact's river check (default: all)");
  threshold->excludes(purify);
  purify->excludes(threshold);
  cmd->callback([o] {
    if (o->checkpoint.empty() && o->baseline.empty())
      throw InputError("export needs --checkpoint FILE or --baseline NAME");
    run(*o);
  });
}

}  // namespace hulhe::cli
