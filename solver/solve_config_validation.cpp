#include "solver/solve_config_validation.h"

#include <cmath>
#include <sstream>

#include "game/input_error.h"

namespace hulhe {
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

void validate(const SolveConfig& c, const std::string& source) {
  check_int(source, "iterations", c.iterations, 1, kMaxSolveIterations);
  check_int(source, "threads", c.threads, 1, kMaxSolveThreads);
  // 0 means "none" for the budget and the checkpoint intervals.
  constexpr double kYear = 366.0 * 24 * 3600;
  check_real(source, "seconds", c.seconds, 0.0, 100 * kYear);
  check_int(source, "checkpoint_every_iterations", c.checkpoint_every_iterations, 0,
            kMaxSolveIterations);
  check_real(source, "checkpoint_every_seconds", c.checkpoint_every_seconds, 0.0, 100 * kYear);
  check_real(source, "progress_every_seconds", c.progress_every_seconds, 0.0, 100 * kYear);
  if (c.game_path.empty()) throw InputError(source + ": 'game' is empty");
  if (c.abstraction.empty()) throw InputError(source + ": 'abstraction' is empty");
  const CfrParameters& p = c.params;
  check_real(source, "parameters.dcfr_alpha", p.dcfr_alpha, 0.0, kMaxDcfrExponent);
  check_real(source, "parameters.dcfr_beta", p.dcfr_beta, -kMaxDcfrExponent, kMaxDcfrExponent);
  check_real(source, "parameters.dcfr_gamma", p.dcfr_gamma, 0.0, kMaxDcfrExponent);
  check_int(source, "parameters.cfr_plus_delay", p.cfr_plus_delay, 0, kMaxSolveIterations);
  // Lanctot et al. (2009): exploration epsilon in (0, 1]; 0 would divide by a zero
  // sampling probability.
  check_real(source, "parameters.outcome_epsilon", p.outcome_epsilon, 0.0, 1.0, true);
}

void validate_solve_toml(const toml::value& root, const std::string& source) {
  if (!root.is_table() || !root.contains("seed")) return;
  const toml::value& seed = root.at("seed");
  if (seed.is_integer() && seed.as_integer() < 0)
    throw InputError(source + ": 'seed' = " + std::to_string(seed.as_integer()) +
                     " must be a whole number >= 0");
}

}  // namespace hulhe
