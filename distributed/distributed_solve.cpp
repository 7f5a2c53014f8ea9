#include "distributed/distributed_solve.h"

#include "distributed/process_group.h"

#ifdef HULHE_MPI
#include <algorithm>
#include <chrono>
#include <vector>

#include "distributed/mpi_communicator.h"
#include "util/input_error.h"
#endif

namespace hulhe {

#ifdef HULHE_MPI
namespace {

constexpr int kStopTag = 201;

class MpiSolveRanks final : public SolveRanks {
 public:
  explicit MpiSolveRanks(double timeout_seconds) : comm_(timeout_seconds) {}
  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }

  void check_same(std::uint64_t key, const std::string& what) override {
    const std::vector<std::uint64_t> keys = comm_.allgather(key, "solve: comparing ranks");
    for (std::size_t r = 1; r < keys.size(); ++r)
      if (keys[r] != keys[0])
        throw InputError("rank " + std::to_string(r) + " differs from rank 0 in " + what +
                         " (every rank must be given the same config and files)");
  }

  void start(StrategyTables& tables) override {
    // Rank 0 holds the average sums; the others add only their own from here on.
    if (rank() == 0) return;
    tables.visit([&]<typename T>(TableArrays<T> a) { std::fill_n(a.average_sums, a.size, T{}); });
  }

  void announce(int why) override {
    for (int r = 0; r < size(); ++r)
      if (r != rank()) comm_.send(&why, 1, MPI_INT, r, kStopTag);
  }

  int announced() override {
    int source = 0, tag = 0, bytes = 0;
    while (comm_.probe(source, tag, bytes)) {
      if (tag != kStopTag) break;
      int why = 0;
      comm_.receive(&why, 1, MPI_INT, source, kStopTag, "solve: stop message");
      announced_ |= why;
    }
    return announced_;
  }

  RankTotals add_up_counts(std::int64_t iterations, bool stop, bool budget) override {
    std::int64_t v[3] = {iterations, stop ? 1 : 0, budget ? 1 : 0};
    comm_.allreduce_sum(v, 3, "solve: sync (iteration counts)");
    return {v[0], v[1] > 0, v[2] > 0};
  }

  void add_up_tables(StrategyTables& tables, const std::vector<double>& factors) override {
    const auto begin = std::chrono::steady_clock::now();
    const double ranks = static_cast<double>(size());
    const bool root = rank() == 0;
    buffer_.resize(static_cast<std::size_t>(kSyncChunkValues));
    std::uint64_t bytes = 0;
    tables.visit([&]<typename T>(TableArrays<T> a) {
      for (int which = 0; which < 2; ++which) {
        const bool regrets = which == 0;
        T* x = regrets ? a.regrets : a.average_sums;
        for (std::int64_t at = 0; at < a.size; at += kSyncChunkValues) {
          const std::int64_t n = std::min(kSyncChunkValues, a.size - at);
          double* b = buffer_.data();
          for (std::int64_t i = 0; i < n; ++i) b[i] = static_cast<double>(x[at + i]);
          bytes += static_cast<std::uint64_t>(n) * sizeof(double);
          if (regrets) {
            // The mean of S + N·Δ_r over the ranks: S + Σ_r Δ_r.
            comm_.allreduce_sum(b, n, "solve: sync (regrets)");
            for (std::int64_t i = 0; i < n; ++i) b[i] /= ranks;
          } else {
            // Only rank 0 keeps the total, but an allreduce: Open MPI 4.1's MPI_Ireduce,
            // completed by polling, made the whole sync 15-20x slower on loopback (0.55 s
            // against 0.03 s for the quick tables), and a blocking reduce has no deadline.
            comm_.allreduce_sum(b, n, "solve: sync (average sums)");
            if (!root) {
              std::fill_n(x + at, n, T{});  // the next period's own sums start from zero
              continue;
            }
          }
          for (std::int64_t i = 0; i < n; ++i) {
            T v = static_cast<T>(b[i]);
            // As scale_tables multiplies (solver/linear_discounting.cpp): in T.
            for (double f : factors) v *= static_cast<T>(f);
            x[at + i] = v;
          }
        }
      }
    });
    cost_.bytes = bytes;
    cost_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  SyncCost last_sync() const override { return cost_; }

 private:
  MpiCommunicator comm_;
  std::vector<double> buffer_;
  int announced_ = 0;
  SyncCost cost_;
};

}  // namespace

std::shared_ptr<SolveRanks> make_solve_ranks(double timeout_seconds) {
  const ProcessGroup group = join_process_group();
  if (group.size <= 1) return nullptr;
  return std::make_shared<MpiSolveRanks>(timeout_seconds);
}

#else

std::shared_ptr<SolveRanks> make_solve_ranks(double) {
  join_process_group();  // an InputError when started by mpirun
  return nullptr;
}

#endif

}  // namespace hulhe
