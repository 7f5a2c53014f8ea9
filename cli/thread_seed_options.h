#pragma once
// The one way a subcommand registers `--threads` and `--seed`, so that no command can take
// them unchecked again (`match --threads 100000` crashed libgomp; `--seed -1` became
// 2^64-1 in four commands). The checks are cli/option_checks.h's; a bad value is a CLI11
// parse error naming the option, exit status 2. tests/cli/thread_seed_options_cli_test.cpp
// walks every subcommand's --threads and --seed with bad values.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "cli/option_checks.h"

namespace hulhe::cli {

// `var`: int or std::optional<int> (unset = the command's default: all cores, the config's).
template <typename T>
CLI::Option* add_threads_option(CLI::App* cmd, T& var, const std::string& help) {
  // transform, not check: CLI11 drops a check's rewrite of the value ("010" to "10").
  return cmd->add_option("--threads", var, help)->transform(threads_check());
}

// `var`: an unsigned integer or std::optional of one; its type bounds the seed (the ACPC
// dealer's generator takes 32 bits).
template <typename T>
CLI::Option* add_seed_option(CLI::App* cmd, T& var, const std::string& help) {
  using Seed = decltype([] {
    if constexpr (requires { typename T::value_type; })
      return typename T::value_type{};
    else
      return T{};
  }());
  static_assert(std::is_unsigned_v<Seed>, "seeds are unsigned");
  return cmd->add_option("--seed", var, help)
      ->transform(seed_check(std::numeric_limits<Seed>::max()));
}

}  // namespace hulhe::cli
