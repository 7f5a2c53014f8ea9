#pragma once
// Progress of a strategy evaluation (the hold'em best response's flop units, local best
// response's hands), handed to the caller's callback: library code prints nothing, the CLI
// formats the lines (cli/progress_lines.h).
#include <cstdint>
#include <functional>
#include <optional>

namespace hulhe {

struct EvaluationProgress {
  std::int64_t done = 0;      // units (or hands) done, those read back from a resume file included
  std::int64_t total = 0;     // of the whole evaluation
  std::int64_t computed = 0;  // by this run
  double elapsed_seconds = 0.0;  // this run's
  double per_second = 0.0;       // computed / elapsed
  double eta_seconds = 0.0;      // to this run's last unit
  double seconds_per_unit_per_thread = 0.0;
  std::optional<double> estimate;  // a running value where there is one (LBR: chips/hand)
  bool last = false;               // the report after this run's last unit
};

using EvaluationProgressCallback = std::function<void(const EvaluationProgress&)>;

}  // namespace hulhe
