#pragma once
// Shared glue of `hulhe match` and `hulhe tournament`: the game and progress lines (hands/s,
// ETA) on stderr. (Outputs are checked by util/output_file.h.)
#include <fmt/format.h>
#include <omp.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "game/game_definition.h"
#include "util/input_error.h"

namespace hulhe::cli {

inline int omp_threads() {
  return omp_get_max_threads();
}

inline GameDefinition match_game(const std::string& path) {
  return path.empty() ? GameDefinition::holdem_limit_2p() : GameDefinition::from_file(path);
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
