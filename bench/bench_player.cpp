// Time per action of `hulhe play` with a HULHE strategy file: parse the dealer's MATCHSTATE,
// find the betting node, bucket the cards (one hand index and one packed-array read for the
// round), sample from the quantised probabilities and format the answer. Each decision is
// timed alone; median and 99th percentile are reported as counters (µs). Every decision
// starts a new hand, so every one pays the bucket lookup (in play it is paid once a round).
//
//   bench_player                                  # synthetic 169-50-50-50 bucket table
//   HULHE_STRATEGY=run.strategy bench_player      # a real exported strategy file
//
// Compact files (format version 3, river buckets computed at play time): BM_Compact* build a
// synthetic compact file of 169-k-k-k (k = 50, the quick map's, and 9000, the large map's,
// which has never been built): random flop and turn buckets, 8 opponent clusters, k river
// centres taken from the OCHS features of random river hands (valid centres), a hashed
// uneven policy (mixed: its 8-bit values are nearly incompressible, about 7.5 bits each) or
// that policy purified (one action per information set, as `export --purify` writes);
// counters give the file's size, its parts, and the size a full file of the same
// abstraction would have. Time per action is measured on all decisions and on river
// decisions only (each pays the OCHS feature and the scan of the k centres).
//
//   HULHE_STRATEGY=full.strategy HULHE_COMPACT=compact.strategy bench_player
//       --benchmark_filter=CompactAgrees      (one command line)
// compares a full file and the compact file of the same checkpoint (and bits) over random
// deals, one seat playing the file's strategy and the other at random: the counters count
// decisions whose bucket, quantised values or sampled action differ (0 expected).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "abstraction/strategy_thinning.h"
#include "agents/agent_factory.h"
#include "agents/baseline_policies.h"
#include "agents/policy_agent.h"
#include "bench/strategy_from_env.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "game/match_state.h"
#include "strategy_files/compact_bucket_abstraction.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/synthetic_strategy_file.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_policies.h"

namespace {

using namespace hulhe;

// The strategy file under test: $HULHE_STRATEGY, or a uniform policy over a synthetic
// 169-50-50-50 table written to a temporary file once.
const std::string& strategy_path() {
  static const std::string path = testing::strategy_file_under_test(
      "player.strategy", [](const BettingTree& tree, const CardAbstraction& abstraction) {
        return make_baseline_policy("uniform", tree, abstraction);
      });
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

// Times `file`'s decisions on `messages` (cycled): median, 99th percentile and maximum in
// µs. fresh_agent: a new agent per decision, so that no bucket is cached from an earlier
// decision of the same hand and round (every decision pays its round's bucket).
void time_actions(benchmark::State& state, const std::shared_ptr<const StrategyFile>& file,
                  const std::vector<std::string>& messages, bool fresh_agent) {
  PolicyAgent reused(file, "bench");
  std::vector<double> micros;
  micros.reserve(static_cast<std::size_t>(state.max_iterations));
  SplitMix64 rng(7);
  std::size_t i = 0;
  for (auto _ : state) {
    PolicyAgent fresh(file, "bench");
    PolicyAgent& agent = fresh_agent ? fresh : reused;
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
  state.counters["max_us"] = micros.back();
  state.counters["decisions"] = static_cast<double>(messages.size());
}

// The decisions of 40,000 random ones that are on the river.
std::vector<std::string> river_only(const std::vector<std::string>& messages,
                                    const GameDefinition& game) {
  std::vector<std::string> out;
  for (const std::string& m : messages)
    if (MatchState::parse(m, game).state.round() == 3) out.push_back(m);
  return out;
}

// Arg 0: every decision; 1: river decisions only, each with a fresh agent.
void BM_TimePerAction(benchmark::State& state) {
  static const auto file =
      std::make_shared<const StrategyFile>(StrategyFile::read(strategy_path()));
  if (state.range(0) == 0)
    time_actions(state, file, decision_messages(file->game(), 20000), false);
  else
    time_actions(state, file, river_only(decision_messages(file->game(), 40000), file->game()),
                 true);
}
BENCHMARK(BM_TimePerAction)->Arg(0)->Arg(1)->Iterations(20000);

// A synthetic compact 169-k-k-k file (see the top of the file) and what it is made of.
struct CompactFile {
  std::string path;
  double table_bytes = 0;      // packed preflop, flop and turn arrays
  double river_bytes = 0;      // preflop clusters and centres
  double values_bytes = 0;     // stored probabilities (the last of each set implied)
  double full_file_bytes = 0;  // the same strategy as a full (version 2) file
};

const CompactFile& compact_file(std::int32_t k, bool purified = false, int bits = 8) {
  static std::map<std::tuple<std::int32_t, bool, int>, CompactFile> files;
  static const testing::TempFolder dir;
  if (auto it = files.find({k, purified, bits}); it != files.end()) return it->second;
  CompactFile f;
  f.path = dir / ("compact-" + std::to_string(k) + (purified ? "-pure-" : "-") +
                  std::to_string(bits) + ".strategy");
  std::vector<PackedRoundBuckets> tables;
  for (int r = 0; r < 3; ++r) {
    const std::int32_t buckets = r == 0 ? 169 : k;
    tables.push_back(PackedRoundBuckets::pack(
        static_cast<std::int64_t>(HandIndexer::holdem(r).size()), buckets, [&](std::int64_t i) {
          return r == 0 ? static_cast<std::int32_t>(i)
                        : testing::index_hash_bucket(static_cast<std::uint64_t>(i), buckets);
        }));
    f.table_bytes += static_cast<double>(tables.back().bytes.size());
  }
  OchsRiverModel model;
  model.clusters = 8;
  model.num_buckets = k;
  for (std::size_t h = 0; h < HandIndexer::holdem(0).size(); ++h)
    model.preflop_cluster.push_back(static_cast<std::uint8_t>((h * 7 + 3) % 8));
  {
    const OchsRiverBucketer features_of(
        OchsRiverModel{8, model.preflop_cluster, 1, std::vector<float>(8, 0.5F)});
    SplitMix64 rng(5);
    std::vector<float> x(8);
    const std::vector<Card> all = GameDefinition::holdem_limit_2p().deck();
    for (std::int32_t c = 0; c < k; ++c) {
      std::vector<Card> deck = all;
      for (int i = 0; i < 7; ++i)
        std::swap(deck[i], deck[i + rng.below(static_cast<std::uint32_t>(deck.size() - i))]);
      features_of.features(deck.data(), deck.data() + 2, x.data());
      model.centres.insert(model.centres.end(), x.begin(), x.end());
    }
  }
  f.river_bytes = static_cast<double>(model.preflop_cluster.size() + 4 * model.centres.size());
  const CompactBucketAbstraction abstraction(std::move(tables), std::move(model), {}, 7,
                                             "synthetic compact 169-k-k-k");
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const BettingTree tree(game);
  const testing::HashedPolicy policy(tree, abstraction);
  StrategyFileMetadata meta;
  meta.bits = bits;
  if (purified)
    write_strategy_file(f.path, ThinnedPolicy(policy, StrategyThinning::purify()), meta);
  else
    write_strategy_file(f.path, policy, meta);
  double all_values = 0;
  for (int r = 0; r < 4; ++r)
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
      const int actions = tree.node(tree.decision_node(r, n)).num_actions;
      all_values += static_cast<double>(abstraction.num_buckets(r)) * actions;
    }
  // A full file: every value, and a packed river array instead of the river model.
  const double river_hands = static_cast<double>(HandIndexer::holdem(3).size());
  const double river_array = std::ceil(river_hands * PackedRoundBuckets::width_for(k) / 8.0) + 8;
  // The stored values' bytes in the file: all but the tables, the river model and the rest
  // (a few KiB of text and frequency tables).
  f.values_bytes =
      static_cast<double>(std::filesystem::file_size(f.path)) - f.table_bytes - f.river_bytes;
  f.full_file_bytes = f.table_bytes + all_values + river_array;
  return files.emplace(std::make_tuple(k, purified, bits), f).first->second;
}

// Args: k, 1 for the purified policy, bits per probability.
void BM_CompactLoad(benchmark::State& state) {
  const CompactFile& f = compact_file(static_cast<std::int32_t>(state.range(0)),
                                      state.range(1) != 0, static_cast<int>(state.range(2)));
  for (auto _ : state) {
    const StrategyFile file = StrategyFile::read(f.path);
    benchmark::DoNotOptimize(file.abstraction().hash());
  }
  constexpr double kMiB = 1 << 20;
  state.counters["MiB"] = static_cast<double>(std::filesystem::file_size(f.path)) / kMiB;
  state.counters["tables_MiB"] = f.table_bytes / kMiB;
  state.counters["river_KiB"] = f.river_bytes / 1024;
  state.counters["values_MiB"] = f.values_bytes / kMiB;
  state.counters["full_file_MiB"] = f.full_file_bytes / kMiB;
}
BENCHMARK(BM_CompactLoad)
    ->Args({50, 0, 8})
    ->Args({9000, 0, 8})
    ->Args({9000, 0, 5})
    ->Args({9000, 0, 4})
    ->Args({9000, 1, 8})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

// The values part of the compact file of a real strategy (HULHE_STRATEGY: a full file, best
// 16-bit) at `bits` (the argument) per probability, without the minutes of a river check:
// the file's own flop and turn tables and a stand-in river model of its bucket count (the
// river model and exceptions do not change the values part). Counters: MiB of stored values,
// MiB of the rest of the file (coded flop and turn tables, the stand-in river model),
// bits a stored value (the last of each set implied), and the share of information sets
// stored (those the strategy's own play reaches).
void BM_CompactValuesOfStrategy(benchmark::State& state) {
  const char* path = strategy_path_or_skip(state, "a full HULHE strategy file");
  if (path == nullptr) return;
  static const StrategyFile full = StrategyFile::read(path);
  const auto* packed = dynamic_cast<const PackedBucketAbstraction*>(&full.abstraction());
  if (packed == nullptr) {
    state.SkipWithError("HULHE_STRATEGY is not a full file over a bucket map");
    return;
  }
  const int bits = static_cast<int>(state.range(0));
  std::vector<PackedRoundBuckets> tables(packed->rounds().begin(), packed->rounds().begin() + 3);
  OchsRiverModel model;
  model.clusters = 8;
  model.num_buckets = full.abstraction().num_buckets(3);
  model.preflop_cluster.assign(HandIndexer::holdem(0).size(), 0);
  model.centres.assign(static_cast<std::size_t>(model.num_buckets) * 8, 0.5F);
  const CompactBucketAbstraction compact(std::move(tables), std::move(model), {},
                                         full.abstraction().hash(), full.abstraction().describe());
  const testing::TempFolder dir;
  const std::string out = dir / "values.strategy";
  StrategyFileMetadata meta = full.metadata();
  meta.bits = bits;
  for (auto _ : state) write_compact_strategy_file(out, full, compact, meta);
  // The rest of the file: the same written for the uniform policy, whose values cost nothing
  // (one symbol a context).
  const std::string rest = dir / "rest.strategy";
  write_compact_strategy_file(
      rest, *make_baseline_policy("uniform", full.tree(), full.abstraction()), compact, meta);
  const double values_bytes = static_cast<double>(std::filesystem::file_size(out)) -
                              static_cast<double>(std::filesystem::file_size(rest));
  // Sets reached by the strategy's own play (brute force: no earlier action of the same
  // player in the round has value 0 in the compact file at `bits`).
  const StrategyFile read = StrategyFile::read(out);
  const BettingTree& tree = full.tree();
  double sets = 0, reached = 0, stored_values = 0;
  for (int r = 0; r < 4; ++r)
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
      const std::int32_t at = tree.decision_node(r, n);
      const int actions = tree.node(at).num_actions;
      for (std::int32_t b = 0; b < full.abstraction().num_buckets(r); ++b) {
        bool here = true;
        for (std::int32_t child = at, up = tree.node(at).parent;
             here && up >= 0 && tree.node(up).round == r; child = up, up = tree.node(up).parent) {
          const BettingNode& u = tree.node(up);
          if (u.player != tree.node(at).player) continue;
          int slot = 0;
          while (u.child[slot] != child) ++slot;
          here = read.quantized(r, u.id_in_round, b)[slot] != 0;
        }
        sets += 1;
        reached += here ? 1 : 0;
        stored_values += here ? actions - 1 : 0;
      }
    }
  state.counters["values_MiB"] = values_bytes / (1 << 20);
  state.counters["rest_MiB"] = static_cast<double>(std::filesystem::file_size(rest)) / (1 << 20);
  state.counters["bits_per_stored_value"] = 8.0 * values_bytes / stored_values;
  state.counters["sets_stored"] = reached / sets;
}
BENCHMARK(BM_CompactValuesOfStrategy)
    ->Arg(8)
    ->Arg(7)
    ->Arg(6)
    ->Arg(5)
    ->Arg(4)
    ->Arg(3)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Args: k, and 1 for river decisions only (0: every decision); a fresh agent per decision.
void BM_CompactTimePerAction(benchmark::State& state) {
  const CompactFile& f = compact_file(static_cast<std::int32_t>(state.range(0)));
  const auto file = std::make_shared<const StrategyFile>(StrategyFile::read(f.path));
  const std::vector<std::string> all = decision_messages(file->game(), 40000);
  time_actions(state, file, state.range(1) == 0 ? all : river_only(all, file->game()), true);
}
BENCHMARK(BM_CompactTimePerAction)
    ->Args({50, 0})
    ->Args({50, 1})
    ->Args({9000, 0})
    ->Args({9000, 1})
    ->Iterations(5000);

// Random deals (seeded); one seat samples the full file's actions, the other bets at random,
// calling more than it folds; at every decision of the strategy the bucket, the quantised
// values and the action drawn from the same bits, of both files.
void BM_CompactAgreesWithFull(benchmark::State& state) {
  const char* full_path = std::getenv("HULHE_STRATEGY");
  const char* compact_path = std::getenv("HULHE_COMPACT");
  if (full_path == nullptr || compact_path == nullptr) {
    state.SkipWithError("set HULHE_STRATEGY (full file) and HULHE_COMPACT (compact file)");
    return;
  }
  const StrategyFile full = StrategyFile::read(full_path);
  const StrategyFile compact = StrategyFile::read(compact_path);
  const BettingTree& tree = full.tree();
  const std::vector<Card> all = full.game().deck();
  // One seat plays the full file's strategy (its actions sampled as `hulhe play` samples
  // them), the other bets at random: a compact file leaves out the sets its own play never
  // reaches, so it is compared where the strategy acts.
  std::int64_t decisions = 0, river = 0, bucket_differs = 0, values_differ = 0, actions_differ = 0,
               hands = 0;
  SplitMix64 rng(2024);
  for (auto _ : state) {
    std::vector<Card> deck = all;
    for (int i = 0; i < 9; ++i)
      std::swap(deck[i], deck[i + rng.below(static_cast<std::uint32_t>(deck.size() - i))]);
    const Card* board = deck.data() + 4;
    const int ours = static_cast<int>(hands++ % 2);
    std::int32_t at = tree.root();
    while (tree.node(at).kind == NodeKind::kDecision) {
      const BettingNode& n = tree.node(at);
      const Card* hole = deck.data() + 2 * n.player;
      const std::int32_t b = full.abstraction().bucket(n.round, hole, board);
      const std::int32_t c = compact.abstraction().bucket(n.round, hole, board);
      bucket_differs += b != c ? 1 : 0;
      int slot = 0;
      if (n.player == ours) {
        const auto want = full.quantized(n.round, n.id_in_round, b);
        const auto got = compact.quantized(n.round, n.id_in_round, c);
        values_differ += std::equal(want.begin(), want.end(), got.begin(), got.end()) ? 0 : 1;
        const auto bits = static_cast<std::uint32_t>(rng());
        slot = full.sample_action_from_bits(n.round, n.id_in_round, b, bits);
        actions_differ +=
            compact.sample_action_from_bits(n.round, n.id_in_round, c, bits) != slot ? 1 : 0;
        ++decisions;
        river += n.round == 3 ? 1 : 0;
      } else {
        slot = n.num_actions == 3 && rng.below(4) != 0 ? 1 + static_cast<int>(rng.below(2))
                                                       : static_cast<int>(rng.below(n.num_actions));
      }
      at = n.child[slot];
    }
  }
  state.counters["decisions"] = static_cast<double>(decisions);
  state.counters["river_decisions"] = static_cast<double>(river);
  state.counters["bucket_differs"] = static_cast<double>(bucket_differs);
  state.counters["values_differ"] = static_cast<double>(values_differ);
  state.counters["actions_differ"] = static_cast<double>(actions_differ);
}
BENCHMARK(BM_CompactAgreesWithFull)->Iterations(200000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
