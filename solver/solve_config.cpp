#include "solver/solve_config.h"

#include <cmath>
#include <filesystem>
#include <set>
#include <toml.hpp>
#include <type_traits>

#include "abstraction/abstraction_config.h"
#include "game/input_error.h"

namespace hulhe {
namespace {

template <typename T>
T value_of(const toml::value& table, const std::string& key, const T& fallback,
           const std::string& path) {
  if (!table.contains(key)) return fallback;
  try {
    const toml::value& v = table.at(key);
    if constexpr (std::is_floating_point_v<T>) {
      if (v.is_integer()) return static_cast<T>(v.as_integer());  // "seconds = 60"
    }
    return toml::get<T>(v);
  } catch (const std::exception&) {
    throw InputError(path + ": key '" + key + "' has the wrong type");
  }
}

void check_keys(const toml::value& table, const std::set<std::string>& known,
                const std::string& prefix, const std::string& path) {
  for (const auto& [key, v] : table.as_table())
    if (!known.count(key)) throw InputError(path + ": unknown key '" + prefix + key + "'");
}

void read_parameters(const toml::value& p, const std::string& prefix, const std::string& path,
                     CfrParameters& c) {
  if (!p.is_table()) throw InputError(path + ": '" + prefix + "' must be a table");
  check_keys(p,
             {"dcfr_alpha", "dcfr_beta", "dcfr_gamma", "cfr_plus_delay", "outcome_epsilon",
              "discount_interval", "discount_until", "average_delay", "prune_after",
              "prune_threshold", "prune_probability", "regret_floor"},
             prefix + ".", path);
  c.dcfr_alpha = value_of<double>(p, "dcfr_alpha", c.dcfr_alpha, path);
  c.dcfr_beta = value_of<double>(p, "dcfr_beta", c.dcfr_beta, path);
  c.dcfr_gamma = value_of<double>(p, "dcfr_gamma", c.dcfr_gamma, path);
  c.cfr_plus_delay = value_of<std::int64_t>(p, "cfr_plus_delay", c.cfr_plus_delay, path);
  c.outcome_epsilon = value_of<double>(p, "outcome_epsilon", c.outcome_epsilon, path);
  c.discount_interval = value_of<std::int64_t>(p, "discount_interval", c.discount_interval, path);
  c.discount_until = value_of<std::int64_t>(p, "discount_until", c.discount_until, path);
  c.average_delay = value_of<std::int64_t>(p, "average_delay", c.average_delay, path);
  c.prune_after = value_of<std::int64_t>(p, "prune_after", c.prune_after, path);
  c.prune_threshold = value_of<double>(p, "prune_threshold", c.prune_threshold, path);
  c.prune_probability = value_of<double>(p, "prune_probability", c.prune_probability, path);
  c.regret_floor = value_of<double>(p, "regret_floor", c.regret_floor, path);
}

// The solve keys, at the top level (small games) or in [solve] (pipeline configs).
void read_solve_keys(const toml::value& t, const std::string& path, SolveConfig& c) {
  c.params.algorithm = value_of<std::string>(t, "algorithm", c.params.algorithm, path);
  c.iterations = value_of<std::int64_t>(t, "iterations", c.iterations, path);
  c.seconds = value_of<double>(t, "seconds", c.seconds, path);
  c.threads = static_cast<int>(value_of<std::int64_t>(t, "threads", c.threads, path));
  if (t.contains("seed")) {
    const auto seed = value_of<std::int64_t>(t, "seed", 1, path);
    if (seed < 0) throw InputError(path + ": 'seed' must be >= 0");
    c.params.seed = static_cast<std::uint64_t>(seed);
  }
  c.checkpoint = value_of<std::string>(t, "checkpoint", c.checkpoint, path);
  c.checkpoint_every_iterations = value_of<std::int64_t>(t, "checkpoint_every_iterations", 0, path);
  c.checkpoint_every_seconds = value_of<double>(t, "checkpoint_every_seconds", 0.0, path);
  c.progress_every_seconds =
      value_of<double>(t, "progress_every_seconds", c.progress_every_seconds, path);
  if (t.contains("parameters")) read_parameters(t.at("parameters"), "parameters", path, c.params);
}

}  // namespace

SolveConfig SolveConfig::from_file(const std::string& path) {
  if (std::filesystem::is_directory(path))
    throw InputError("config " + path + " is a directory, not a TOML file");
  toml::value root;
  try {
    root = toml::parse(path);
  } catch (const std::exception& e) {
    throw InputError("cannot read config " + path + ": " + e.what());
  }
  if (!root.is_table()) throw InputError(path + ": not a TOML table");
  SolveConfig c;
  c.path = path;
  if (!root.contains("game")) throw InputError(path + ": missing key 'game'");
  std::filesystem::path game = value_of<std::string>(root, "game", "", path);
  if (game.is_relative()) game = std::filesystem::path(path).parent_path() / game;
  c.game_path = game.lexically_normal().string();

  if (root.contains("solve")) {
    // A pipeline config: the abstraction is its bucket map.
    const AbstractionConfig abstraction = AbstractionConfig::from_file(path);
    c.abstraction = "buckets";
    c.bucket_map = abstraction.output;
    c.abstraction_source_hash = abstraction.hash();
    c.params.seed = abstraction.seed;
    const toml::value& solve = root.at("solve");
    if (!solve.is_table()) throw InputError(path + ": [solve] must be a table");
    check_keys(solve,
               {"algorithm", "iterations", "seconds", "threads", "seed", "checkpoint",
                "checkpoint_every_iterations", "checkpoint_every_seconds", "progress_every_seconds",
                "parameters"},
               "solve.", path);
    read_solve_keys(solve, path, c);
  } else {
    check_keys(root,
               {"game", "abstraction", "algorithm", "iterations", "seconds", "threads", "seed",
                "checkpoint", "checkpoint_every_iterations", "checkpoint_every_seconds",
                "progress_every_seconds", "parameters"},
               "", path);
    c.abstraction = value_of<std::string>(root, "abstraction", c.abstraction, path);
    read_solve_keys(root, path, c);
  }
  c.validate(path);
  return c;
}

void SolveConfig::validate(const std::string& source) const {
  auto fail = [&](const std::string& what) { throw InputError(source + ": " + what); };
  auto finite_nonnegative = [](double x) { return std::isfinite(x) && x >= 0.0; };
  if (iterations < 0) fail("'iterations' must be >= 0");
  if (threads < 1 || threads > 1024) fail("'threads' must be in 1..1024");
  if (!finite_nonnegative(seconds)) fail("'seconds' must be a finite number >= 0");
  if (checkpoint_every_iterations < 0) fail("'checkpoint_every_iterations' must be >= 0");
  if (!finite_nonnegative(checkpoint_every_seconds))
    fail("'checkpoint_every_seconds' must be a finite number >= 0");
  if (!std::isfinite(progress_every_seconds) || progress_every_seconds <= 0.0)
    fail("'progress_every_seconds' must be a finite number > 0");
  const CfrParameters& p = params;
  if (!std::isfinite(p.dcfr_alpha) || !std::isfinite(p.dcfr_beta) || !std::isfinite(p.dcfr_gamma))
    fail("DCFR parameters must be finite numbers");
  if (p.dcfr_alpha < 0 || p.dcfr_gamma < 0) fail("'dcfr_alpha' and 'dcfr_gamma' must be >= 0");
  if (p.cfr_plus_delay < 0) fail("'cfr_plus_delay' must be >= 0");
  if (!(p.outcome_epsilon > 0.0 && p.outcome_epsilon <= 1.0))
    fail("'outcome_epsilon' must be in (0, 1]");
  if (p.discount_interval < 0 || p.discount_until < 0 || p.average_delay < 0 || p.prune_after < 0)
    fail("'discount_interval', 'discount_until', 'average_delay' and 'prune_after' must be >= 0");
  if (!(p.prune_probability >= 0.0 && p.prune_probability <= 1.0))
    fail("'prune_probability' must be in [0, 1]");
  if (!std::isfinite(p.prune_threshold) || !std::isfinite(p.regret_floor) ||
      p.prune_threshold >= 0.0 || p.regret_floor > p.prune_threshold)
    fail("need regret_floor <= prune_threshold < 0, both finite");
}

}  // namespace hulhe
