// SolverRun::run over several ranks (solver_run.h: run_over; docs/distributed.md). Each
// period of sync_every_seconds, every rank runs chunks of its own iterations on its own
// tables, then the ranks add up their counts and their tables' changes (solve_ranks.h) and
// continue from the sum. Iterations of a period are numbered from the total at its start
// (rank streams differ by seed), so the average delay and pruning thresholds read the run's
// total within one period; linear discounting is applied at the sync to the summed tables
// for each discount point the total crossed. The time budget (rank 0's solve time), the
// iteration cap and stop signals are agreed on at the sync (a rank that gets a signal, or
// rank 0 reaching the budget, tells the others at once), so all ranks end after the same
// sync; rank 0 then writes the one checkpoint.
#include <algorithm>

#include "pipeline/solver_run.h"
#include "solver/linear_discounting.h"

namespace hulhe {

SolveSummary SolverRun::run_ranks(const ProgressCallback& on_progress) {
  SolveRanks& ranks = *ranks_;
  const int size = ranks.size(), rank = ranks.rank();
  SolveSummary summary;
  summary.first_iteration = done_ + 1;
  const double start = seconds_now();
  excluded_seconds_ = 0.0;
  auto solve_seconds = [&] { return seconds_now() - start - excluded_seconds_; };
  const std::int64_t start_done = done_;
  double last_progress = 0.0, last_checkpoint = 0.0;
  std::int64_t chunk = 1;
  bool told_stop = false, told_budget = false;
  while (true) {
    // This period's share of the iterations left, so the total never passes the cap.
    const std::int64_t remaining = config_.iterations - done_;
    const std::int64_t share = remaining / size + (rank < remaining % size ? 1 : 0);
    std::int64_t local = 0;
    const double period_start = seconds_now();
    bool stop = false, budget = false;
    std::int64_t count = 0;
    double took = 0.0;
    while (true) {
      stop = stop_requested();
      if (stop && !told_stop) {
        ranks.announce(SolveRanks::kStopSignal);
        told_stop = true;
      }
      // The budget is rank 0's: the others' clocks also count their waits for rank 0's
      // estimates and checkpoints, which rank 0's solve time excludes.
      budget = rank == 0 && config_.seconds > 0 && solve_seconds() >= config_.seconds;
      if (budget && !told_budget) {
        ranks.announce(SolveRanks::kBudget);
        told_budget = true;
      }
      const int heard = ranks.announced();
      if (heard & SolveRanks::kStopSignal) stop = true;
      if (stop || budget || heard != 0 || local >= share ||
          seconds_now() - period_start >= config_.sync_every_seconds)
        break;
      count = std::min(chunk, share - local);
      const double chunk_start = seconds_now();
      algorithm_->run(done_ + local + 1, count, config_.threads);
      local += count;
      // Chunks of ~0.1 s as in run(), but at most a quarter of a period: signals are looked
      // at often, and a short period is not stretched by one long chunk (a period's length
      // is the staleness of the ranks' tables; docs/distributed.md).
      took = seconds_now() - chunk_start;
      const double longest = std::min(0.2, config_.sync_every_seconds / 4);
      if (took < longest / 4 && chunk < (std::int64_t{1} << 40)) chunk *= 2;
      if (took > longest && chunk > 1) chunk /= 2;
    }
    const RankTotals totals = ranks.add_up_counts(local, stop, budget);
    ranks.add_up_tables(tables_,
                        linear_discount_factors(params_, done_ + 1, done_ + totals.iterations));
    const std::int64_t before = done_;
    done_ += totals.iterations;
    if (totals.stop || totals.budget || done_ >= config_.iterations) {
      summary.interrupted = totals.stop;
      break;
    }
    const double elapsed = solve_seconds();
    bool wrote = false;
    const std::int64_t every = config_.checkpoint_every_iterations;
    const bool at_every = every > 0 && done_ / every > before / every;
    const bool by_time = config_.checkpoint_every_seconds > 0 &&
                         elapsed - last_checkpoint >= config_.checkpoint_every_seconds;
    const bool affordable =
        last_checkpoint_seconds_ <= kMaxCheckpointShare * (elapsed - last_checkpoint);
    if ((by_time || at_every) && affordable) {
      if (rank == 0) save();  // the others go on; rank 0 joins the next sync late
      last_checkpoint = solve_seconds();
      wrote = rank == 0 && !config_.checkpoint.empty();
      if (wrote) {
        ++summary.periodic_checkpoints;
        summary.periodic_checkpoint_seconds += last_checkpoint_seconds_;
      }
    }
    if (rank == 0 && on_progress &&
        (elapsed - last_progress >= config_.progress_every_seconds || wrote)) {
      last_progress = elapsed;
      on_progress(report_at(elapsed, start_done, wrote, count, took));
    }
  }
  if (rank == 0) save();
  summary.checkpoint = rank == 0 ? config_.checkpoint : std::string();
  summary.iterations = done_;
  summary.seconds = solve_seconds();
  if (rank == 0) summary.report = exploitability();
  return summary;
}

}  // namespace hulhe
