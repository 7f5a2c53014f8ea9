#include "cli/progress_lines.h"

#include <fmt/format.h>

#include <cstdio>

#include "util/duration_format.h"

namespace hulhe::cli {
namespace {

double percent(const Progress& p) {
  return 100.0 * static_cast<double>(p.done) / static_cast<double>(p.total);
}

// " · checkpoint 0.1s (350 MB/s)" after a chunk a periodic checkpoint followed, else "".
std::string checkpoint_note(const SolverRun& solver) {
  if (!solver.last_chunk().checkpoint_written) return {};
  return fmt::format(" · checkpoint {:.1f}s ({:.0f} MB/s)", solver.last_checkpoint_seconds(),
                     solver.last_checkpoint_mb_per_second());
}

}  // namespace

std::string best_response_progress_line(const Progress& p) {
  if (p.stage == "re-solves")
    return fmt::format(
        "best response: {}/{} re-solves ({:.1f}%), {:.3g} re-solves/s, {:.3g} s/re-solve/thread, "
        "ETA {}",
        p.done, p.total, percent(p), p.per_second, p.seconds_per_unit_per_thread,
        format_duration(p.eta_seconds));
  return fmt::format(
      "best response: {}/{} units ({:.1f}%), {:.3g} units/s, {:.3g} s/unit/thread, ETA {}", p.done,
      p.total, percent(p), p.per_second, p.seconds_per_unit_per_thread,
      format_duration(p.eta_seconds));
}

std::string lbr_progress_line(const Progress& p) {
  return fmt::format("lbr: {} / {} hands, {:.1f} hands/s, ETA {}", p.done, p.total, p.per_second,
                     format_duration(p.eta_seconds));
}

std::string abstraction_progress_line(const Progress& p) {
  if (p.done >= p.total)
    return p.total > 1
               ? fmt::format("  {}: {} done in {}", p.stage, p.total,
                             format_duration(p.elapsed_seconds))
               : fmt::format("  {}: done in {}", p.stage, format_duration(p.elapsed_seconds));
  return fmt::format("  {}: {}/{} ({:.1f}%), {:.0f}/s, ETA {}", p.stage, p.done, p.total,
                     percent(p), p.per_second, format_duration(p.eta_seconds));
}

std::string run_abstraction_progress_line(const Progress& p) {
  return fmt::format("      {}: {}/{} ({:.0f}%) · elapsed {}", p.stage, p.done, p.total,
                     p.total > 0 ? percent(p) : 100.0, format_duration(p.elapsed_seconds));
}

std::string export_progress_line(const Progress& p) {
  return fmt::format("export: {} {}/{} ({:.0f} s)", p.stage, p.done, p.total, p.elapsed_seconds);
}

std::string solve_progress_line(const Progress& p, const SolverRun& solver) {
  const SyncCost sync = solver.last_sync();
  return fmt::format(
      "iteration {}/{} · {} it/s · elapsed {} · ETA {}{}{}{}", p.done, p.total,
      format_rate(p.per_second), format_duration(p.elapsed_seconds), format_duration(p.eta_seconds),
      p.estimate ? fmt::format(" · exploitability {:.3e} chips", *p.estimate) : std::string(),
      checkpoint_note(solver),
      solver.ranks() > 1
          ? fmt::format(" · sync {:.3f}s ({:.1f} MB)", sync.seconds, sync.bytes / 1e6)
          : std::string());
}

std::string run_solve_progress_line(const Progress& p, const SolverRun& solver) {
  return fmt::format("      iteration {} · {} it/s · elapsed {} · ETA {}{}", p.done,
                     format_rate(p.per_second), format_duration(p.elapsed_seconds),
                     format_duration(p.eta_seconds), checkpoint_note(solver));
}

std::string match_progress_line(const std::string& label, const Progress& p) {
  return fmt::format("{}{}/{} hands ({:.1f}%), {:.0f} hands/s, ETA {:.0f}s", label, p.done, p.total,
                     percent(p), p.per_second, p.eta_seconds);
}

std::string match_done_line(const std::string& label, const Progress& p,
                            const Progress& tournament) {
  // The tournament's time so far: its report at the match's start and the match.
  const double elapsed = tournament.elapsed_seconds + p.elapsed_seconds;
  const double matches_done = static_cast<double>(tournament.done + 1);
  return fmt::format(
      "{}{} hands in {:.1f} s ({:.0f} hands/s); tournament ETA {:.0f}s", label, p.total,
      p.elapsed_seconds, p.per_second,
      elapsed / matches_done * static_cast<double>(tournament.total - tournament.done - 1));
}

std::string dealer_progress_line(const Progress& p) {
  return fmt::format("dealer: {}/{} hands, {:.0f} hands/s, ETA {:.0f} s", p.done, p.total,
                     p.per_second, p.eta_seconds);
}

ProgressCallback print_best_response_progress() {
  return [](const Progress& p) { fmt::print(stderr, "{}\n", best_response_progress_line(p)); };
}

ProgressCallback print_lbr_progress() {
  return [](const Progress& p) {
    if (!p.last) fmt::print(stderr, "{}\n", lbr_progress_line(p));
  };
}

void MatchProgress::operator()(const Progress& p) {
  if (p.done < p.total && p.elapsed_seconds - last_ < 2.0) return;
  last_ = p.elapsed_seconds;
  fmt::print(stderr, "{}\n", match_progress_line(label_, p));
}

}  // namespace hulhe::cli
