// Equity speed, single-threaded, against the figures of the fastest public calculator
// (OMPEval, about 2-4 ms, 0.7 s and 11 ms for these three on a desktop core).
#include <benchmark/benchmark.h>

#include "game/equity/equity_calculator.h"
#include "game/equity/equity_tables.h"

namespace hulhe {
namespace {

EquityRequest spot(const char* a, const char* b, EquityMethod method) {
  EquityRequest r;
  r.players = {Range::parse(a), Range::parse(b)};
  r.method = method;
  r.threads = 1;
  r.target_stderr = 0.001;
  equity::equity_tables();  // built once per process, outside the timing
  return r;
}

void BM_ExactHandVsHandPreflop(benchmark::State& state) {
  const EquityRequest r = spot("AhKh", "QsQd", EquityMethod::kExact);
  for (auto _ : state) benchmark::DoNotOptimize(compute_equity(r));
}
BENCHMARK(BM_ExactHandVsHandPreflop)->Unit(benchmark::kMillisecond);

void BM_ExactHandVsRandomPreflop(benchmark::State& state) {
  const EquityRequest r = spot("AsKs", "random", EquityMethod::kExact);
  for (auto _ : state) benchmark::DoNotOptimize(compute_equity(r));
}
BENCHMARK(BM_ExactHandVsRandomPreflop)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_MonteCarloHandVsRandomTo0001(benchmark::State& state) {
  EquityRequest r = spot("AsKs", "random", EquityMethod::kMonteCarlo);
  std::uint64_t samples = 0;
  for (auto _ : state) {
    ++r.seed;
    samples = compute_equity(r).combinations;
  }
  state.counters["samples"] = static_cast<double>(samples);
  // Deals per second of CPU time (the run's own sample count over its time).
  state.counters["samples_per_second"] = benchmark::Counter(
      static_cast<double>(samples), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_MonteCarloHandVsRandomTo0001)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hulhe

BENCHMARK_MAIN();
