#pragma once
// Range checks of a solve configuration, after the config file is read and the command
// line's overrides applied: every count, duration and parameter must be finite and in its
// range, so that no run starts that would learn nothing (NaN or negative DCFR exponents),
// never stop or checkpoint garbage. A violation is an InputError naming `source` (the
// config file) and the key.
#include <string>
#include <toml.hpp>

#include "solver/solve_config.h"

namespace hulhe {

inline constexpr int kMaxSolveThreads = 1024;
inline constexpr std::int64_t kMaxSolveIterations = std::int64_t{1} << 50;
// DCFR weights t^a/(t^a+1) and (t/(t+1))^g stay finite for every t below 2^50 only with
// exponents of moderate size; Brown & Sandholm (2019) use 0 <= alpha, gamma <= 5 and
// beta in [-inf, 1].
inline constexpr double kMaxDcfrExponent = 10.0;

void validate(const SolveConfig& config, const std::string& source);

// Checks of the raw TOML that the typed SolveConfig cannot show: a negative `seed` (stored
// as unsigned, it would wrap to 2^64-1).
void validate_solve_toml(const toml::value& root, const std::string& source);

}  // namespace hulhe
