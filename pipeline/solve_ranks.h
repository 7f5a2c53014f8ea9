#pragma once
// What the solve driver (solver_run.h) needs to run one MCCFR solve over several processes
// (distributed/distributed_solve.h implements it over MPI ranks). Each rank runs its threads
// on its own copy of the tables with its own random streams; every sync_every_seconds the
// ranks add up what each changed since the last sync and all continue from the sum
// (docs/distributed.md: why this converges, what the interval trades).
#include <cstdint>
#include <string>
#include <vector>

#include "public_tree/strategy_tables.h"

namespace hulhe {

struct RankTotals {
  std::int64_t iterations = 0;  // run by all ranks since the last sync
  bool stop = false;            // some rank was told to stop (SIGINT/SIGTERM)
  bool budget = false;          // rank 0 reached the time budget (its clock is the run's)
};

struct SyncCost {
  double seconds = 0.0;     // the last sync's table reduction on this rank
  std::uint64_t bytes = 0;  // bytes this rank contributed to it
};

class SolveRanks {
 public:
  virtual ~SolveRanks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank must run the same solve: InputError naming `what` if `key` differs.
  virtual void check_same(std::uint64_t key, const std::string& what) = 0;
  // The tables every rank starts from (identical on all ranks): the ranks but rank 0 clear
  // their average sums (rank 0 keeps the job's; the others add their own changes to zero).
  // Every rank's algorithm must multiply its regret increments by size()
  // (CfrParameters::regret_weight; distributed/distributed_solve.h says why).
  virtual void start(StrategyTables& tables) = 0;
  // Tells the other ranks to end their period now: this rank got a stop signal
  // (kStopSignal) or, rank 0, reached the time budget (kBudget).
  static constexpr int kStopSignal = 1, kBudget = 2;
  virtual void announce(int why) = 0;
  // What the other ranks announced so far (kStopSignal | kBudget bits; cheap: polled after
  // every chunk).
  virtual int announced() = 0;
  // The first half of a sync: totals over the ranks of this period's counts and flags.
  virtual RankTotals add_up_counts(std::int64_t iterations, bool stop, bool budget) = 0;
  // The second half: the tables become the last sync's tables plus the sum of every rank's
  // changes since (regrets on every rank; average sums on rank 0, zero on the others), then
  // multiplied by each of `factors` in turn (the linear discounting points the period
  // crossed, solver/linear_discounting.h).
  virtual void add_up_tables(StrategyTables& tables, const std::vector<double>& factors) = 0;
  virtual SyncCost last_sync() const = 0;
};

}  // namespace hulhe
