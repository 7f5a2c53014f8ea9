// Real-game HULHE best response (solver/holdem_best_response.h): seconds per work unit (one
// canonical flop: every preflop sequence reaching it, both responder seats) against a
// 169-1000-1000-1000 policy, and the projected CPU-hours of a full exact run (1,755 units).
// The bucket map is faked cheaply but realistically: a hash of the suit-isomorphic hand
// index (HandIndexer::holdem, one index per hand per board, as a real map costs), folded
// into 1,000 buckets; the policy is a lopsided hash of the information set with every
// action possible (nothing pruned: the worst case). Against a strategy that never takes some
// actions the walk skips their subtrees.
//
//   bench_holdem_best_response                       # 1 flop, 1 thread (CPU time)
//   bench_holdem_best_response --benchmark_filter=Baseline   # baselines (pruned walks)
#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdio>
#include <span>

#include "abstraction/card_blind_abstraction.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "solver/holdem_best_response.h"
#include "strategies/baseline_policies.h"

namespace {

using namespace hulhe;

class IndexHashAbstraction final : public CardAbstraction {
 public:
  int num_rounds() const override { return 4; }
  std::int32_t num_buckets(int round) const override { return round == 0 ? 169 : 1000; }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override {
    std::array<Card, 7> cards{};
    cards[0] = hole[0];
    cards[1] = hole[1];
    const int b = round == 0 ? 0 : round + 2;
    for (int i = 0; i < b; ++i) cards[2 + i] = board[i];
    const std::uint64_t index = HandIndexer::holdem(round).index(cards.data());
    if (round == 0) return static_cast<std::int32_t>(index);
    std::uint64_t x = index * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    return static_cast<std::int32_t>(x % 1000);
  }
  std::uint64_t hash() const override { return 42; }
  std::string describe() const override { return "index hash 169-1000-1000-1000"; }
};

class HashPolicy final : public Policy {
 public:
  HashPolicy(const BettingTree& tree, const CardAbstraction& abs) : tree_(tree), abs_(abs) {}
  const BettingTree& tree() const override { return tree_; }
  const CardAbstraction& abstraction() const override { return abs_; }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override {
    double sum = 0.0;
    for (std::size_t a = 0; a < out.size(); ++a) {
      std::uint64_t x = ((round * 100003ULL + node) * 7919ULL + bucket) * 31ULL + a;
      x ^= x >> 13;
      x *= 0x9e3779b97f4a7c15ULL;
      x ^= x >> 29;
      out[a] = 0.05 + static_cast<double>(x % 1000) / 1000.0;
      sum += out[a];
    }
    for (double& p : out) p /= sum;
  }

 private:
  const BettingTree& tree_;
  const CardAbstraction& abs_;
};

// CPU time of this thread: the machine may be shared, and CPU-hours are what is projected.
double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

void report_unit(benchmark::State& state, double seconds, std::int64_t units) {
  const double per_unit = seconds / static_cast<double>(units);
  state.counters["s_per_unit"] = per_unit;
  state.counters["full_run_cpu_hours"] = per_unit * 1755.0 / 3600.0;
}

void BM_HulheUnit169x1000(benchmark::State& state) {
  static const GameDefinition game = GameDefinition::holdem_limit_2p();
  static const BettingTree tree(game);
  static const IndexHashAbstraction abs;
  static const HashPolicy policy(tree, abs);
  static const HoldemBestResponse br(policy, {});
  const std::int32_t flops = static_cast<std::int32_t>(state.range(0));
  for (auto _ : state) {
    const double start = thread_seconds();
    double sink = 0.0;
    for (std::int32_t f = 0; f < flops; ++f)
      sink += br.flop_values(static_cast<std::int32_t>((f * 977) % 1755))[0];
    benchmark::DoNotOptimize(sink);
    const double s = thread_seconds() - start;
    state.SetIterationTime(s);
    report_unit(state, s, flops);
  }
}
BENCHMARK(BM_HulheUnit169x1000)->Arg(1)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

void BM_HulheUnitBaseline(benchmark::State& state) {
  static const GameDefinition game = GameDefinition::holdem_limit_2p();
  static const BettingTree tree(game);
  static const CardBlindAbstraction abs(game);
  const auto policy = make_baseline_policy(baseline_policy_names()[state.range(0)], tree, abs);
  const HoldemBestResponse br(*policy, {});
  state.SetLabel(baseline_policy_names()[state.range(0)]);
  for (auto _ : state) {
    const double start = thread_seconds();
    benchmark::DoNotOptimize(br.flop_values(100)[0]);
    const double s = thread_seconds() - start;
    state.SetIterationTime(s);
    report_unit(state, s, 1);
  }
}
BENCHMARK(BM_HulheUnitBaseline)
    ->DenseRange(0, 3)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
