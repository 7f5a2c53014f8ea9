// What a person's table pays per action in HULHE (human_play/live_odds.h, human_session.h):
//   BM_LiveOdds/<cards on the board>   the odds panel (equity against a random hand and
//                                      against a range, category chances) for AsKd on
//                                      0 (Monte Carlo, 20,000 deals), 3, 4 or 5 board cards
//                                      (exact); the range here is uniform
//   BM_RangeObserve/<round>            one opponent action read into the range: 1,326 hands
//                                      asked for their probabilities through a PolicyAgent
//                                      over a strategy file (a hashed uneven policy on a
//                                      synthetic 169-50-50-50 table; $HULHE_STRATEGY: a real
//                                      file), preflop or on the flop
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "agents/policy_agent.h"
#include "game/betting_tree.h"
#include "human_play/live_odds.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/synthetic_strategy_file.h"
#include "tests/support/test_policies.h"

namespace {

using namespace hulhe;

void BM_LiveOdds(benchmark::State& state) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const std::vector<Card> hole = parse_cards("AsKd");
  const std::vector<Card> board = parse_cards("2c7hJdQs3h");
  const int board_count = static_cast<int>(state.range(0));
  const OpponentRange range(game);
  const LiveOddsConfig config;
  std::uint64_t seed = 1;
  LiveOdds odds;
  for (auto _ : state) {
    odds = live_odds(game, hole.data(), board.data(), board_count, range, config, seed++);
    benchmark::DoNotOptimize(odds);
  }
  state.counters["exact"] = odds.vs_random.exact ? 1 : 0;
  state.counters["deals"] = static_cast<double>(odds.vs_random.deals);
}
BENCHMARK(BM_LiveOdds)->Arg(0)->Arg(3)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

// The strategy file under test: $HULHE_STRATEGY, or a hashed policy over a synthetic
// 169-50-50-50 table written to a temporary file once.
const std::string& strategy_path() {
  static const std::string path = testing::strategy_file_under_test(
      "odds.strategy", [](const BettingTree& tree, const CardAbstraction& abstraction) {
        return std::make_unique<testing::HashedTestPolicy>(tree, abstraction);
      });
  return path;
}

void BM_RangeObserve(benchmark::State& state) {
  auto file = std::make_shared<StrategyFile>(StrategyFile::read(strategy_path()));
  const GameDefinition& game = file->game();
  PolicyAgent agent(file, "bench");
  OpponentRange range(game);
  const int round = static_cast<int>(state.range(0));
  GameState s(game);
  const std::vector<Card> board = parse_cards("2c7hJd");
  for (int c = 0; c < 3; ++c) s.set_board_card(c, board[c]);
  if (round == 1) s.apply_betting("cc/");  // the flop, the big blind (position 0) to act
  const int position = s.current_player();
  const CardSet dead = CardSet::of(parse_cards("AsKd")) | CardSet::of(board);
  for (auto _ : state) {
    range.reset();
    range.observe(agent, s, position, Action::kCall, dead);
    benchmark::DoNotOptimize(range.weights().data());
  }
  state.counters["hands"] = static_cast<double>(range.hands().size());
}
BENCHMARK(BM_RangeObserve)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
