// Wall time and peak memory of each full-round hand feature (abstraction/features/hand_features.h).
// Each benchmark runs once (the features are minutes of work, not microseconds); run one
// filter per process to read a feature's own peak memory, e.g.
//   bench_hand_features --benchmark_filter=OchsFeatures
// Threads: HULHE_BENCH_THREADS (default 2, the reference machine).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "abstraction/features/hand_features.h"
#include "game/hand_indexer.h"
#include "util/process_facts.h"

namespace {

int bench_threads() {
  const char* env = std::getenv("HULHE_BENCH_THREADS");
  return env != nullptr ? std::atoi(env) : 2;
}

// The river HS table the other features start from, built once per process.
const std::vector<float>& river_table() {
  static const std::vector<float> table = hulhe::river_hand_strength(bench_threads());
  return table;
}

std::int64_t rows_of(const std::vector<float>& table) {
  return static_cast<std::int64_t>(table.size());
}
std::int64_t rows_of(const hulhe::FeatureMatrix& table) {
  return table.rows;
}
std::int64_t rows_of(const hulhe::NextRoundBuckets& table) {
  return table.rows;
}

// Runs build() once per iteration and reports the hands (rows) of what it built, their rate,
// the peak memory and the threads.
template <typename Build>
void time_build(benchmark::State& state, Build build) {
  std::int64_t hands = 0;
  for (auto _ : state) {
    auto table = build();
    hands = rows_of(table);
    benchmark::DoNotOptimize(table);
  }
  state.counters["hands"] = static_cast<double>(hands);
  state.counters["hands_per_s"] =
      benchmark::Counter(static_cast<double>(hands), benchmark::Counter::kIsRate);
  state.counters["peak_rss_MiB"] = hulhe::peak_rss_mib();
  state.counters["threads"] = bench_threads();
}

// One run of each of rounds 0 to 2 (range(0)).
void rounds_0_to_2(benchmark::internal::Benchmark* b) {
  b->DenseRange(0, 2)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
}

void BM_RiverHandStrength(benchmark::State& state) {
  time_build(state, [] { return hulhe::river_hand_strength(bench_threads()); });
}
BENCHMARK(BM_RiverHandStrength)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

// Given the river table (built before timing starts): E[HS] of round `range(0)`.
void BM_ExpectedHandStrength(benchmark::State& state) {
  const auto& river = river_table();
  const int round = static_cast<int>(state.range(0));
  time_build(state, [&] { return hulhe::expected_hand_strength(round, river, bench_threads()); });
}
BENCHMARK(BM_ExpectedHandStrength)->Apply(rounds_0_to_2);

void BM_ExpectedHandStrengthSquared(benchmark::State& state) {
  const auto& river = river_table();
  const int round = static_cast<int>(state.range(0));
  time_build(state,
             [&] { return hulhe::expected_hand_strength_squared(round, river, bench_threads()); });
}
BENCHMARK(BM_ExpectedHandStrengthSquared)->Apply(rounds_0_to_2);

// Strength histograms with 50 bins (the cost is the board enumeration, not the bins).
void BM_StrengthHistograms(benchmark::State& state) {
  const auto& river = river_table();
  const int round = static_cast<int>(state.range(0));
  time_build(state, [&] { return hulhe::strength_histograms(round, 50, river, bench_threads()); });
}
BENCHMARK(BM_StrengthHistograms)->Apply(rounds_0_to_2);

// OCHS with the paper's K = 8 opponent clusters (an arbitrary assignment of the 169 hands:
// the cost does not depend on which).
void BM_OchsFeatures(benchmark::State& state) {
  std::vector<int> preflop_cluster(169);
  for (int i = 0; i < 169; ++i) preflop_cluster[i] = i % 8;
  time_build(state, [&] { return hulhe::ochs_features(preflop_cluster, 8, bench_threads()); });
}
BENCHMARK(BM_OchsFeatures)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

// Next-round bucket lists of round `range(0)` against a 1,000-bucket next-round map.
void BM_NextRoundBuckets(benchmark::State& state) {
  const int round = static_cast<int>(state.range(0));
  std::vector<std::int32_t> next(hulhe::HandIndexer::holdem(round + 1).size());
  for (std::size_t i = 0; i < next.size(); ++i) next[i] = static_cast<std::int32_t>(i % 1000);
  time_build(state, [&] { return hulhe::next_round_buckets(round, next, bench_threads()); });
}
BENCHMARK(BM_NextRoundBuckets)->Apply(rounds_0_to_2);

}  // namespace

BENCHMARK_MAIN();
