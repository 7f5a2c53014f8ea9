#include "distributed/distributed_units.h"

#include "distributed/process_group.h"

#ifdef HULHE_MPI
#include <fmt/format.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "distributed/distributed_error.h"
#include "distributed/mpi_communicator.h"
#include "util/input_error.h"
#endif

namespace hulhe {

#ifdef HULHE_MPI
namespace {

constexpr int kRequest = 101, kUnits = 102, kResult = 103;

// The main threads poll for messages between naps: 1 ms keeps their share of a core near
// 0.1% (a rank's compute threads need the cores) and costs at most 1 ms per request, while
// every rank holds 2 × threads units (a unit is milliseconds to seconds of work).
void nap() {
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

class MpiUnitDistribution final : public UnitDistribution {
 public:
  explicit MpiUnitDistribution(double unit_timeout_seconds) : unit_timeout_(unit_timeout_seconds) {}
  bool coordinator() const override { return comm_.rank() == 0; }

  int total_threads(int threads_here) override {
    std::int64_t t = threads_here;
    // Every rank comes here straight from check_same, so a rank that does not arrive within
    // the unit deadline hangs (a stopped process: its part of the non-blocking collective
    // never progresses). Rank 0 fails the job then instead of after the communicator's 600 s;
    // the others wait longer, as at the finishing barrier, so that rank 0 names the problem.
    comm_.allreduce_sum(&t, 1, "best response: counting threads",
                        coordinator() ? unit_timeout_ : comm_.timeout_seconds() + unit_timeout_);
    return static_cast<int>(t);
  }

  void check_same(std::uint64_t key, const std::string& what) override {
    const std::vector<std::uint64_t> keys = comm_.allgather(key, "best response: comparing runs");
    for (std::size_t r = 1; r < keys.size(); ++r)
      if (keys[r] != keys[0])
        throw InputError("rank " + std::to_string(r) + " differs from rank 0 in " + what +
                         " (every rank must be given the same files and options)");
  }

  std::int64_t run(std::size_t payload, const std::vector<std::int64_t>& pending, int threads,
                   const ComputeUnit& compute, const DeliverUnit& deliver,
                   const std::function<bool()>& should_stop) override {
    const std::int64_t here =
        coordinator() ? coordinate(payload, pending, threads, compute, deliver, should_stop)
                      : work(payload, threads, compute);
    // Every rank must be alive before the job ends (MPI_Finalize waits for all of them): a
    // rank that hung after its last unit fails the job here, with every unit recorded.
    // Rank 0 arrives last (it has every result); the others may wait for rank 0's own units.
    comm_.barrier("best response: finishing",
                  coordinator() ? unit_timeout_ : comm_.timeout_seconds() + unit_timeout_);
    return here;
  }

 private:
  // Rank 0: compute threads take units from `pending` directly; the main thread answers the
  // other ranks' requests and records their results.
  std::int64_t coordinate(std::size_t payload, const std::vector<std::int64_t>& pending,
                          int threads, const ComputeUnit& compute, const DeliverUnit& deliver,
                          const std::function<bool()>& should_stop) {
    std::mutex m;
    std::size_t next = 0;
    bool stopping = false;
    auto take = [&]() -> std::int64_t {  // under m
      if (stopping || next >= pending.size()) return -1;
      if (should_stop && should_stop()) {
        stopping = true;
        return -1;
      }
      return pending[next++];
    };
    std::int64_t here = 0;
    std::thread computer([&] {
#pragma omp parallel num_threads(threads)
      {
        std::vector<double> out(payload);
        const int t = omp_get_thread_num();
        while (true) {
          std::int64_t u;
          {
            std::lock_guard<std::mutex> g(m);
            u = take();
          }
          if (u < 0) break;
          compute(u, out.data(), t);
          std::lock_guard<std::mutex> g(m);
          deliver(u, out.data());
          ++here;
        }
      }
    });
    const int size = comm_.size();
    std::vector<char> finished(static_cast<std::size_t>(size), 0);
    int open = size - 1;    // ranks not yet told that no unit is left
    std::int64_t owed = 0;  // units handed out whose results have not come back
    // Per rank: units it holds, and since when it has returned none of them (the deadline
    // that keeps a hung rank from holding the job: unit_timeout_).
    std::vector<std::int64_t> held(static_cast<std::size_t>(size), 0);
    std::vector<Clock::time_point> quiet_since(static_cast<std::size_t>(size), Clock::now());
    std::vector<double> buffer;
    std::vector<std::int64_t> reply;
    while (open > 0 || owed > 0) {
      int source = 0, tag = 0, bytes = 0;
      if (!comm_.probe(source, tag, bytes)) {
        for (int r = 1; r < size; ++r)
          if (held[r] > 0 && seconds_since(quiet_since[r]) > unit_timeout_) {
            // Rank 0's own threads finish the units they hold (each is recorded in the
            // resume file as it ends) and take no more; then the job fails.
            {
              std::lock_guard<std::mutex> g(m);
              stopping = true;
            }
            computer.join();
            throw DistributedError(fmt::format(
                "best response: rank {} of {} returned none of its {} unit(s) within {} s "
                "(--unit-timeout; the rank hangs or its node was lost); every unit finished "
                "so far is recorded: run the same command again to go on",
                r, size, held[r], unit_timeout_));
          }
        nap();
        continue;
      }
      if (tag == kRequest) {
        std::int64_t want = 0;
        comm_.receive(&want, 1, MPI_INT64_T, source, kRequest, "best response: request");
        reply.assign(1, 0);
        {
          std::lock_guard<std::mutex> g(m);
          for (std::int64_t k = 0; k < want; ++k) {
            const std::int64_t u = take();
            if (u < 0) {
              reply[0] = 1;  // none left
              break;
            }
            reply.push_back(u);
          }
        }
        const auto sent = static_cast<std::int64_t>(reply.size()) - 1;
        owed += sent;
        if (held[source] == 0) quiet_since[source] = Clock::now();
        held[source] += sent;
        if (reply[0] == 1 && !finished[source]) {
          finished[source] = 1;
          --open;
        }
        comm_.send(reply.data(), static_cast<int>(reply.size()), MPI_INT64_T, source, kUnits);
      } else if (tag == kResult) {
        buffer.resize(static_cast<std::size_t>(bytes) / sizeof(double));
        comm_.receive(buffer.data(), static_cast<int>(buffer.size()), MPI_DOUBLE, source, kResult,
                      "best response: result");
        if (buffer.size() != payload + 1)
          throw DistributedError("best response: a result of the wrong size");
        const auto u = static_cast<std::int64_t>(buffer[0]);
        {
          std::lock_guard<std::mutex> g(m);
          deliver(u, buffer.data() + 1);
        }
        --owed;
        --held[source];
        quiet_since[source] = Clock::now();
      } else {
        throw DistributedError("best response: unexpected message tag " + std::to_string(tag));
      }
    }
    computer.join();
    return here;
  }

  // Other ranks: the main thread keeps up to 2×threads units in hand (one request to rank 0
  // in flight at a time) and sends results back; compute threads take units from the queue.
  std::int64_t work(std::size_t payload, int threads, const ComputeUnit& compute) {
    std::mutex m;
    std::condition_variable ready;
    std::deque<std::int64_t> queue;
    std::deque<std::vector<double>> outbox;  // [u, values...]
    int computing = 0;
    bool none_left = false;
    std::atomic<bool> computed_all{false};
    std::int64_t here = 0;
    std::thread computer([&] {
#pragma omp parallel num_threads(threads)
      {
        const int t = omp_get_thread_num();
        std::vector<double> out(payload + 1);
        while (true) {
          std::int64_t u;
          {
            std::unique_lock<std::mutex> lock(m);
            ready.wait(lock, [&] { return !queue.empty() || none_left; });
            if (queue.empty()) break;
            u = queue.front();
            queue.pop_front();
            ++computing;
          }
          out[0] = static_cast<double>(u);  // exact: unit indices are far below 2^53
          compute(u, out.data() + 1, t);
          std::lock_guard<std::mutex> g(m);
          outbox.push_back(out);
          --computing;
          ++here;
        }
      }
      computed_all = true;
    });
    const std::int64_t target = 2 * static_cast<std::int64_t>(threads);
    bool asked = false, told_done = false;
    Clock::time_point asked_at = Clock::now();
    std::vector<std::vector<double>> to_send;
    std::vector<std::int64_t> reply(static_cast<std::size_t>(target) + 1);
    while (true) {
      bool idle = true;
      std::int64_t held = 0;
      {
        std::lock_guard<std::mutex> g(m);
        while (!outbox.empty()) {
          to_send.push_back(std::move(outbox.front()));
          outbox.pop_front();
        }
        held = static_cast<std::int64_t>(queue.size()) + computing;
      }
      for (const std::vector<double>& r : to_send)
        comm_.send(r.data(), static_cast<int>(r.size()), MPI_DOUBLE, 0, kResult);
      if (!to_send.empty()) idle = false;
      to_send.clear();
      if (!told_done && !asked && held < target) {
        const std::int64_t want = target - held;
        comm_.send(&want, 1, MPI_INT64_T, 0, kRequest);
        asked = true;
        asked_at = Clock::now();
        idle = false;
      }
      int source = 0, tag = 0, bytes = 0;
      if (asked && comm_.probe(source, tag, bytes)) {
        if (tag != kUnits || source != 0)
          throw DistributedError("best response: unexpected message tag " + std::to_string(tag));
        const auto n = static_cast<std::size_t>(bytes) / sizeof(std::int64_t);
        reply.resize(n);
        comm_.receive(reply.data(), static_cast<int>(n), MPI_INT64_T, 0, kUnits,
                      "best response: units");
        asked = false;
        idle = false;
        std::lock_guard<std::mutex> g(m);
        for (std::size_t i = 1; i < n; ++i) queue.push_back(reply[i]);
        if (reply[0] == 1) {
          told_done = true;
          none_left = true;
        }
        ready.notify_all();
      }
      if (told_done && computed_all) {
        std::lock_guard<std::mutex> g(m);
        if (outbox.empty()) break;
        continue;
      }
      if (asked && seconds_since(asked_at) > unit_timeout_) {
        {
          std::lock_guard<std::mutex> g(m);
          none_left = true;  // the compute threads end after their current units
          queue.clear();
        }
        ready.notify_all();
        computer.join();
        throw DistributedError(fmt::format(
            "best response: no answer from rank 0 within {} s (--unit-timeout; rank 0 hangs "
            "or its node was lost)",
            unit_timeout_));
      }
      if (idle) nap();
    }
    computer.join();
    return here;
  }

  MpiCommunicator comm_;
  double unit_timeout_;
};

}  // namespace

std::shared_ptr<UnitDistribution> make_unit_distribution(double unit_timeout_seconds) {
  const ProcessGroup group = join_process_group();
  if (group.size <= 1) return nullptr;
  return std::make_shared<MpiUnitDistribution>(unit_timeout_seconds);
}

#else

std::shared_ptr<UnitDistribution> make_unit_distribution(double) {
  join_process_group();  // an InputError when started by mpirun
  return nullptr;
}

#endif

}  // namespace hulhe
