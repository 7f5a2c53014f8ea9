#pragma once
// How the real-game best response's work units can be spread over several processes
// (distributed/distributed_units.h implements it over MPI ranks). Every process builds the
// same HoldemBestResponse (same strategies, same options, hence the same units in the same
// order); one of them, the coordinator, hands out the units as processes ask for them and
// receives each unit's value vectors, which it records in unit order like a single process
// would — so the report is the single-process report, bit for bit (sums run in unit order on
// the coordinator; a unit's values do not depend on where it was computed).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hulhe {

class UnitDistribution {
 public:
  // Computes unit `u` into out[0, payload) on compute thread `thread` (0 .. threads-1).
  using ComputeUnit = std::function<void(std::int64_t u, double* out, int thread)>;
  // Records unit `u`'s finished values (coordinator only; one call at a time).
  using DeliverUnit = std::function<void(std::int64_t u, const double* values)>;

  virtual ~UnitDistribution() = default;
  // The process that hands out units, keeps the resume file and reports (rank 0).
  virtual bool coordinator() const = 0;
  // Compute threads of all processes together (progress: seconds per unit per thread).
  virtual int total_threads(int threads_here) = 0;
  // Every process must be evaluating the same thing: InputError naming `what` if `key`
  // differs between processes.
  virtual void check_same(std::uint64_t key, const std::string& what) = 0;
  // Runs the units to the end. Coordinator: `pending` lists the units to hand out, in order
  // (other processes pass an empty list and are sent theirs); `should_stop` (may be empty) is
  // polled before each unit is handed out. Every process computes units on `threads`
  // threads. Returns the units this process computed.
  virtual std::int64_t run(std::size_t payload, const std::vector<std::int64_t>& pending,
                           int threads, const ComputeUnit& compute, const DeliverUnit& deliver,
                           const std::function<bool()>& should_stop) = 0;
};

}  // namespace hulhe
