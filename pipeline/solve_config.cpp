#include "pipeline/solve_config.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>
#include <toml.hpp>

#include "abstraction/abstraction_config.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/toml_input.h"

namespace hulhe {
namespace {

void read_parameters(const toml::value& p, const std::string& prefix, const std::string& path,
                     CfrParameters& c) {
  if (!p.is_table()) throw InputError(path + ": '" + prefix + "' must be a table");
  toml_check_keys(p,
                  {"dcfr_alpha", "dcfr_beta", "dcfr_gamma", "cfr_plus_delay", "outcome_epsilon",
                   "discount_interval", "discount_until", "average_delay", "prune_after",
                   "prune_threshold", "prune_probability", "regret_floor"},
                  prefix + ".", path);
  c.dcfr_alpha = toml_value_or<double>(p, "dcfr_alpha", c.dcfr_alpha, path);
  c.dcfr_beta = toml_value_or<double>(p, "dcfr_beta", c.dcfr_beta, path);
  c.dcfr_gamma = toml_value_or<double>(p, "dcfr_gamma", c.dcfr_gamma, path);
  c.cfr_plus_delay = toml_value_or<std::int64_t>(p, "cfr_plus_delay", c.cfr_plus_delay, path);
  c.outcome_epsilon = toml_value_or<double>(p, "outcome_epsilon", c.outcome_epsilon, path);
  c.discount_interval =
      toml_value_or<std::int64_t>(p, "discount_interval", c.discount_interval, path);
  c.discount_until = toml_value_or<std::int64_t>(p, "discount_until", c.discount_until, path);
  c.average_delay = toml_value_or<std::int64_t>(p, "average_delay", c.average_delay, path);
  c.prune_after = toml_value_or<std::int64_t>(p, "prune_after", c.prune_after, path);
  c.prune_threshold = toml_value_or<double>(p, "prune_threshold", c.prune_threshold, path);
  c.prune_probability = toml_value_or<double>(p, "prune_probability", c.prune_probability, path);
  c.regret_floor = toml_value_or<double>(p, "regret_floor", c.regret_floor, path);
}

// The solve keys, at the top level (small games) or in [solve] (pipeline configs).
void read_solve_keys(const toml::value& t, const std::string& path, SolveConfig& c) {
  c.params.algorithm = toml_value_or<std::string>(t, "algorithm", c.params.algorithm, path);
  c.iterations = toml_value_or<std::int64_t>(t, "iterations", c.iterations, path);
  c.seconds = toml_value_or<double>(t, "seconds", c.seconds, path);
  c.threads = static_cast<int>(toml_value_or<std::int64_t>(t, "threads", c.threads, path));
  if (t.contains("seed")) {
    const auto seed = toml_value_or<std::int64_t>(t, "seed", 1, path);
    // Stored unsigned, a negative seed would silently wrap to 2^64-1.
    if (seed < 0)
      throw InputError(path + ": 'seed' = " + std::to_string(seed) +
                       " must be a whole number >= 0");
    c.params.seed = static_cast<std::uint64_t>(seed);
  }
  c.checkpoint = toml_value_or<std::string>(t, "checkpoint", c.checkpoint, path);
  c.checkpoint_every_iterations =
      toml_value_or<std::int64_t>(t, "checkpoint_every_iterations", 0, path);
  c.checkpoint_every_seconds = toml_value_or<double>(t, "checkpoint_every_seconds", 0.0, path);
  c.progress_every_seconds =
      toml_value_or<double>(t, "progress_every_seconds", c.progress_every_seconds, path);
  c.table_precision = toml_value_or<std::string>(t, "table_precision", c.table_precision, path);
  c.sync_every_seconds = toml_value_or<double>(t, "sync_every_seconds", c.sync_every_seconds, path);
  c.sync_timeout_seconds =
      toml_value_or<double>(t, "sync_timeout_seconds", c.sync_timeout_seconds, path);
  if (t.contains("parameters")) read_parameters(t.at("parameters"), "parameters", path, c.params);
}

}  // namespace

SolveConfig SolveConfig::from_file(const std::string& path) {
  // Regular files only; syntax errors as one line with file:line:column.
  const std::string text = read_input_file(path, "config", kMaxTomlFileBytes);
  return from_parsed(parse_toml(text, path), path, nullptr, text.size());
}

SolveConfig SolveConfig::from_table(const toml::value& root, const std::string& path,
                                    const AbstractionConfig* abstraction) {
  return from_parsed(root, path, abstraction, 0);
}

SolveConfig SolveConfig::from_parsed(const toml::value& root, const std::string& path,
                                     const AbstractionConfig* given_abstraction,
                                     std::uint64_t file_bytes) {
  if (!root.is_table()) throw InputError(path + ": not a TOML table");
  SolveConfig c;
  c.path = path;
  if (!root.contains("game")) throw InputError(path + ": missing key 'game'");
  std::filesystem::path game = toml_value_or<std::string>(root, "game", "", path);
  if (game.is_relative()) game = std::filesystem::path(path).parent_path() / game;
  c.game_path = game.lexically_normal().string();

  if (root.contains("solve")) {
    // A pipeline config: the abstraction is its bucket map.
    // The abstraction as `hulhe abstract` reads it, from a file of at most kMaxConfigBytes.
    check_input_size(path, "config", file_bytes, kMaxConfigBytes);
    const AbstractionConfig abstraction =
        given_abstraction != nullptr
            ? *given_abstraction
            : AbstractionConfig::from_table(root, path, AbstractionConfig::base_dir_of(path));
    c.abstraction = "buckets";
    c.bucket_map = abstraction.output;
    c.abstraction_source_hash = abstraction.hash();
    c.params.seed = abstraction.seed;
    const toml::value& solve = *toml_table_of(
        root, "solve",
        {"algorithm", "iterations", "seconds", "threads", "seed", "checkpoint",
         "checkpoint_every_iterations", "checkpoint_every_seconds", "progress_every_seconds",
         "table_precision", "sync_every_seconds", "sync_timeout_seconds", "parameters"},
        path);
    read_solve_keys(solve, path, c);
  } else {
    toml_check_keys(root,
                    {"game", "abstraction", "algorithm", "iterations", "seconds", "threads", "seed",
                     "checkpoint", "checkpoint_every_iterations", "checkpoint_every_seconds",
                     "progress_every_seconds", "table_precision", "sync_every_seconds",
                     "sync_timeout_seconds", "parameters"},
                    "", path);
    c.abstraction = toml_value_or<std::string>(root, "abstraction", c.abstraction, path);
    read_solve_keys(root, path, c);
  }
  c.validate(path);
  return c;
}

namespace {

std::string number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

void check_int(const std::string& source, const std::string& key, std::int64_t v, std::int64_t lo,
               std::int64_t hi) {
  if (v < lo || v > hi)
    throw InputError(source + ": '" + key + "' = " + std::to_string(v) + " is outside [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

void check_real(const std::string& source, const std::string& key, double v, double lo, double hi,
                bool lo_open = false) {
  const bool ok = std::isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi;
  if (!ok)
    throw InputError(source + ": '" + key + "' = " + number(v) + " must be a finite number in " +
                     (lo_open ? "(" : "[") + number(lo) + ", " + number(hi) + "]");
}

}  // namespace

void SolveConfig::validate(const std::string& source) const {
  check_int(source, "iterations", iterations, 1, kMaxSolveIterations);
  check_int(source, "threads", threads, 1, kMaxSolveThreads);
  // 0 means "none" for the budget and the checkpoint intervals.
  constexpr double kYear = 366.0 * 24 * 3600;
  check_real(source, "seconds", seconds, 0.0, 100 * kYear);
  check_int(source, "checkpoint_every_iterations", checkpoint_every_iterations, 0,
            kMaxSolveIterations);
  check_real(source, "checkpoint_every_seconds", checkpoint_every_seconds, 0.0, 100 * kYear);
  check_real(source, "progress_every_seconds", progress_every_seconds, 0.0, 100 * kYear, true);
  check_real(source, "sync_every_seconds", sync_every_seconds, 0.0, 100 * kYear, true);
  check_real(source, "sync_timeout_seconds", sync_timeout_seconds, 1.0, 100 * kYear);
  if (game_path.empty()) throw InputError(source + ": 'game' is empty");
  if (TablePrecision p; table_precision != "auto" && !parse_table_precision(table_precision, p))
    throw InputError(source + ": 'table_precision' = '" + table_precision +
                     "' must be \"auto\", \"float32\" or \"float64\"");
  if (abstraction.empty()) throw InputError(source + ": 'abstraction' is empty");
  const CfrParameters& p = params;
  check_real(source, "parameters.dcfr_alpha", p.dcfr_alpha, 0.0, kMaxDcfrExponent);
  check_real(source, "parameters.dcfr_beta", p.dcfr_beta, -kMaxDcfrExponent, kMaxDcfrExponent);
  check_real(source, "parameters.dcfr_gamma", p.dcfr_gamma, 0.0, kMaxDcfrExponent);
  check_int(source, "parameters.cfr_plus_delay", p.cfr_plus_delay, 0, kMaxSolveIterations);
  // Lanctot et al. (2009): exploration epsilon in (0, 1]; 0 would divide by a zero
  // sampling probability.
  check_real(source, "parameters.outcome_epsilon", p.outcome_epsilon, 0.0, 1.0, true);
  check_int(source, "parameters.discount_interval", p.discount_interval, 0, kMaxSolveIterations);
  check_int(source, "parameters.discount_until", p.discount_until, 0,
            std::numeric_limits<std::int64_t>::max());
  check_int(source, "parameters.average_delay", p.average_delay, 0,
            std::numeric_limits<std::int64_t>::max());
  check_int(source, "parameters.prune_after", p.prune_after, 0,
            std::numeric_limits<std::int64_t>::max());
  check_real(source, "parameters.prune_probability", p.prune_probability, 0.0, 1.0);
  if (!std::isfinite(p.prune_threshold) || !std::isfinite(p.regret_floor) ||
      p.prune_threshold >= 0.0 || p.regret_floor > p.prune_threshold)
    throw InputError(source +
                     ": need 'parameters.regret_floor' <= 'parameters.prune_threshold' "
                     "< 0, both finite (regret_floor = " +
                     number(p.regret_floor) + ", prune_threshold = " + number(p.prune_threshold) +
                     ")");
}

}  // namespace hulhe
