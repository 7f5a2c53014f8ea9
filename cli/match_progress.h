#pragma once
// Shared glue of `hulhe match` and `hulhe tournament`: the game, the rule that no output
// path may be an input, and progress lines (hands/s, ETA) on stderr.
#include <fmt/format.h>
#include <omp.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "game/game_definition.h"
#include "game/input_error.h"

namespace hulhe::cli {

inline int omp_threads() {
  return omp_get_max_threads();
}

inline GameDefinition match_game(const std::string& path) {
  return path.empty() ? GameDefinition::holdem_limit_2p() : GameDefinition::from_file(path);
}

// Throws InputError when `output` names one of `inputs` (the same file, however spelled).
inline void check_output_is_not_an_input(const std::string& output,
                                         const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(output, ec);
  for (const std::string& in : inputs) {
    if (in.empty()) continue;
    const fs::path p = fs::weakly_canonical(in, ec);
    if (p == out)
      throw InputError("output '" + output + "' is an input of this command (" + in +
                       "); write it elsewhere");
  }
}

// Prints "label: done/total hands (pct), rate hands/s, ETA" at most every two seconds.
class MatchProgress {
 public:
  explicit MatchProgress(std::string label) : label_(std::move(label)) {}
  void operator()(std::int64_t done, std::int64_t total, double seconds) {
    if (done < total && seconds - last_ < 2.0) return;
    last_ = seconds;
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
    const double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0.0;
    fmt::print(stderr, "{}{}/{} hands ({:.1f}%), {:.0f} hands/s, ETA {:.0f}s\n", label_, done,
               total, 100.0 * static_cast<double>(done) / static_cast<double>(total), rate, eta);
  }

 private:
  std::string label_;
  double last_ = 0;
};

}  // namespace hulhe::cli
