// Real-game HULHE best response (best_response/holdem/holdem_best_response.h): seconds per work
// unit (one canonical flop: every preflop sequence reaching it, both responder seats) against a
// 169-1000-1000-1000 policy, and the projected CPU-hours of a full exact run (1,755 units:
// seconds per walked river board x the boards of all units).
// The bucket map is faked cheaply but realistically: a hash of the suit-isomorphic hand
// index (HandIndexer::holdem, one index per hand per board, as a real map costs), folded
// into 1,000 buckets; the policy is a lopsided hash of the information set with every
// action possible (nothing pruned: the worst case). Against a strategy that never takes some
// actions the walk skips their subtrees.
//
//   bench_holdem_best_response                       # 1 flop, 1 thread (CPU time),
//                                                    # single then double precision
//   bench_holdem_best_response --benchmark_filter=Baseline   # baselines (pruned walks)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <span>

#include "abstraction/card_blind_abstraction.h"
#include "agents/baseline_policies.h"
#include "best_response/holdem/holdem_best_response.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/test_policies.h"
#include "util/process_facts.h"

namespace {

using namespace hulhe;

// River boards a unit walks: per canonical flop, one turn per orbit of the flop's suit
// stabilizer and one river per orbit of the turn board's (holdem_last_round.h). The work of a
// unit is proportional to it, so seconds per board x boards of all units projects a full run
// from a few units whatever their suit structure.
std::int64_t walked_boards(const FlopClasses& fc, std::int32_t c) {
  const CardSet flop = fc.flops[c].mask;
  const std::vector<std::int32_t> g = board_stabilizer(fc, flop);
  std::int64_t boards = 0;
  for (Card t = 0; t < kMaxCards; ++t) {
    if (flop.contains(t) || deal_orbit_size(fc, g, CardSet(std::uint64_t{1} << t)) == 0) continue;
    CardSet turn = flop;
    turn.insert(t);
    const std::vector<std::int32_t> gt = board_stabilizer(fc, turn);
    for (Card r = 0; r < kMaxCards; ++r)
      boards += !turn.contains(r) && deal_orbit_size(fc, gt, CardSet(std::uint64_t{1} << r)) > 0;
  }
  return boards;
}

void report_unit(benchmark::State& state, const FlopClasses& fc, double seconds,
                 const std::vector<std::int32_t>& units) {
  std::int64_t boards = 0;
  for (std::int32_t c : units) boards += walked_boards(fc, c);
  static const std::int64_t all_boards = [&] {
    std::int64_t b = 0;
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(fc.flops.size()); ++c)
      b += walked_boards(fc, c);
    return b;
  }();
  const double per_board = seconds / static_cast<double>(boards);
  state.counters["s_per_unit"] = seconds / static_cast<double>(units.size());
  state.counters["boards"] = static_cast<double>(boards);
  state.counters["us_per_board"] = 1e6 * per_board;
  state.counters["s_per_avg_unit"] =
      per_board * static_cast<double>(all_boards) / static_cast<double>(fc.flops.size());
  state.counters["full_run_cpu_hours"] = per_board * static_cast<double>(all_boards) / 3600.0;
}

void BM_HulheUnit169x1000(benchmark::State& state) {
  static const GameDefinition game = GameDefinition::holdem_limit_2p();
  static const BettingTree tree(game);
  static const testing::IndexHashAbstraction abs;
  static const testing::HashedTestPolicy policy(tree, abs);
  // Arg 1: 0 single precision (the default for HULHE), 1 double.
  const bool dbl = state.range(1) != 0;
  HoldemBestResponseOptions opt;
  opt.precision = dbl ? HoldemBestResponseOptions::Precision::kDouble
                      : HoldemBestResponseOptions::Precision::kSingle;
  const HoldemBestResponse br(policy, opt);
  state.SetLabel(dbl ? "double" : "single");
  // Flops 1000, 1977, ...: rainbow, two-tone and monotone ones alike.
  std::vector<std::int32_t> units;
  for (std::int64_t f = 0; f < state.range(0); ++f)
    units.push_back(static_cast<std::int32_t>((1000 + f * 977) % 1755));
  for (auto _ : state) {
    // CPU time of this thread: the machine may be shared, and CPU-hours are what is projected.
    const double start = thread_cpu_seconds();
    double sink = 0.0;
    for (std::int32_t c : units) sink += br.flop_values(c)[0];
    benchmark::DoNotOptimize(sink);
    const double s = thread_cpu_seconds() - start;
    state.SetIterationTime(s);
    report_unit(state, br.flops(), s, units);
  }
}
BENCHMARK(BM_HulheUnit169x1000)
    ->Args({1, 0})
    ->Args({1, 1})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

void BM_HulheUnitBaseline(benchmark::State& state) {
  static const GameDefinition game = GameDefinition::holdem_limit_2p();
  static const BettingTree tree(game);
  static const CardBlindAbstraction abs(game);
  const auto policy = make_baseline_policy(baseline_policy_names()[state.range(0)], tree, abs);
  const HoldemBestResponse br(*policy, {});
  state.SetLabel(baseline_policy_names()[state.range(0)]);
  for (auto _ : state) {
    const double start = thread_cpu_seconds();
    benchmark::DoNotOptimize(br.flop_values(1000)[0]);
    const double s = thread_cpu_seconds() - start;
    state.SetIterationTime(s);
    report_unit(state, br.flops(), s, {1000});
  }
}
BENCHMARK(BM_HulheUnitBaseline)
    ->DenseRange(0, 3)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
