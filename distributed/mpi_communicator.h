#pragma once
// MPI_COMM_WORLD with a deadline on every wait (only with MPI; HULHE_MPI). Collectives are
// the non-blocking ones (MPI_Iallreduce, ...) completed by polling MPI_Test until done or
// until `timeout_seconds` pass: a rank that died or hangs turns into an error naming the
// step that waited, never into a job that waits forever. (mpirun usually ends the job
// itself when a rank dies; the deadline covers the cases where it cannot tell, e.g. a node
// that stopped answering.)
#ifdef HULHE_MPI
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hulhe {

class MpiCommunicator {
 public:
  explicit MpiCommunicator(double timeout_seconds = 600.0);
  int rank() const { return rank_; }
  int size() const { return size_; }
  double timeout_seconds() const { return timeout_; }

  // In-place sums over the ranks (every rank gets the total).
  void allreduce_sum(double* values, std::int64_t count, const char* what) const;
  void allreduce_sum(std::int64_t* values, std::int64_t count, const char* what) const;
  // The same with its own deadline (a step where every rank is known to arrive together).
  void allreduce_sum(std::int64_t* values, std::int64_t count, const char* what,
                     double timeout_seconds) const;
  // Returns once every rank has called it, or throws after `timeout_seconds`.
  void barrier(const char* what, double timeout_seconds) const;
  // Every rank's value, by rank.
  std::vector<std::uint64_t> allgather(std::uint64_t value, const char* what) const;

  // Point to point (small messages): blocking send; a receive that waits at most the timeout.
  void send(const void* data, int count, MPI_Datatype type, int to, int tag) const;
  // True and the message's source, tag and size when one is waiting (any source, any tag).
  bool probe(int& source, int& tag, int& bytes) const;
  void receive(void* data, int count, MPI_Datatype type, int from, int tag, const char* what) const;

  // Throws DistributedError with `what` and MPI's message when `code` is not MPI_SUCCESS.
  void check(int code, const char* what) const;

 private:
  // Polls `request` until complete or the deadline; throws naming `what` on a timeout.
  void wait(MPI_Request& request, const char* what) const { wait(request, what, timeout_); }
  void wait(MPI_Request& request, const char* what, double timeout_seconds) const;
  int rank_ = 0;
  int size_ = 1;
  double timeout_ = 600.0;
};

}  // namespace hulhe
#endif
