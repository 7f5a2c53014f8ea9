// Solver speed on Leduc hold'em (lossless): iterations per second of every algorithm with 1
// and 2 threads, and the exact exploitability reached after a fixed wall-clock budget; the
// share of a run that durable checkpoints take (the shipped configs/leduc.toml, the old
// every-1,000-iterations setting, and checkpoints off), through the solve driver.
//
//   bench_solver                          # Google Benchmark: it/s and exploitability
//   bench_solver --curve=60               # + exploitability-vs-time table, 60 s/algorithm
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "abstraction/lossless_abstraction.h"
#include "best_response/exploitability.h"
#include "game/betting_tree.h"
#include "pipeline/solve_config.h"
#include "pipeline/solver_run.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "tests/support/temp_folder.h"

namespace {

using namespace hulhe;

const char* const kAlgorithms[] = {"cfr", "cfr+", "dcfr", "pcs", "external", "outcome"};

struct Leduc {
  GameDefinition game = GameDefinition::from_file(
      (std::filesystem::path(__FILE__).parent_path().parent_path() / "configs/games/leduc.game")
          .string());
  BettingTree tree{game};
  LosslessAbstraction abstraction{game};
};

// Runs `algorithm` for one second of wall clock per benchmark repetition; reports
// iterations per second and the exploitability reached within that second.
void BM_LeducOneSecond(benchmark::State& state) {
  static Leduc leduc;
  const char* algorithm = kAlgorithms[state.range(0)];
  const int threads = static_cast<int>(state.range(1));
  for (auto _ : state) {
    StrategyTables tables(leduc.tree, leduc.abstraction, default_table_precision(algorithm));
    CfrParameters params;
    params.algorithm = algorithm;
    auto algo = make_cfr_algorithm(params, leduc.tree, leduc.abstraction, tables);
    const auto start = std::chrono::steady_clock::now();
    std::int64_t done = 0, chunk = 1;
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 1.0) {
      algo->run(done + 1, chunk, threads);
      done += chunk;
      if (chunk < 4096) chunk *= 2;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.PauseTiming();
    const AveragePolicy policy(leduc.tree, leduc.abstraction, tables);
    state.counters["it_per_s"] = static_cast<double>(done) / secs;
    state.counters["expl_chips"] = compute_exploitability(policy).exploitability_chips;
    state.ResumeTiming();
  }
  state.SetLabel(std::string(algorithm) + " threads=" + std::to_string(threads));
}
BENCHMARK(BM_LeducOneSecond)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {1, 2}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// External sampling on Leduc, 1 thread, 3 s of `hulhe solve --config configs/leduc.toml
// --algorithm external` through SolverRun: arg 0 the shipped checkpoint settings, 1 a
// checkpoint every 1,000 iterations (the old shipped setting; the driver caps its share), 2
// no checkpoint until the end. it_per_s of 0 and 1 against 2 is what checkpoints cost.
void BM_LeducCheckpointShare(benchmark::State& state) {
  const std::filesystem::path source = std::filesystem::path(__FILE__).parent_path().parent_path();
  const testing::TempFolder dir;
  for (auto _ : state) {
    SolveConfig c = SolveConfig::from_file((source / "configs/leduc.toml").string());
    c.params.algorithm = "external";
    c.iterations = std::int64_t{1} << 40;
    c.seconds = 3.0;
    c.checkpoint = dir / "leduc.ckpt";
    if (state.range(0) == 1) c.checkpoint_every_iterations = 1000;
    if (state.range(0) == 2) c.checkpoint_every_iterations = 0, c.checkpoint_every_seconds = 0;
    std::filesystem::remove(c.checkpoint);
    SolverRun run(c, false);
    const SolveSummary s = run.run({});
    state.counters["it_per_s"] = static_cast<double>(s.iterations) / s.seconds;
    state.counters["checkpoints"] = s.periodic_checkpoints;
    state.counters["checkpoint_share"] = s.periodic_checkpoint_seconds / s.seconds;
  }
  static const char* const kLabels[] = {"shipped config", "every 1000 iterations", "off"};
  state.SetLabel(kLabels[state.range(0)]);
}
BENCHMARK(BM_LeducCheckpointShare)
    ->DenseRange(0, 2)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Exploitability of each algorithm at t = 0.25, 0.5, 1, 2, ... seconds up to `seconds`.
void print_curve(double seconds, int threads) {
  Leduc leduc;
  std::vector<double> marks;
  for (double t = 0.25; t < seconds; t *= 2) marks.push_back(t);
  marks.push_back(seconds);
  std::printf("\nLeduc exploitability (chips/hand) vs wall-clock seconds, %d thread(s)\n", threads);
  std::printf("%-9s", "algorithm");
  for (double m : marks) std::printf(" %10gs", m);
  std::printf("  %s\n", "iterations");
  for (const char* algorithm : kAlgorithms) {
    StrategyTables tables(leduc.tree, leduc.abstraction, default_table_precision(algorithm));
    CfrParameters params;
    params.algorithm = algorithm;
    auto algo = make_cfr_algorithm(params, leduc.tree, leduc.abstraction, tables);
    const AveragePolicy policy(leduc.tree, leduc.abstraction, tables);
    std::printf("%-9s", algorithm);
    std::fflush(stdout);
    std::int64_t done = 0, chunk = 1;
    double solve_time = 0.0;  // excludes the best-response evaluations
    for (double mark : marks) {
      while (solve_time < mark) {
        const auto start = std::chrono::steady_clock::now();
        algo->run(done + 1, chunk, threads);
        solve_time +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        done += chunk;
        if (chunk < 4096) chunk *= 2;
      }
      std::printf(" %11.3e", compute_exploitability(policy).exploitability_chips);
      std::fflush(stdout);
    }
    std::printf("  %lld\n", static_cast<long long>(done));
  }
}

}  // namespace

int main(int argc, char** argv) {
  double curve = 0.0;
  int curve_threads = 1;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--curve=", 8) == 0) {
      curve = std::atof(argv[i] + 8);
    } else if (std::strncmp(argv[i], "--curve_threads=", 16) == 0) {
      curve_threads = std::atoi(argv[i] + 16);
    } else {
      rest.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (curve > 0) {
    print_curve(curve, curve_threads);
    return 0;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
