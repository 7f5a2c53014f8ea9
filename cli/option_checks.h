#pragma once
// Range checks shared by the subcommands' options (CLI11 validators). A failed check is a
// CLI11 parse error: one message naming the option, exit status 2.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <string>

namespace hulhe::cli {

// OpenMP threads: more than this is a typo (100000 threads exhaust memory and crash).
inline constexpr int kMaxThreads = 1024;

inline CLI::Validator threads_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const long long v = std::strtoll(s.c_str(), &end, 10);
        if (s.empty() || *end != '\0' || v < 1 || v > kMaxThreads)
          return "threads must be a whole number in [1, " + std::to_string(kMaxThreads) +
                 "], got '" + s + "'";
        return "";
      },
      "1.." + std::to_string(kMaxThreads));
}

// Seeds are unsigned 64-bit decimals; CLI11 alone would take "-1" as 2^64-1 and "010" as 8.
inline CLI::Validator seed_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const bool digits =
            !s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || (s.size() == 20 && s > "18446744073709551615"))
          return "seed must be a whole number in [0, 2^64-1], got '" + s + "'";
        return "";
      },
      "UINT64");
}

// A finite number in (lo, hi): durations, standard errors. Refuses NaN and infinities.
// `range` describes the interval in messages, e.g. "a number in (0, 1)".
inline CLI::Validator open_interval_check(double lo, double hi, const std::string& range) {
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || *end != '\0' || !std::isfinite(v) || !(v > lo) || !(v < hi))
          return "expected " + range + ", got '" + s + "'";
        return "";
      },
      "NUMBER");
}

inline CLI::Validator positive_seconds_check() {
  return open_interval_check(0.0, HUGE_VAL, "a positive number of seconds");
}

}  // namespace hulhe::cli
