// Solver speed on HULHE over clustered abstractions: iterations per second of external
// sampling and public chance sampling at 1 and 2 threads, table memory, checkpoint write
// speed, peak memory. The abstraction sizes are the quick (169-50-50-50), standard
// (169-1000-1000-1000) and large (169-9000-9000-9000) configs'; the bucket of a hand is a
// hash of its canonical index (same table sizes and a worst case for cache locality), or the
// real map given with --map=FILE (then only that size is run).
//
//   bench_hulhe_solver [--seconds=S] [--map=hulhe-quick.buckets] [--threads=1,2]
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "abstraction/clustered_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/hand_indexer.h"
#include "solver/cfr_algorithm.h"
#include "solver/checkpoint.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"
#include "util/process_facts.h"

namespace {

using namespace hulhe;
using Clock = std::chrono::steady_clock;

void measure(const std::string& label, const BettingTree& tree, const ClusteredAbstraction& a,
             double seconds, const std::vector<int>& thread_counts) {
  fmt::print("{} ({}): tables {:.1f} MiB\n", label, a.describe(),
             StrategyTables::memory_needed(tree, a) / 1048576.0);
  for (const char* algorithm : {"external", "pcs"}) {
    for (int threads : thread_counts) {
      StrategyTables tables(tree, a);
      CfrParameters params;
      params.algorithm = algorithm;
      auto algo = make_cfr_algorithm(params, tree, a, tables);
      std::int64_t done = 0, chunk = 1;
      const auto start = Clock::now();
      double elapsed = 0.0;
      while (elapsed < seconds) {
        algo->run(done + 1, chunk, threads);
        done += chunk;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (elapsed < seconds / 8 && chunk < (1 << 20)) chunk *= 2;
      }
      fmt::print("  {:<9} threads={}  {:>12.1f} it/s  ({} iterations in {:.1f}s)\n", algorithm,
                 threads, done / elapsed, done, elapsed);
    }
  }
  // Checkpoint write speed: the tables of this size, to a temporary folder.
  Checkpoint c;
  c.game_text = tree.game().to_acpc_string();
  c.game_name = tree.game().name;
  c.game_hash = tree.game().hash();
  c.abstraction_kind = "buckets";
  c.abstraction_hash = a.hash();
  c.tables = StrategyTables(tree, a);
  const testing::TempFolder dir;
  const std::string path = dir / "bench.ckpt";
  const auto start = Clock::now();
  write_checkpoint(path, c);
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  const double mb = std::filesystem::file_size(path) / 1e6;
  fmt::print(
      "  checkpoint {:.1f} MB written in {:.2f}s ({:.0f} MB/s); peak memory so far {:.2f} GiB\n",
      mb, secs, mb / secs, peak_rss_mib() / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 5.0;
  std::string map_path;
  std::vector<int> threads = {1, 2};
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--seconds=", 10) == 0) {
      seconds = std::atof(argv[i] + 10);
    } else if (std::strncmp(argv[i], "--map=", 6) == 0) {
      map_path = argv[i] + 6;
    } else if (std::strncmp(argv[i], "--threads=", 10) == 0) {
      threads.clear();
      for (const char* p = argv[i] + 10; *p != '\0';) {
        threads.push_back(std::atoi(p));
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else {
      fmt::print(stderr, "usage: bench_hulhe_solver [--seconds=S] [--map=FILE] [--threads=1,2]\n");
      return 2;
    }
  }
  const GameDefinition game = testing::hulhe_game();
  const BettingTree tree(game);
  if (!map_path.empty()) {
    const ClusteredAbstraction a = ClusteredAbstraction::load(map_path, game.hash(), game.name);
    measure(map_path, tree, a, seconds, threads);
    return 0;
  }
  for (const auto& [label, k] : std::vector<std::pair<std::string, std::int32_t>>{
           {"quick size", 50}, {"standard size", 1000}, {"large size", 9000}}) {
    const ClusteredAbstraction a(testing::index_hash_bucket_map(game, {169, k, k, k}));
    measure(label, tree, a, seconds, threads);
  }
  return 0;
}
