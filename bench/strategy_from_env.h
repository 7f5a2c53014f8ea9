#pragma once
// Benchmarks of a real strategy file name it in $HULHE_STRATEGY; without it they are skipped
// with a line saying what to set.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

namespace hulhe {

// $HULHE_STRATEGY, or nullptr with `state` skipped: "set HULHE_STRATEGY to <what>".
inline const char* strategy_path_or_skip(benchmark::State& state, const std::string& what) {
  const char* path = std::getenv("HULHE_STRATEGY");
  if (path == nullptr) state.SkipWithError(("set HULHE_STRATEGY to " + what).c_str());
  return path;
}

}  // namespace hulhe
