#pragma once
// The processes of one `mpirun` job (MPI ranks) as the rest of hulhe sees them: whether this
// process is one of several, its rank, and how the job ends. MPI is joined only when the
// process was started by an MPI launcher (mpirun, srun with PMIx): a plain `hulhe ...` never
// calls MPI and behaves exactly as a build without MPI.
#include <cstdint>
#include <string>

namespace hulhe {

// Whether an MPI launcher started this process (Open MPI's OMPI_COMM_WORLD_SIZE, PMIx's
// PMIX_RANK, or PMI's PMI_RANK in the environment).
bool launched_by_mpi_launcher();

struct ProcessGroup {
  int rank = 0;
  int size = 1;
  bool joined = false;  // MPI was initialised
};

// Joins the job (MPI_Init_thread, funneled: only the main thread calls MPI) once, when
// launched by an MPI launcher; else rank 0 of 1. InputError when launched by one but built
// without MPI: N copies of one run would each write the same files.
ProcessGroup join_process_group();
// The normal end (MPI_Finalize) if joined.
void leave_process_group();
// After an error on this rank: ends every rank of the job (MPI_Abort with `code`), so none
// waits for this one forever. Returns when MPI was not joined.
void abort_process_group(int code);
// "rank R of N: " when joined to a job of several ranks, else "" (error messages).
std::string rank_prefix();

}  // namespace hulhe
