#pragma once
// A pipeline config (`configs/hulhe-*.toml`): one file describes a whole `hulhe run` — the
// game and abstraction (abstraction_config.h), the solve ([solve], solve_config.h), and
//   [export]    strategy = "hulhe-quick.strategy"   # the strategy file written at the end
//               bits = 8                            # bits per action probability: 2 to 8, or 16
//               threshold = 0.15    # optional, 0 < T < 1: drop actions below T, renormalise
//               purify = true       # optional: the most probable action only (not with
//                                   # threshold; abstraction/strategy_thinning.h)
//               compact = true      # optional: format 3, river buckets computed at play
//                                   # time (an OCHS river only; `hulhe export --compact`)
//   [evaluate]  flops = 40          # sampled real-game best response: canonical flops drawn
//               every_seconds = 120 # during the solve, an estimate this often (0: end only)
//               exact = false       # at the end, the exact best response over all 1,755 flops
//               seed = 1
//               curve = "hulhe-quick.curve.csv"     # exploitability vs time
//               plot = "hulhe-quick.curve.svg"      # gnuplot, when installed
//               report = "hulhe-quick.report.json"
// Output paths are relative to the working directory. Unknown keys and wrong types are
// InputErrors naming the file and key.
#include <cstdint>
#include <string>
#include <toml.hpp>
#include <vector>

#include "abstraction/abstraction_config.h"
#include "abstraction/strategy_thinning.h"
#include "pipeline/solve_config.h"

namespace hulhe {

struct ExportSettings {
  std::string strategy;
  int bits = 8;
  StrategyThinning thinning;  // applied before quantisation, to every strategy a run writes
  // Every strategy file of the run in the compact format
  // (strategy_files/compact_bucket_abstraction.h): the river's bucket table replaced by its OCHS
  // model, checked once per run.
  bool compact = false;
  // Where `hulhe run` puts the last strategy when the strategy file keeps an earlier, less
  // exploitable one (pipeline/pipeline_run.h).
  std::string last_strategy() const { return strategy + ".last"; }
};

struct EvaluationSettings {
  int flops = 40;
  double every_seconds = 0.0;
  bool exact = false;
  std::uint64_t seed = 1;
  std::string curve;
  std::string plot;
  std::string report;
};

// One file of a run and its role in messages ("curve", "report").
struct PipelineFile {
  std::string what;
  std::string path;
};

struct PipelineConfig {
  std::string path;
  AbstractionConfig abstraction;
  SolveConfig solve;
  ExportSettings exports;
  EvaluationSettings evaluation;

  // Reads and parses the file once (at most kMaxConfigBytes, util/toml_input.h), then
  // from_table.
  static PipelineConfig from_file(const std::string& path);
  // From an already parsed file, named `path` in messages (relative paths in it are
  // resolved against its folder).
  static PipelineConfig from_table(const toml::value& root, const std::string& path);

  // Every file a run writes, stage by stage: bucket map, checkpoint, strategy file, the last
  // strategy's file `<strategy>.last`, curve, plot, report (those given; an existing bucket
  // map or checkpoint is also read).
  std::vector<PipelineFile> outputs() const;
  // The files a run only reads: the config and the .game file(s).
  std::vector<PipelineFile> inputs() const;
  // Before any work (`hulhe run` builds the abstraction for hours before it writes a report):
  // each output passes check_output_path against every input, and no two outputs are the
  // same file. InputError naming both roles otherwise.
  void check_outputs() const;
};

}  // namespace hulhe
