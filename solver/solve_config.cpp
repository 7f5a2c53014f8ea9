#include "solver/solve_config.h"

#include <filesystem>
#include <set>
#include <toml.hpp>
#include <type_traits>

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

}  // namespace

SolveConfig SolveConfig::from_file(const std::string& path) {
  toml::value root;
  try {
    root = toml::parse(path);
  } catch (const std::runtime_error& e) {
    throw InputError("cannot read config " + path + ": " + e.what());
  }
  if (!root.is_table()) throw InputError(path + ": not a TOML table");
  static const std::set<std::string> known = {"game",
                                              "abstraction",
                                              "algorithm",
                                              "iterations",
                                              "seconds",
                                              "threads",
                                              "seed",
                                              "checkpoint",
                                              "checkpoint_every_iterations",
                                              "checkpoint_every_seconds",
                                              "progress_every_seconds",
                                              "parameters"};
  for (const auto& [key, v] : root.as_table())
    if (!known.count(key)) throw InputError(path + ": unknown key '" + key + "'");

  SolveConfig c;
  if (!root.contains("game")) throw InputError(path + ": missing key 'game'");
  std::filesystem::path game = value_of<std::string>(root, "game", "", path);
  if (game.is_relative()) game = std::filesystem::path(path).parent_path() / game;
  c.game_path = game.lexically_normal().string();
  c.abstraction = value_of<std::string>(root, "abstraction", c.abstraction, path);
  c.params.algorithm = value_of<std::string>(root, "algorithm", c.params.algorithm, path);
  c.iterations = value_of<std::int64_t>(root, "iterations", c.iterations, path);
  c.seconds = value_of<double>(root, "seconds", c.seconds, path);
  c.threads = static_cast<int>(value_of<std::int64_t>(root, "threads", c.threads, path));
  c.params.seed = static_cast<std::uint64_t>(value_of<std::int64_t>(root, "seed", 1, path));
  c.checkpoint = value_of<std::string>(root, "checkpoint", "", path);
  c.checkpoint_every_iterations =
      value_of<std::int64_t>(root, "checkpoint_every_iterations", 0, path);
  c.checkpoint_every_seconds = value_of<double>(root, "checkpoint_every_seconds", 0.0, path);
  c.progress_every_seconds =
      value_of<double>(root, "progress_every_seconds", c.progress_every_seconds, path);
  if (root.contains("parameters")) {
    const toml::value& p = root.at("parameters");
    if (!p.is_table()) throw InputError(path + ": 'parameters' must be a table");
    static const std::set<std::string> params = {"dcfr_alpha", "dcfr_beta", "dcfr_gamma",
                                                 "cfr_plus_delay", "outcome_epsilon"};
    for (const auto& [key, v] : p.as_table())
      if (!params.count(key)) throw InputError(path + ": unknown key 'parameters." + key + "'");
    c.params.dcfr_alpha = value_of<double>(p, "dcfr_alpha", c.params.dcfr_alpha, path);
    c.params.dcfr_beta = value_of<double>(p, "dcfr_beta", c.params.dcfr_beta, path);
    c.params.dcfr_gamma = value_of<double>(p, "dcfr_gamma", c.params.dcfr_gamma, path);
    c.params.cfr_plus_delay =
        value_of<std::int64_t>(p, "cfr_plus_delay", c.params.cfr_plus_delay, path);
    c.params.outcome_epsilon =
        value_of<double>(p, "outcome_epsilon", c.params.outcome_epsilon, path);
  }
  if (c.iterations < 0) throw InputError(path + ": 'iterations' must be >= 0");
  if (c.threads < 1) throw InputError(path + ": 'threads' must be >= 1");
  if (c.seconds < 0) throw InputError(path + ": 'seconds' must be >= 0");
  return c;
}

}  // namespace hulhe
