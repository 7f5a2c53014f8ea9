// Time per decision of the re-solving agent (resolving/resolving_agent.h) on HULHE, issue 39's
// budget: a turn decision under 2 s and a river one under 50 ms on 2 threads. Each benchmark
// iteration deals a fresh hand, plays the betting "cc/cc/" (or "cc/cc/cc/" for the river)
// and asks the agent for its first decision of the round, which re-solves the subgame with
// every card dealt. The blueprint is the uniform strategy (the time does not depend on it:
// the solver prunes nothing). Counters: p50 and p99 seconds per decision over the
// iterations, the solver iterations run and the solver's tables (MiB).
//
//   build/resolve/bench/bench_resolve --benchmark_filter=Turn
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "agents/agent_factory.h"
#include "game/game_state.h"
#include "resolving/resolving_agent.h"
#include "util/split_mix64.h"

namespace hulhe {
namespace {

void resolve_decision(benchmark::State& state, int round, const char* betting) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const PolicySource uniform = load_baseline_policy("uniform", game);
  auto tree = std::make_shared<const BettingTree>(game);
  ResolvingAgentOptions options;
  options.first_round = round;
  options.resolve.iterations = state.range(0);
  options.resolve.solver.threads = static_cast<int>(state.range(1));
  ResolvingAgent agent(uniform.policy, tree, options, "bench");
  SplitMix64 rng(7);
  std::vector<double> seconds;
  for (auto _ : state) {
    GameState s(game, static_cast<std::uint32_t>(seconds.size()));
    std::vector<Card> deck = game.deck();
    for (int i = 0; i < 9; ++i) std::swap(deck[i], deck[i + rng.below(52 - i)]);
    s.set_hole_cards(0, deck.data());
    s.set_hole_cards(1, deck.data() + 2);
    for (int i = 0; i < 5; ++i) s.set_board_card(i, deck[4 + i]);
    s.apply_betting(betting);
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(agent.act(s, s.current_player(), rng));
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    seconds.push_back(t);
    state.SetIterationTime(t);
  }
  std::sort(seconds.begin(), seconds.end());
  const auto at = [&](double q) {
    return seconds[std::min(seconds.size() - 1, static_cast<std::size_t>(q * seconds.size()))];
  };
  state.counters["p50_s"] = at(0.50);
  state.counters["p99_s"] = at(0.99);
  state.counters["solver_iterations"] =
      static_cast<double>(agent.last_resolve() ? agent.last_resolve()->iterations : 0);
  state.counters["table_MiB"] =
      agent.last_resolve()
          ? static_cast<double>(agent.last_resolve()->solver->table_bytes()) / (1 << 20)
          : 0.0;
}

void BM_TurnDecision(benchmark::State& state) {
  resolve_decision(state, 2, "cc/cc/");
}
void BM_RiverDecision(benchmark::State& state) {
  resolve_decision(state, 3, "cc/cc/cc/");
}

// Args: solver iterations, threads.
BENCHMARK(BM_TurnDecision)
    ->Args({50, 1})
    ->Args({50, 2})
    ->Args({100, 2})
    ->Args({50, 16})  // a 16-core machine: the deals of each turn chance node on 16 threads
    ->Iterations(8)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RiverDecision)
    ->Args({100, 2})
    ->Args({300, 2})
    ->Iterations(20)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hulhe

BENCHMARK_MAIN();
