// How far a real strategy file's probabilities could be compressed: the order-0 entropy of
// its quantised values per context (round, actions at the information set, action slot),
// with each information set's last value implied as compact files store them. Counters:
// stored values, their bytes as stored, and the bytes an ideal entropy coder of that model
// would need; per round the bits a value.
//
//   HULHE_STRATEGY=run.strategy bench_strategy_entropy
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "game/betting_tree.h"
#include "strategies/strategy_file.h"

namespace {

using namespace hulhe;

void BM_StrategyEntropy(benchmark::State& state) {
  const char* path = std::getenv("HULHE_STRATEGY");
  if (path == nullptr) {
    state.SkipWithError("set HULHE_STRATEGY to a strategy file");
    return;
  }
  const StrategyFile file = StrategyFile::read(path);
  const BettingTree& tree = file.tree();
  const int rounds = file.game().num_rounds;
  const std::size_t symbols = file.bits() == 8 ? 256 : 65536;
  // counts[(round, actions, slot)][value]
  std::map<std::tuple<int, int, int>, std::vector<std::int64_t>> counts;
  for (auto _ : state) {
    counts.clear();
    for (int r = 0; r < rounds; ++r)
      for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
        const int actions = tree.node(tree.decision_node(r, n)).num_actions;
        for (std::int32_t b = 0; b < file.abstraction().num_buckets(r); ++b)
          for (int a = 0; a + 1 < actions; ++a) {
            auto& c = counts[{r, actions, a}];
            if (c.empty()) c.assign(symbols, 0);
            ++c[file.bits() == 8 ? file.quantized(r, n, b)[a] : file.quantized16(r, n, b)[a]];
          }
      }
  }
  std::vector<double> round_values(rounds, 0), round_bits(rounds, 0);
  for (const auto& [context, c] : counts) {
    double total = 0;
    for (const std::int64_t x : c) total += static_cast<double>(x);
    double bits = 0;
    for (const std::int64_t x : c)
      if (x > 0) bits -= static_cast<double>(x) * std::log2(static_cast<double>(x) / total);
    round_values[std::get<0>(context)] += total;
    round_bits[std::get<0>(context)] += bits;
  }
  double values = 0, bits = 0;
  for (int r = 0; r < rounds; ++r) {
    values += round_values[r];
    bits += round_bits[r];
    state.counters["bits_per_value_r" + std::to_string(r)] =
        round_values[r] > 0 ? round_bits[r] / round_values[r] : 0;
  }
  constexpr double kMiB = 1 << 20;
  state.counters["stored_values"] = values;
  state.counters["stored_MiB"] = values * file.bits() / 8 / kMiB;
  state.counters["entropy_MiB"] = bits / 8 / kMiB;
}
BENCHMARK(BM_StrategyEntropy)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
