// Solver speed on HULHE over clustered abstractions: iterations per second of external
// sampling and public chance sampling (and, with --algorithms=cfr-br, sampled CFR-BR with the
// hybrid opponent) at 1 and 2 threads, table memory, checkpoint write
// speed, peak memory. The abstraction sizes are the quick (169-50-50-50), standard
// (169-1000-1000-1000) and large (169-9000-9000-9000) configs'; the bucket of a hand is a
// hash of its canonical index (same table sizes and a worst case for cache locality), or the
// real map given with --map=FILE (then only that size is run).
//
//   bench_hulhe_solver [--seconds=S] [--map=hulhe-quick.buckets] [--threads=1,2]
//                      [--sizes=quick,standard,large] [--algorithms=external,pcs]
//                      [--layout=bucket,node] [--trunk=preflop,none,flop] [--pairs=N]
//                      [--json=FILE]
//
// --layout compares the tables' layouts (strategy_tables.h), --trunk the rounds whose updates
// threads keep in private deltas (preflop, the default; none; flop = preflop and flop;
// sampled_iterations.h), and --pairs=N runs N
// interleaved pairs of external sampling at 1 thread and at the most threads listed and
// prints each ratio and their median.
#include <fmt/format.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "abstraction/clustered_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/hand_indexer.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "solver/checkpoint.h"
#include "solver/external_sampling_mccfr.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"
#include "util/process_facts.h"

namespace {

using namespace hulhe;
using Clock = std::chrono::steady_clock;

struct Options {
  double seconds = 5.0;
  std::string map_path;
  std::vector<int> threads = {1, 2};
  std::vector<std::string> sizes = {"quick", "standard", "large"};
  std::vector<std::string> algorithms = {"external", "pcs"};
  std::vector<TableLayout> layouts = {TableLayout::kBucketMajor};
  std::vector<int> trunk_rounds = {1};
  int pairs = 0;  // interleaved (1 thread, max threads) pairs for the scaling ratio
  std::string json_path;
};

// The rounds kept in per-thread deltas (sampled_iterations.h).
std::string trunk_name(int rounds) {
  return rounds == 0 ? "none" : rounds == 1 ? "preflop" : "preflop+flop";
}

std::string layout_name(TableLayout layout) {
  return layout == TableLayout::kBucketMajor ? "bucket-major" : "node-major";
}

// Iterations per second of `algorithm` on fresh tables for `seconds` of wall time.
double rate(const BettingTree& tree, const ClusteredAbstraction& a, const std::string& algorithm,
            int threads, TableLayout layout, int trunk_rounds, double seconds) {
  StrategyTables tables(tree, a, TablePrecision::kFloat32, layout);
  CfrParameters params;
  params.algorithm = algorithm;
  std::unique_ptr<CfrAlgorithm> algo;
  if (algorithm == "external") {
    auto es = std::make_unique<ExternalSamplingMccfr>(tree, a, tables, params);
    es->set_trunk_rounds(trunk_rounds);
    algo = std::move(es);
  } else {
    algo = make_cfr_algorithm(params, tree, a, tables);
  }
  std::int64_t done = 0, chunk = 1;
  const auto start = Clock::now();
  double elapsed = 0.0;
  while (elapsed < seconds) {
    algo->run(done + 1, chunk, threads);
    done += chunk;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed < seconds / 8 && chunk < (1 << 20)) chunk *= 2;
  }
  return done / elapsed;
}

nlohmann::json measure(const std::string& label, const BettingTree& tree,
                       const ClusteredAbstraction& a, const Options& o) {
  nlohmann::json out = {{"size", label},
                        {"abstraction", a.describe()},
                        {"table_mib", StrategyTables::memory_needed(tree, a) / 1048576.0}};
  fmt::print("{} ({}): tables {:.1f} MiB\n", label, a.describe(),
             StrategyTables::memory_needed(tree, a) / 1048576.0);
  for (const std::string& algorithm : o.algorithms)
    for (const TableLayout layout : o.layouts)
      for (const int trunk : o.trunk_rounds)
        for (const int threads : o.threads) {
          const double r = rate(tree, a, algorithm, threads, layout, trunk, o.seconds);
          // Three decimals for the slow algorithms (sampled CFR-BR makes ~0.1-0.3 it/s).
          fmt::print("  {:<9} {:<12} trunk={:<13} threads={:<2} {:>12.{}f} it/s\n", algorithm,
                     layout_name(layout), trunk_name(trunk), threads, r, r < 10 ? 3 : 1);
          std::fflush(stdout);
          out["rates"].push_back({{"algorithm", algorithm},
                                  {"layout", layout_name(layout)},
                                  {"trunk", trunk_name(trunk)},
                                  {"threads", threads},
                                  {"iterations_per_second", r}});
        }
  // Thread scaling: interleaved pairs (1 thread, then the most threads), so that drifts of
  // a shared machine's load fall on both sides of each ratio; the median of the ratios.
  if (o.pairs > 0) {
    const int most = *std::max_element(o.threads.begin(), o.threads.end());
    for (const TableLayout layout : o.layouts)
      for (const int trunk : o.trunk_rounds) {
        std::vector<double> ratios;
        for (int p = 0; p < o.pairs; ++p) {
          const double one = rate(tree, a, "external", 1, layout, trunk, o.seconds);
          const double many = rate(tree, a, "external", most, layout, trunk, o.seconds);
          ratios.push_back(many / one);
          fmt::print("  pair {}: 1 thread {:.0f} it/s, {} threads {:.0f} it/s, ratio {:.3f}\n",
                     p + 1, one, most, many, many / one);
          std::fflush(stdout);
        }
        std::vector<double> sorted = ratios;
        std::sort(sorted.begin(), sorted.end());
        const double median = sorted.size() % 2 == 1
                                  ? sorted[sorted.size() / 2]
                                  : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
        fmt::print("  external {} trunk={}: {} threads / 1 thread, median of {} pairs = {:.3f}\n",
                   layout_name(layout), trunk_name(trunk), most, o.pairs, median);
        out["scaling"].push_back({{"layout", layout_name(layout)},
                                  {"trunk", trunk_name(trunk)},
                                  {"threads", most},
                                  {"ratios", ratios},
                                  {"median", median}});
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
  out["checkpoint_mb_per_second"] = mb / secs;
  return out;
}

std::vector<std::string> split(const char* p) {
  std::vector<std::string> out;
  std::string item;
  for (; *p != '\0'; ++p) {
    if (*p == ',') {
      out.push_back(item);
      item.clear();
    } else {
      item += *p;
    }
  }
  out.push_back(item);
  return out;
}

bool starts(const char* arg, const char* prefix) {
  return std::strncmp(arg, prefix, std::strlen(prefix)) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const char* v = std::strchr(argv[i], '=');
    v = v == nullptr ? "" : v + 1;
    bool ok = true;
    if (starts(argv[i], "--seconds=")) {
      o.seconds = std::atof(v);
    } else if (starts(argv[i], "--map=")) {
      o.map_path = v;
    } else if (starts(argv[i], "--threads=")) {
      o.threads.clear();
      for (const std::string& t : split(v)) o.threads.push_back(std::atoi(t.c_str()));
    } else if (starts(argv[i], "--sizes=")) {
      o.sizes = split(v);
    } else if (starts(argv[i], "--algorithms=")) {
      o.algorithms = split(v);
    } else if (starts(argv[i], "--layout=")) {
      o.layouts.clear();
      for (const std::string& l : split(v)) {
        ok = ok && (l == "bucket" || l == "node");
        o.layouts.push_back(l == "node" ? TableLayout::kNodeMajor : TableLayout::kBucketMajor);
      }
    } else if (starts(argv[i], "--trunk=")) {
      o.trunk_rounds.clear();
      for (const std::string& t : split(v)) {
        ok = ok && (t == "none" || t == "preflop" || t == "flop");
        o.trunk_rounds.push_back(t == "none" ? 0 : t == "preflop" ? 1 : 2);
      }
    } else if (starts(argv[i], "--pairs=")) {
      o.pairs = std::atoi(v);
    } else if (starts(argv[i], "--json=")) {
      o.json_path = v;
    } else {
      ok = false;
    }
    if (!ok) {
      fmt::print(stderr,
                 "usage: bench_hulhe_solver [--seconds=S] [--map=FILE] [--threads=1,2] "
                 "[--sizes=quick,standard,large] [--algorithms=external,pcs] "
                 "[--layout=bucket,node] [--trunk=preflop,none,flop] [--pairs=N] [--json=FILE]\n");
      return 2;
    }
  }
  const GameDefinition game = testing::hulhe_game();
  const BettingTree tree(game);
  nlohmann::json report = {{"seconds", o.seconds}, {"hardware_threads", omp_get_num_procs()}};
  if (!o.map_path.empty()) {
    const ClusteredAbstraction a = ClusteredAbstraction::load(o.map_path, game.hash(), game.name);
    report["sizes"].push_back(measure(o.map_path, tree, a, o));
  } else {
    const std::map<std::string, std::int32_t> buckets = {
        {"quick", 50}, {"standard", 1000}, {"large", 9000}};
    for (const std::string& size : o.sizes) {
      const auto it = buckets.find(size);
      if (it == buckets.end()) {
        fmt::print(stderr, "unknown size '{}': quick, standard or large\n", size);
        return 2;
      }
      const std::int32_t k = it->second;
      const ClusteredAbstraction a(testing::index_hash_bucket_map(game, {169, k, k, k}));
      report["sizes"].push_back(measure(size + " size", tree, a, o));
    }
  }
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << report.dump(2) << "\n";
  }
  return 0;
}
