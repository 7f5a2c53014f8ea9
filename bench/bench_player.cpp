// Time per action of `hulhe play` with a HULHE strategy file: parse the dealer's MATCHSTATE,
// find the betting node, bucket the cards (one hand index and one packed-array read for the
// round), sample from the quantised probabilities and format the answer. Each decision is
// timed alone; median and 99th percentile are reported as counters (µs). Every decision
// starts a new hand, so every one pays the bucket lookup (in play it is paid once a round).
//
//   bench_player                                  # synthetic 169-50-50-50 bucket table
//   HULHE_STRATEGY=run.strategy bench_player      # a real exported strategy file
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "game/match_state.h"
#include "strategies/agent_factory.h"
#include "strategies/baseline_policies.h"
#include "strategies/packed_bucket_abstraction.h"
#include "strategies/policy_agent.h"
#include "strategies/strategy_file.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"

namespace {

using namespace hulhe;

// The strategy file under test: $HULHE_STRATEGY, or a uniform policy over a synthetic
// 169-50-50-50 table written to a temporary file once.
const std::string& strategy_path() {
  static const std::string path = [] {
    if (const char* p = std::getenv("HULHE_STRATEGY")) return std::string(p);
    static const testing::TempFolder dir;  // lives until the program ends
    const std::string tmp = dir / "player.strategy";
    const GameDefinition game = GameDefinition::holdem_limit_2p();
    const BettingTree tree(game);
    std::vector<PackedRoundBuckets> rounds = testing::modulo_packed_rounds({169, 50, 50, 50});
    const PackedBucketAbstraction abstraction(std::move(rounds), 1, "synthetic 169-50-50-50");
    const auto policy = make_baseline_policy("uniform", tree, abstraction);
    write_strategy_file(tmp, *policy, StrategyFileMetadata{});
    return tmp;
  }();
  return path;
}

// MATCHSTATE lines where the viewer is to act, from random hands played by uniform bots.
std::vector<std::string> decision_messages(const GameDefinition& game, int count) {
  std::vector<std::string> out;
  SplitMix64 rng(42);
  auto bot = make_agent("bot:uniform", game);
  while (static_cast<int>(out.size()) < count) {
    std::vector<Card> deck = game.deck();
    for (std::size_t i = deck.size() - 1; i > 0; --i)
      std::swap(deck[i], deck[rng.below(static_cast<std::uint32_t>(i + 1))]);
    GameState full(game, static_cast<std::uint32_t>(out.size()));
    full.set_hole_cards(0, deck.data());
    full.set_hole_cards(1, deck.data() + 2);
    for (int i = 0; i < 5; ++i) full.set_board_card(i, deck[4 + i]);
    while (!full.finished()) {
      const int p = full.current_player();
      GameState view(game, full.hand_id());
      for (int i = 0; i < 5; ++i) view.set_board_card(i, deck[4 + i]);
      view.set_hole_cards(p, full.hole_cards(p));
      view.apply_betting(full.betting_string());
      out.push_back(MatchState{p, view}.to_string());
      full.apply(bot->act(full, p, rng));
    }
  }
  return out;
}

void BM_LoadStrategyFile(benchmark::State& state) {
  const std::string& path = strategy_path();
  for (auto _ : state) {
    const StrategyFile f = StrategyFile::read(path);
    benchmark::DoNotOptimize(f.abstraction().hash());
  }
  state.counters["MiB"] = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
}
BENCHMARK(BM_LoadStrategyFile)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_TimePerAction(benchmark::State& state) {
  static const auto file =
      std::make_shared<const StrategyFile>(StrategyFile::read(strategy_path()));
  PolicyAgent agent(file, "bench");
  const std::vector<std::string> messages = decision_messages(file->game(), 20000);
  std::vector<double> micros;
  micros.reserve(messages.size());
  SplitMix64 rng(7);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const MatchState ms = MatchState::parse(messages[i], file->game());
    agent.new_hand();
    const BetAction a = agent.act(ms.state, ms.viewing_position, rng);
    std::string reply = response_string(ms, a);
    benchmark::DoNotOptimize(reply);
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
    if (++i == messages.size()) i = 0;
  }
  std::sort(micros.begin(), micros.end());
  state.counters["median_us"] = micros[micros.size() / 2];
  state.counters["p99_us"] = micros[micros.size() * 99 / 100];
}
BENCHMARK(BM_TimePerAction)->Iterations(20000);

}  // namespace

BENCHMARK_MAIN();
