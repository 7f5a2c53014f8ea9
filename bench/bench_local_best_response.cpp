// Local best response in HULHE (best_response/local_best_response.h): hands per CPU-second on one
// thread against a 169-1000-1000-1000 policy (buckets from a hash of the suit-isomorphic
// hand index, as a real bucket map costs one index per hand per board; every action possible,
// so ranges never collapse: the worst case) and against the baseline bots; and the cost of one
// equity score pass per round (preflop by Monte Carlo, flop, turn and river exact).
//
//   bench_local_best_response                                  # everything
//   bench_local_best_response --benchmark_filter=RangeEquity   # score passes only
#include <benchmark/benchmark.h>

#include <span>

#include "abstraction/card_blind_abstraction.h"
#include "agents/baseline_policies.h"
#include "best_response/local_best_response.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/test_policies.h"
#include "util/process_facts.h"

namespace {

using namespace hulhe;

void play(benchmark::State& state, const Policy& policy, std::int64_t hands) {
  const LocalBestResponse lbr(policy, {});
  std::int64_t first = 0;
  for (auto _ : state) {
    // CPU time of this thread: the machine may be shared.
    const double start = thread_cpu_seconds();
    double sink = 0.0;
    for (std::int64_t i = first; i < first + hands; ++i) sink += lbr.play_hand(i);
    first += hands;
    benchmark::DoNotOptimize(sink);
    const double s = thread_cpu_seconds() - start;
    state.SetIterationTime(s);
    state.counters["hands_per_cpu_s"] = static_cast<double>(hands) / s;
    state.counters["cpu_s_per_10k_hands"] = s / static_cast<double>(hands) * 10000.0;
  }
}

void BM_LbrHulhe169x1000(benchmark::State& state) {
  static const GameDefinition game = GameDefinition::holdem_limit_2p();
  static const BettingTree tree(game);
  static const testing::IndexHashAbstraction abs;
  static const testing::HashedTestPolicy policy(tree, abs);
  play(state, policy, state.range(0));
}
BENCHMARK(BM_LbrHulhe169x1000)->Arg(200)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

void BM_LbrHulheBaseline(benchmark::State& state) {
  static const GameDefinition game = GameDefinition::holdem_limit_2p();
  static const BettingTree tree(game);
  static const CardBlindAbstraction abs(game);
  const auto policy = make_baseline_policy(baseline_policy_names()[state.range(0)], tree, abs);
  state.SetLabel(baseline_policy_names()[state.range(0)]);
  play(state, *policy, 200);
}
BENCHMARK(BM_LbrHulheBaseline)
    ->DenseRange(0, 3)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

// One score pass of AhKh with `known` board cards (0: Monte Carlo, 1,000 boards).
void BM_RangeEquityHulhe(benchmark::State& state) {
  static const GameDefinition game = GameDefinition::holdem_limit_2p();
  static const PrivateHands hands = enumerate_private_hands(game);
  static const RangeEquity eq(game, hands, {});
  const int known = static_cast<int>(state.range(0));
  const std::vector<Card> board = parse_cards("Qh7h2cTd5s");
  std::int32_t mine = 0;
  for (std::int32_t h = 0; h < hands.size(); ++h)
    if (hands.masks[h] == CardSet::of(parse_cards("AhKh"))) mine = h;
  SplitMix64 rng(1);
  RangeEquity::Scores s;
  for (auto _ : state) {
    eq.score(mine, board.data(), known, rng, s);
    benchmark::DoNotOptimize(s.score.data());
  }
  state.SetLabel(eq.exact(known) ? "exact" : "monte carlo");
}
BENCHMARK(BM_RangeEquityHulhe)->Arg(0)->Arg(3)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
