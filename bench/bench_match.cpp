// Match speed: hands per second between two strategies and between a strategy and the bots,
// with 1 and 2 threads.
//
// HULHE strategy files need a card abstraction; so that this program needs no bucket-map
// build, it makes its own: every canonical hand (HandIndexer, as a bucket map would look it
// up) falls in bucket hash(index) mod 1,000 on the flop, turn and river (169 lossless preflop).
// A pseudo-random strategy over it is written as a real strategy file (8-bit values,
// 14 MiB) and read back, so the agents do exactly what they do with a solved strategy: index
// the hand, walk the betting tree, sample from the quantised table.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "abstraction/lossless_abstraction.h"
#include "agents/agent_factory.h"
#include "agents/match.h"
#include "agents/policy_agent.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_policies.h"

namespace {

using namespace hulhe;

// A file of the repository: run from its root (as `make bench` does), or from anywhere when
// __FILE__ is an absolute path.
std::string source_file(const std::string& relative) {
  if (std::filesystem::exists(relative)) return relative;
  return (std::filesystem::path(__FILE__).parent_path().parent_path() / relative).string();
}

struct Holdem {
  GameDefinition game = GameDefinition::holdem_limit_2p();
  BettingTree tree{game};
  std::shared_ptr<const testing::IndexHashAbstraction> abstraction =
      std::make_shared<testing::IndexHashAbstraction>();
  std::shared_ptr<const StrategyFile> file;
  Holdem() {
    const testing::TempFolder dir;
    const std::string path = dir / "holdem.strategy";
    StrategyFileMetadata meta;
    meta.algorithm = "hashed (bench)";
    meta.abstraction_kind = "buckets";
    meta.bucket_map = "(bench: canonical index mod 1000)";
    write_strategy_file(path, testing::HashedTestPolicy(tree, *abstraction), meta);
    file = std::make_shared<const StrategyFile>(StrategyFile::read(path, abstraction));
    std::filesystem::remove(path);
  }
  AgentSource strategy(const std::string& name) const {
    auto f = file;
    return {name, name, {}, [f, name] { return std::make_unique<PolicyAgent>(f, name); }, game, f};
  }
};

struct Leduc {
  GameDefinition game = GameDefinition::from_file(source_file("configs/games/leduc.game"));
  std::shared_ptr<const StrategyFile> file;
  Leduc() {
    BettingTree tree(game);
    LosslessAbstraction abstraction(game);
    StrategyTables tables(tree, abstraction);
    make_cfr_algorithm(CfrParameters{}, tree, abstraction, tables)->run(1, 300, 1);
    const testing::TempFolder dir;
    const std::string path = dir / "leduc.strategy";
    write_strategy_file(path, AveragePolicy(tree, abstraction, tables),
                        {0, "cfr+", 300, "lossless", ""});
    file = std::make_shared<const StrategyFile>(StrategyFile::read(path));
    std::filesystem::remove(path);
  }
  AgentSource strategy(const std::string& name) const {
    auto f = file;
    return {name, name, {}, [f, name] { return std::make_unique<PolicyAgent>(f, name); }, game, f};
  }
};

Holdem& holdem() {
  static Holdem h;
  return h;
}
Leduc& leduc() {
  static Leduc l;
  return l;
}

void run_match(benchmark::State& state, const GameDefinition& game, const AgentSource& a,
               const AgentSource& b, std::int64_t hands) {
  MatchConfig config;
  config.hands = hands;
  config.duplicate = true;
  config.threads = static_cast<int>(state.range(0));
  std::uint64_t seed = 1;
  for (auto _ : state) {
    config.seed = seed++;
    const MatchResult r = play_match(game, a, b, config);
    benchmark::DoNotOptimize(r.total_chips);
  }
  state.SetItemsProcessed(state.iterations() * hands);
  state.counters["hands/min"] = benchmark::Counter(
      static_cast<double>(state.iterations() * hands) * 60, benchmark::Counter::kIsRate);
}

// Each match on 1 and on 2 threads (range(0)), in wall time.
void on_1_and_2_threads(benchmark::internal::Benchmark* b) {
  b->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
}

void BM_HoldemStrategyVsStrategy(benchmark::State& state) {
  Holdem& h = holdem();
  run_match(state, h.game, h.strategy("s1"), h.strategy("s2"), 200'000);
}
BENCHMARK(BM_HoldemStrategyVsStrategy)->Apply(on_1_and_2_threads);

void BM_HoldemStrategyVsRuleBot(benchmark::State& state) {
  Holdem& h = holdem();
  run_match(state, h.game, h.strategy("s1"),
            load_agent("bot:rules:" + source_file("configs/bots/rules-holdem.toml"), h.game),
            20'000);
}
BENCHMARK(BM_HoldemStrategyVsRuleBot)->Apply(on_1_and_2_threads);

void BM_HoldemStrategyVsEquityBot(benchmark::State& state) {
  Holdem& h = holdem();
  run_match(state, h.game, h.strategy("s1"), load_agent("bot:equity", h.game), 20'000);
}
BENCHMARK(BM_HoldemStrategyVsEquityBot)->Apply(on_1_and_2_threads);

void BM_LeducStrategyVsStrategy(benchmark::State& state) {
  Leduc& l = leduc();
  run_match(state, l.game, l.strategy("s1"), l.strategy("s2"), 200'000);
}
BENCHMARK(BM_LeducStrategyVsStrategy)->Apply(on_1_and_2_threads);

void BM_LeducStrategyVsRuleBot(benchmark::State& state) {
  Leduc& l = leduc();
  run_match(state, l.game, l.strategy("s1"),
            load_agent("bot:rules:" + source_file("configs/bots/rules-leduc.toml"), l.game),
            200'000);
}
BENCHMARK(BM_LeducStrategyVsRuleBot)->Apply(on_1_and_2_threads);

}  // namespace

BENCHMARK_MAIN();
