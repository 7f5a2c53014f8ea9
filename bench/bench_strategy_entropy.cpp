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

#include "bench/strategy_from_env.h"
#include "game/betting_tree.h"
#include "strategy_files/strategy_file.h"

namespace {

using namespace hulhe;

void BM_StrategyEntropy(benchmark::State& state) {
  const char* path = strategy_path_or_skip(state, "a strategy file");
  if (path == nullptr) return;
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

// Code length of the same stored values under contexts a decoder could form from what it
// has already read, with an adaptive model (each context's counts start empty and grow as
// values are coded: p = (count + 1/2) / (seen + 128), so nothing is stored for the model and
// the learning cost is included). Args: 0 = (round, actions, slot) as above; 1 = also the
// previous slot's value in the information set (16 bins); 2 = 1 and the same slot's value
// of the previous bucket at the node (32 bins), buckets in the file's order; 3 = the same
// with each round's buckets renumbered by their mean aggression over the round's nodes
// (last slot minus first), so that neighbouring buckets play alike.
void BM_StrategyContextEntropy(benchmark::State& state) {
  const char* path = strategy_path_or_skip(state, "a strategy file");
  if (path == nullptr) return;
  static const StrategyFile file = StrategyFile::read(path);
  if (file.bits() != 8) {
    state.SkipWithError("8-bit files only");
    return;
  }
  const int scheme = static_cast<int>(state.range(0));
  const BettingTree& tree = file.tree();
  const int rounds = file.game().num_rounds;
  std::map<std::vector<int>, std::vector<std::int32_t>> counts;
  double bits = 0, values = 0;
  for (auto _ : state) {
    counts.clear();
    bits = values = 0;
    for (int r = 0; r < rounds; ++r) {
      const std::int32_t k = file.abstraction().num_buckets(r);
      std::vector<std::int32_t> order(k);
      for (std::int32_t b = 0; b < k; ++b) order[b] = b;
      if (scheme >= 3) {
        std::vector<double> key(k, 0.0);
        for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n)
          for (std::int32_t b = 0; b < k; ++b) {
            const auto q = file.quantized(r, n, b);
            key[b] += static_cast<double>(q[q.size() - 1]) - q[0];
          }
        std::stable_sort(order.begin(), order.end(),
                         [&](std::int32_t x, std::int32_t y) { return key[x] < key[y]; });
      }
      for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
        const int actions = tree.node(tree.decision_node(r, n)).num_actions;
        for (std::int32_t i = 0; i < k; ++i) {
          const auto q = file.quantized(r, n, order[i]);
          for (int a = 0; a + 1 < actions; ++a) {
            std::vector<int> key{r, actions, a};
            if (scheme >= 1) key.push_back(a > 0 ? q[a - 1] / 16 : -1);
            if (scheme >= 2) key.push_back(i > 0 ? file.quantized(r, n, order[i - 1])[a] / 8 : -1);
            auto& c = counts[key];
            if (c.empty()) c.assign(257, 0);  // 256 counts and their sum
            bits -= std::log2((c[q[a]] + 0.5) / (c[256] + 128.0));
            ++c[q[a]];
            ++c[256];
            ++values;
          }
        }
      }
    }
  }
  constexpr double kMiB = 1 << 20;
  state.counters["contexts"] = static_cast<double>(counts.size());
  state.counters["bits_per_value"] = bits / values;
  state.counters["adaptive_MiB"] = bits / 8 / kMiB;
}
BENCHMARK(BM_StrategyContextEntropy)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
