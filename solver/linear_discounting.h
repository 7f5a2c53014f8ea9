#pragma once
// Linear CFR by periodic discounting for the sampling algorithms (Brown & Sandholm 2019,
// "Solving imperfect-information games via discounted regret minimization"; the schedule
// Pluribus uses): after iteration k·N (k = 1, 2, ... while k·N <= until) every regret and
// average sum is multiplied by k/(k+1). Interval k then weighs k relative to the others, as
// Linear CFR's weight t, at the cost of one pass over the tables per interval. Discounting
// happens at fixed iteration numbers, so a 1-thread run stays deterministic and resumable.
#include <cstdint>
#include <vector>

#include "public_tree/strategy_tables.h"
#include "solver/cfr_algorithm.h"

namespace hulhe {

// Multiplies every regret and average sum by `factor`.
void scale_tables(StrategyTables& tables, double factor, int threads);

// The factors k/(k+1) of the discount points k·N in [first, last], in order: what a run
// that reached `last` from `first` - 1 applies (a solve over MPI ranks applies them at its
// syncs, to the sum of every rank's iterations; pipeline/solver_run_ranks.cpp).
std::vector<double> linear_discount_factors(const CfrParameters& params, std::int64_t first,
                                            std::int64_t last);

// Runs iterations [first, first + count) as run_segment(first, count) calls split at the
// discount points, discounting after each point reached.
template <typename RunSegment>
void run_with_linear_discounting(const CfrParameters& params, StrategyTables& tables,
                                 std::int64_t first, std::int64_t count, int threads,
                                 RunSegment&& run_segment) {
  const std::int64_t interval = params.discount_interval;
  const std::int64_t end = first + count;  // one past the last iteration
  std::int64_t t = first;
  while (t < end) {
    std::int64_t stop = end;
    if (interval > 0) {
      const std::int64_t next = (t + interval - 1) / interval * interval;  // next point >= t
      if (next <= params.discount_until && next < end) stop = next + 1;
    }
    run_segment(t, stop - t);
    const std::int64_t last = stop - 1;
    if (interval > 0 && last % interval == 0 && last <= params.discount_until) {
      const double k = static_cast<double>(last / interval);
      scale_tables(tables, k / (k + 1.0), threads);
    }
    t = stop;
  }
}

}  // namespace hulhe
