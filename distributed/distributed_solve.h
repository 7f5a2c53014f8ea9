#pragma once
// The MCCFR solve over the MPI ranks of a job (pipeline/solve_ranks.h). No rank holds a
// second copy of the tables: a sync works in place, in chunks of kSyncChunkValues values
// (one 8 MiB buffer of doubles), on two rules (docs/distributed.md: why they converge).
//
// Regrets: every rank's walk multiplies its regret increments by N (the number of ranks,
// CfrParameters::regret_weight), so rank r's table is T_r = S + N·Δ_r, with S the regrets at
// the last sync and Δ_r what rank r's own iterations would add in one process. The ranks'
// average is then the sum of every rank's changes, in one process's units:
//
//   S' = (1/N)·Σ_r T_r = S + Σ_r Δ_r            (MPI_Allreduce, then ÷ N)
//
// Average sums: the walk never reads them (regret matching reads regrets only), so only
// rank 0 keeps the running total; the other ranks start every period from zero, and the
// sync adds their sums into rank 0's (an allreduce whose result only rank 0 keeps), exactly
// the one-process sum.
//
// A rank's stop signal is sent point to point to every other rank at once (polled after
// each chunk), so a SIGTERM to any rank ends the period early on all of them.
#include <memory>

#include "pipeline/solve_ranks.h"

namespace hulhe {

inline constexpr std::int64_t kSyncChunkValues = std::int64_t{1} << 20;  // 8 MiB of doubles

// Null when this process is not one of several MPI ranks. `timeout_seconds`: the longest a
// rank waits for the others in one collective.
std::shared_ptr<SolveRanks> make_solve_ranks(double timeout_seconds);

}  // namespace hulhe
