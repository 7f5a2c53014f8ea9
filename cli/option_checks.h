#pragma once
// Range checks shared by the subcommands' options (CLI11 validators). A failed check is a
// CLI11 parse error: one message naming the option, exit status 2.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "util/input_error.h"
#include "util/printable_text.h"
#include "util/thread_start.h"

namespace hulhe::cli {

// OpenMP threads: more than this is a typo (100000 threads crashed libgomp: it allocates
// per-thread data on the stack; 1025 to 5000 ended in "libgomp: Thread creation failed").
inline constexpr int kMaxThreads = 1024;

// A whole number in 1..kMaxThreads that this process can start now (util/thread_start.h:
// libgomp would exit(1) on a failed thread start, so it is probed here, at parse time).
inline CLI::Validator threads_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(s.c_str(), &end, 10);
        if (s.empty() || *end != '\0' || errno == ERANGE || v < 1 || v > kMaxThreads)
          return "threads must be a whole number in [1, " + std::to_string(kMaxThreads) +
                 "], got '" + printable(s) + "'";
        s = std::to_string(v);  // "010" is 10, not CLI11's octal 8
        try {
          require_thread_start(static_cast<int>(v));
        } catch (const InputError& e) {
          return e.what();
        }
        return "";
      },
      "1.." + std::to_string(kMaxThreads));
}

// Seeds are unsigned decimals up to `max` (2^64-1, or 2^32-1 for the ACPC dealer's
// generator); CLI11 alone would take "-1" as 2^64-1 and "010" as 8.
inline CLI::Validator seed_check(std::uint64_t max = UINT64_MAX) {
  return CLI::Validator(
      [max](std::string& s) -> std::string {
        const std::string limit = std::to_string(max);
        std::string digits = s;
        if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos)
          digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
        else
          digits.clear();
        if (digits.empty() || digits.size() > limit.size() ||
            (digits.size() == limit.size() && digits > limit))
          return "seed must be a whole number in [0, " + limit + "], got '" + printable(s) + "'";
        s = digits;  // "010" is 10, not CLI11's octal 8
        return "";
      },
      "UINT");
}

// A finite number in (lo, hi): durations, standard errors. Refuses NaN and infinities.
// `range` describes the interval in messages, e.g. "a number in (0, 1)".
inline CLI::Validator open_interval_check(double lo, double hi, const std::string& range) {
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || *end != '\0' || !std::isfinite(v) || !(v > lo) || !(v < hi))
          return "expected " + range + ", got '" + printable(s) + "'";
        return "";
      },
      "NUMBER");
}

inline CLI::Validator positive_seconds_check() {
  return open_interval_check(0.0, HUGE_VAL, "a positive number of seconds");
}

}  // namespace hulhe::cli
