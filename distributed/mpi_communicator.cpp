#include "distributed/mpi_communicator.h"
#ifdef HULHE_MPI

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "distributed/distributed_error.h"
#include "util/duration_format.h"

namespace hulhe {

MpiCommunicator::MpiCommunicator(double timeout_seconds) : timeout_(timeout_seconds) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

void MpiCommunicator::check(int code, const char* what) const {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw DistributedError(std::string(what) + ": MPI error: " + std::string(text, length));
}

void MpiCommunicator::wait(MPI_Request& request, const char* what, double timeout_seconds) const {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_seconds);
  int flag = 0;
  // Spin briefly (a collective among ranks that arrive together completes in microseconds),
  // then poll with short sleeps so that a rank waiting for a slower one leaves its core to
  // the compute threads.
  for (int spin = 0; spin < 1000; ++spin) {
    check(MPI_Test(&request, &flag, MPI_STATUS_IGNORE), what);
    if (flag) return;
  }
  while (true) {
    check(MPI_Test(&request, &flag, MPI_STATUS_IGNORE), what);
    if (flag) return;
    if (Clock::now() > deadline)
      throw DistributedError(std::string(what) + ": no answer from the other ranks within " +
                             format_short_number(timeout_seconds) + " s (a rank died or hangs)");
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

void MpiCommunicator::barrier(const char* what, double timeout_seconds) const {
  MPI_Request request;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &request), what);
  wait(request, what, timeout_seconds);
}

void MpiCommunicator::allreduce_sum(double* values, std::int64_t count, const char* what) const {
  // MPI counts are int: large arrays go in pieces (callers already chunk theirs).
  constexpr std::int64_t kMaxCount = std::int64_t{1} << 30;
  for (std::int64_t at = 0; at < count; at += kMaxCount) {
    MPI_Request request;
    const int n = static_cast<int>(std::min(kMaxCount, count - at));
    check(
        MPI_Iallreduce(MPI_IN_PLACE, values + at, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request),
        what);
    wait(request, what);
  }
}

void MpiCommunicator::allreduce_sum(std::int64_t* values, std::int64_t count,
                                    const char* what) const {
  allreduce_sum(values, count, what, timeout_);
}

void MpiCommunicator::allreduce_sum(std::int64_t* values, std::int64_t count, const char* what,
                                    double timeout_seconds) const {
  MPI_Request request;
  check(MPI_Iallreduce(MPI_IN_PLACE, values, static_cast<int>(count), MPI_INT64_T, MPI_SUM,
                       MPI_COMM_WORLD, &request),
        what);
  wait(request, what, timeout_seconds);
}

std::vector<std::uint64_t> MpiCommunicator::allgather(std::uint64_t value, const char* what) const {
  std::vector<std::uint64_t> all(static_cast<std::size_t>(size_));
  MPI_Request request;
  check(MPI_Iallgather(&value, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD,
                       &request),
        what);
  wait(request, what);
  return all;
}

void MpiCommunicator::send(const void* data, int count, MPI_Datatype type, int to, int tag) const {
  check(MPI_Send(data, count, type, to, tag, MPI_COMM_WORLD), "send");
}

bool MpiCommunicator::probe(int& source, int& tag, int& bytes) const {
  int flag = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status), "probe");
  if (!flag) return false;
  source = status.MPI_SOURCE;
  tag = status.MPI_TAG;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  return true;
}

void MpiCommunicator::receive(void* data, int count, MPI_Datatype type, int from, int tag,
                              const char* what) const {
  MPI_Request request;
  check(MPI_Irecv(data, count, type, from, tag, MPI_COMM_WORLD, &request), what);
  wait(request, what);
}

}  // namespace hulhe
#endif
