// The solve over MPI ranks (docs/distributed.md): external-sampling iterations per second of
// the whole job and the cost of one table sync (pipeline/solve_ranks.h,
// distributed/distributed_solve.h), for HULHE tables of the quick (169-50-50-50), standard
// (169-1000-1000-1000) and large (169-9000-9000-9000) sizes. Buckets are a hash of the
// canonical hand index computed when asked (no bucket map: same table sizes, a worst case
// for cache locality). Run it alone (1 process) or under mpirun:
//
//   bench_distributed [--seconds=S] [--threads=T] [--sizes=quick,standard,large]
//                     [--syncs=N] [--json=FILE]
//   mpirun --oversubscribe -np 2 bench_distributed --threads=1
//
// Each rank runs external sampling on its own tables for S seconds on T threads (its own
// seed), the iterations are summed over the ranks, then N syncs are timed (the slowest
// rank's seconds; bytes: what each rank contributes, 8 per table value: the regrets to an
// allreduce, the average sums to a reduce onto rank 0). Rank 0 prints.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "distributed/distributed_solve.h"
#include "distributed/process_group.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "solver/external_sampling_mccfr.h"
#include "tests/support/hulhe_fixtures.h"

namespace {

using namespace hulhe;
using Clock = std::chrono::steady_clock;

struct Options {
  double seconds = 5.0;
  int threads = 1;
  std::vector<std::string> sizes = {"quick", "standard", "large"};
  int syncs = 3;
  std::string json_path;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t end = std::min(s.find(',', at), s.size());
    out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* key) -> const char* {
      const std::size_t n = std::strlen(key);
      return a.compare(0, n, key) == 0 ? a.c_str() + n : nullptr;
    };
    if (const char* v = value("--seconds="))
      o.seconds = std::atof(v);
    else if (const char* v2 = value("--threads="))
      o.threads = std::atoi(v2);
    else if (const char* v3 = value("--sizes="))
      o.sizes = split(v3);
    else if (const char* v4 = value("--syncs="))
      o.syncs = std::atoi(v4);
    else if (const char* v5 = value("--json="))
      o.json_path = v5;
    else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  const std::shared_ptr<SolveRanks> ranks = make_solve_ranks(600.0);
  const int rank = ranks ? ranks->rank() : 0, size = ranks ? ranks->size() : 1;
  const GameDefinition game = testing::hulhe_game();
  const BettingTree tree(game);
  nlohmann::json report = {{"ranks", size}, {"threads", o.threads}, {"seconds", o.seconds}};
  for (const std::string& label : o.sizes) {
    const std::int32_t k = label == "quick" ? 50 : label == "standard" ? 1000 : 9000;
    // k postflop buckets per round, each hand's bucket a hash of its canonical index.
    const testing::IndexHashAbstraction abstraction(k, 0x5eed + static_cast<std::uint64_t>(k),
                                                    "hashed");
    StrategyTables tables(tree, abstraction, TablePrecision::kFloat32, TableLayout::kBucketMajor);
    CfrParameters params;
    params.algorithm = "external";
    params.seed = 1 + static_cast<std::uint64_t>(rank);
    params.regret_weight = size;  // as a solve over the ranks (distributed/distributed_solve.h)
    ExternalSamplingMccfr es(tree, abstraction, tables, params);
    if (ranks) ranks->start(tables);
    // Iterations for o.seconds, in chunks of ~0.1 s.
    std::int64_t done = 0, chunk = 64;
    const auto start = Clock::now();
    double elapsed = 0.0;
    while (elapsed < o.seconds) {
      const auto c0 = Clock::now();
      es.run(done + 1, chunk, o.threads);
      done += chunk;
      const double took = std::chrono::duration<double>(Clock::now() - c0).count();
      if (took < 0.05) chunk *= 2;
      elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    }
    std::int64_t total = done;
    if (ranks) total = ranks->add_up_counts(done, false, false).iterations;
    const double rate = static_cast<double>(total) / elapsed;
    std::vector<double> sync_seconds;
    std::uint64_t bytes = 0;
    for (int s = 0; ranks && s < o.syncs; ++s) {
      ranks->add_up_tables(tables, {});
      // The slowest rank's time is the job's: a barrier-like max via the counts' sum.
      sync_seconds.push_back(ranks->last_sync().seconds);
      bytes = ranks->last_sync().bytes;
    }
    std::sort(sync_seconds.begin(), sync_seconds.end());
    const double median = sync_seconds.empty() ? 0.0 : sync_seconds[sync_seconds.size() / 2];
    if (rank == 0) {
      fmt::print("{:<8} {} · tables {:.1f} MiB · {} rank(s) × {} thread(s): {:.0f} it/s", label,
                 abstraction.describe(), tables.memory_bytes() / 1048576.0, size, o.threads, rate);
      if (ranks)
        fmt::print(" · sync {:.3f} s ({:.1f} MB per rank, median of {})", median, bytes / 1e6,
                   sync_seconds.size());
      fmt::print("\n");
      std::fflush(stdout);
    }
    report["sizes"].push_back({{"size", label},
                               {"table_bytes", tables.memory_bytes()},
                               {"iterations_per_second", rate},
                               {"sync_seconds", median},
                               {"sync_bytes_per_rank", bytes}});
  }
  if (rank == 0 && !o.json_path.empty()) std::ofstream(o.json_path) << report.dump(2) << "\n";
  leave_process_group();
  return 0;
}
