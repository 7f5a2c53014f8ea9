#pragma once
// The MCCFR solve over the MPI ranks of a job (pipeline/solve_ranks.h). A sync adds up every
// rank's changes since the last sync with MPI_Allreduce, in chunks of kSyncChunkValues
// values, so no rank ever holds a second full copy for the reduction:
//
//   S' = S + Σ_r (T_r − S) = (T_0 − (N−1)·S) + Σ_{r≥1} T_r
//
// with S the tables at the last sync and T_r rank r's tables now. Only rank 0 needs S (it
// contributes T_0 − (N−1)·S; the others their tables as they are), so only rank 0 keeps a
// copy of the tables (memory: 2× the tables on rank 0, 1× elsewhere; docs/distributed.md).
// The chunks are summed in double: N copies of S cancel exactly enough that the sum of the
// changes is what one process would have added (float tables lose nothing more than their
// own rounding), at the price of 8 bytes per value on the wire.
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
