#pragma once
// A check on every numeric option of every subcommand at once (main() adds it after the
// subcommands are registered), so that no command can take a number unchecked again.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "util/printable_text.h"

namespace hulhe::cli {

// Every whole-number and real-number option of `app` and its subcommands, by the type CLI11
// reads (its type name INT, UINT or FLOAT), gets a plain-decimal check first: CLI11 alone
// takes "0x8" and "010" as 8 (strtoll with base 0), "" as 0, and "nan" or "inf" as numbers
// that every range check then lets through (NaN compares false). A whole number must be
// optional '-' and decimal digits ("010" is read as 10); a real number must be finite.
inline CLI::Validator decimal_integer_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const std::size_t start = !s.empty() && s[0] == '-' ? 1 : 0;
        if (s.size() == start || s.find_first_not_of("0123456789", start) != std::string::npos)
          return "expected a whole number in decimal digits, got '" + printable(s) + "'";
        const std::size_t first = std::min(s.find_first_not_of('0', start), s.size() - 1);
        s = s.substr(0, start) + s.substr(first);  // "010" is 10, not CLI11's octal 8
        return "";
      },
      "");
}

inline CLI::Validator finite_number_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        const bool hex = s.find_first_of("xX") != std::string::npos;
        if (s.empty() || *end != '\0' || hex || !std::isfinite(v))
          return "expected a finite decimal number, got '" + printable(s) + "'";
        return "";
      },
      "");
}

inline void add_number_checks(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_expected_min() == 0) continue;  // flags
    // --threads and --seed have their own decimal checks with their ranges in the message
    // (cli/thread_seed_options.h).
    if (option->check_lname("threads") || option->check_lname("seed")) continue;
    // "FLOAT:FLOAT in [0.001 - 10]" once a range check is on it: the first word is the type.
    const std::string full = option->get_type_name();
    const std::string type = full.substr(0, full.find_first_of(": "));
    // Whole numbers: transform() puts the check first, so "010" is rewritten before any
    // range check reads it.
    if (type == "INT" || type == "UINT")
      option->transform(decimal_integer_check(), "decimal");
    else if (type == "FLOAT")
      // Last, so that an option's own range check (with its range in the message) speaks
      // first; this one catches what those let through (nan compares false with any bound).
      option->check(finite_number_check(), "finite");
  }
  for (CLI::App* sub : app.get_subcommands({})) add_number_checks(*sub);
}

}  // namespace hulhe::cli
