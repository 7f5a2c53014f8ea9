#include "pipeline/pipeline_config.h"

#include <cmath>
#include <filesystem>
#include <set>
#include <toml.hpp>

#include "strategy_files/strategy_file.h"
#include "util/input_error.h"
#include "util/output_file.h"
#include "util/toml_input.h"

namespace hulhe {
namespace {

template <typename T>
T get(const toml::value* t, const std::string& key, const T& fallback, const std::string& path) {
  return t == nullptr ? fallback : toml_value_or<T>(*t, key, fallback, path);
}

}  // namespace

PipelineConfig PipelineConfig::from_file(const std::string& path) {
  // Read and parsed once; every stage builds from the same table.
  return from_table(parse_toml_file(path, "config", kMaxConfigBytes), path);
}

PipelineConfig PipelineConfig::from_table(const toml::value& root, const std::string& path) {
  PipelineConfig c;
  c.path = path;
  c.abstraction = AbstractionConfig::from_table(root, path, AbstractionConfig::base_dir_of(path));
  c.solve = SolveConfig::from_table(root, path, &c.abstraction);
  if (c.solve.abstraction != "buckets")
    throw InputError(path +
                     ": a pipeline config needs a [solve] table and the abstraction "
                     "rounds [preflop] .. [river]");
  const std::string stem = std::filesystem::path(path).stem().string();
  const toml::value* ex =
      toml_table_of(root, "export", {"strategy", "bits", "threshold", "purify", "compact"}, path);
  c.exports.strategy = get<std::string>(ex, "strategy", stem + ".strategy", path);
  c.exports.bits = static_cast<int>(get<std::int64_t>(ex, "bits", 8, path));
  if (!supported_probability_bits(c.exports.bits))
    throw InputError(path + ": 'export.bits' must be 2 to 8 or 16");
  const bool purify = get<bool>(ex, "purify", false, path);
  if (ex != nullptr && ex->contains("threshold")) {
    const double t = get<double>(ex, "threshold", 0.0, path);
    if (!std::isfinite(t) || !(t > 0.0) || !(t < 1.0))
      throw InputError(path + ": 'export.threshold' must be a number in (0, 1)");
    if (purify)
      throw InputError(path +
                       ": 'export.threshold' and 'export.purify' exclude each other; give one");
    c.exports.thinning = StrategyThinning::with_threshold(t);
  } else if (purify) {
    c.exports.thinning = StrategyThinning::purify();
  }
  c.exports.compact = get<bool>(ex, "compact", false, path);
  if (c.exports.compact && c.abstraction.rounds[3].method != BucketingMethod::kOchs)
    throw InputError(path +
                     ": 'export.compact' needs an OCHS river ([river] method = \"ochs\"): "
                     "the player computes river buckets from its centres");
  const toml::value* ev =
      toml_table_of(root, "evaluate",
                    {"flops", "every_seconds", "exact", "seed", "curve", "plot", "report"}, path);
  EvaluationSettings& e = c.evaluation;
  e.flops = static_cast<int>(get<std::int64_t>(ev, "flops", e.flops, path));
  e.every_seconds = get<double>(ev, "every_seconds", e.every_seconds, path);
  e.exact = get<bool>(ev, "exact", e.exact, path);
  const auto seed = get<std::int64_t>(ev, "seed", 1, path);
  e.curve = get<std::string>(ev, "curve", stem + ".curve.csv", path);
  e.plot = get<std::string>(ev, "plot", stem + ".curve.svg", path);
  e.report = get<std::string>(ev, "report", stem + ".report.json", path);
  if (e.flops < 0 || e.flops > 1755) throw InputError(path + ": 'evaluate.flops' must be 0..1755");
  if (!std::isfinite(e.every_seconds) || e.every_seconds < 0)
    throw InputError(path + ": 'evaluate.every_seconds' must be a finite number >= 0");
  if (seed < 0) throw InputError(path + ": 'evaluate.seed' must be >= 0");
  e.seed = static_cast<std::uint64_t>(seed);
  return c;
}

std::vector<PipelineFile> PipelineConfig::outputs() const {
  std::vector<PipelineFile> files;
  auto add = [&](const char* what, const std::string& p) {
    if (!p.empty()) files.push_back({what, p});
  };
  add("bucket map", abstraction.output);  // the solve reads it from the same path
  add("checkpoint", solve.checkpoint);
  add("strategy file", exports.strategy);
  if (!exports.strategy.empty()) add("last strategy file", exports.last_strategy());
  add("curve", evaluation.curve);
  add("plot", evaluation.plot);
  add("report", evaluation.report);
  return files;
}

std::vector<PipelineFile> PipelineConfig::inputs() const {
  std::vector<PipelineFile> files{{"config", path}, {"game", solve.game_path}};
  if (abstraction.game_path != solve.game_path) files.push_back({"game", abstraction.game_path});
  return files;
}

void PipelineConfig::check_outputs() const {
  std::vector<std::string> input_paths;
  for (const PipelineFile& in : inputs()) input_paths.push_back(in.path);
  const std::vector<PipelineFile> out = outputs();
  for (std::size_t i = 0; i < out.size(); ++i) {
    check_output_path(out[i].path, out[i].what, input_paths);
    for (std::size_t j = 0; j < i; ++j)
      if (is_same_file(out[i].path, out[j].path))
        throw InputError(path + ": the " + out[i].what + " '" + out[i].path + "' and the " +
                         out[j].what + " '" + out[j].path +
                         "' are the same file; give each output its own path");
  }
}

}  // namespace hulhe
