#include "distributed/process_group.h"

#include <cstdlib>

#include "util/input_error.h"
#ifdef HULHE_MPI
#include <mpi.h>
#endif

namespace hulhe {
namespace {

ProcessGroup g_group;

}  // namespace

bool launched_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

ProcessGroup join_process_group() {
  if (g_group.joined || !launched_by_mpi_launcher()) return g_group;
#ifdef HULHE_MPI
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    throw InputError("the MPI library does not support MPI_THREAD_FUNNELED");
  }
  // Errors come back as return codes (the communicator turns them into messages) instead of
  // MPI's default of aborting the job without saying where.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_group.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_group.size);
  g_group.joined = true;
  return g_group;
#else
  throw InputError(
      "started by mpirun, but this hulhe was built without MPI (install libopenmpi-dev and "
      "rebuild; docs/distributed.md)");
#endif
}

void leave_process_group() {
#ifdef HULHE_MPI
  if (g_group.joined) {
    g_group.joined = false;
    MPI_Finalize();
  }
#endif
}

void abort_process_group(int code) {
#ifdef HULHE_MPI
  if (g_group.joined) MPI_Abort(MPI_COMM_WORLD, code);
#else
  (void)code;
#endif
}

std::string rank_prefix() {
  if (!g_group.joined || g_group.size <= 1) return "";
  return "rank " + std::to_string(g_group.rank) + " of " + std::to_string(g_group.size) + ": ";
}

}  // namespace hulhe
