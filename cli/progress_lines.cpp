#include "cli/progress_lines.h"

#include <fmt/format.h>

#include <cstdio>

#include "util/duration_format.h"

namespace hulhe::cli {

std::string best_response_progress_line(const EvaluationProgress& p) {
  return fmt::format(
      "best response: {}/{} units ({:.1f}%), {:.3g} units/s, {:.3g} s/unit/thread, ETA {}", p.done,
      p.total, 100.0 * static_cast<double>(p.done) / static_cast<double>(p.total), p.per_second,
      p.seconds_per_unit_per_thread, format_duration(p.eta_seconds));
}

std::string lbr_progress_line(const EvaluationProgress& p) {
  return fmt::format("lbr: {} / {} hands, {:.1f} hands/s, ETA {}", p.done, p.total, p.per_second,
                     format_duration(p.eta_seconds));
}

std::string abstraction_progress_line(const AbstractionProgress& p) {
  if (p.done >= p.total)
    return p.total > 1
               ? fmt::format("  {}: {} done in {}", p.stage, p.total,
                             format_duration(p.elapsed_seconds))
               : fmt::format("  {}: done in {}", p.stage, format_duration(p.elapsed_seconds));
  return fmt::format("  {}: {}/{} ({:.1f}%), {:.0f}/s, ETA {}", p.stage, p.done, p.total,
                     100.0 * static_cast<double>(p.done) / static_cast<double>(p.total),
                     p.per_second, format_duration(p.eta_seconds));
}

EvaluationProgressCallback print_best_response_progress() {
  return [](const EvaluationProgress& p) {
    fmt::print(stderr, "{}\n", best_response_progress_line(p));
  };
}

EvaluationProgressCallback print_lbr_progress() {
  return [](const EvaluationProgress& p) {
    if (!p.last) fmt::print(stderr, "{}\n", lbr_progress_line(p));
  };
}

}  // namespace hulhe::cli
