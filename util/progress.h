#pragma once
// The one progress report of every long job (the abstraction builder and its k-means, the
// compact file's river check, the solver run, the best responses, matches, tournaments, the
// ACPC dealer): what is under way and how far it is. Library code fills it in and hands it to
// a ProgressCallback; it prints nothing. Only cli/ turns reports into lines (rate, ETA:
// cli/progress_lines.h). Fields a job has no use for keep their defaults.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "util/progress_pace.h"

namespace hulhe {

struct Progress {
  std::string stage;             // what is under way ("river: assign"); "" when the job has one
  std::int64_t done = 0;         // units (hands, iterations, boards...) done of `total`, those a
  std::int64_t total = 0;        // resumed run read back included
  std::int64_t computed = 0;     // done by this run (less what a resumed run read back)
  double elapsed_seconds = 0.0;  // this run's, since the job (or stage) began
  double per_second = 0.0;       // this run's units a second (computed / elapsed)
  double eta_seconds = 0.0;      // to the end at that rate (or to a time budget, if sooner)
  double seconds_per_unit_per_thread = 0.0;  // where threads share the units
  std::optional<double> estimate;            // a running value where there is one (a local best
                                   // response's chips/hand, a solve's exploitability in chips)
  bool last = false;  // the report after the job's last unit
};

using ProgressCallback = std::function<void(const Progress&)>;

// A step of a stage with no clock of its own (k-means' steps, the river check's boards): a
// caller that keeps the clock (the abstraction builder, cli/) adds the times.
inline Progress progress_step(std::string stage, std::int64_t done, std::int64_t total) {
  Progress r;
  r.stage = std::move(stage);
  r.done = r.computed = done;
  r.total = total;
  r.last = done >= total;
  return r;
}

// A report of `done` of `total` units, `computed` of them by this run, `elapsed_seconds` in:
// the rate and ETA filled in (util/progress_pace.h).
inline Progress progress_at(std::string stage, std::int64_t done, std::int64_t total,
                            std::int64_t computed, double elapsed_seconds) {
  const Pace p = pace(computed, total - done, elapsed_seconds);
  Progress r;
  r.stage = std::move(stage);
  r.done = done;
  r.total = total;
  r.computed = computed;
  r.elapsed_seconds = p.elapsed_seconds;
  r.per_second = p.per_second;
  r.eta_seconds = p.eta_seconds;
  r.last = done >= total;
  return r;
}

}  // namespace hulhe
