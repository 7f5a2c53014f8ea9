// Sampled CFR-BR with the hybrid opponent (hybrid_cfr_br.h): with no trunk its response walk
// is the exact best response; on lossless games its average approaches an equilibrium; on a
// lossy abstraction it is less exploitable in the real game than the abstract equilibrium
// that CFR converges to; its result does not depend on the thread count; a resumed run,
// trunk regrets included, continues bit-for-bit; HULHE configs select it.
#include "solver/hybrid_cfr_br.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "best_response/exploitability.h"
#include "game/hand_indexer.h"
#include "pipeline/solve_config.h"
#include "pipeline/solver_run.h"
#include "public_tree/public_tree_traversal.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm_factory.h"
#include "solver/checkpoint.h"
#include "tests/solver/cfr_convergence_helpers.h"
#include "tests/solver/lossy_leduc_abstraction.h"
#include "tests/support/same_tables.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"
#include "util/split_mix64.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

struct HybridRun {
  StrategyTables tables;
  std::vector<float> state;
  std::vector<double> exploitability;  // after each mark
};

HybridRun run_hybrid(const SmallGame& g, const CardAbstraction& abstraction,
                     const std::vector<std::int64_t>& marks, int threads = 1) {
  HybridRun out{StrategyTables(g.tree, abstraction, default_table_precision("cfr-br")), {}, {}};
  CfrParameters params;
  params.algorithm = "cfr-br";
  HybridCfrBr algo(params, g.tree, abstraction, out.tables);
  std::int64_t done = 0;
  for (const std::int64_t mark : marks) {
    algo.run(done + 1, mark - done, threads);
    done = mark;
    out.exploitability.push_back(
        compute_exploitability(AveragePolicy(g.tree, abstraction, out.tables))
            .exploitability_chips);
  }
  out.state = *algo.extra_state();
  return out;
}

// Leduc has no trunk (its two rounds are the subgame): the response walk over the last round's
// boards is then the exact best response, whatever board was dealt, on any thread count.
TEST(HybridCfrBr, WithoutATrunkTheResponseWalkIsTheExactBestResponse) {
  const SmallGame g("leduc");
  StrategyTables tables(g.tree, g.abstraction, TablePrecision::kFloat64);
  CfrParameters params;
  params.algorithm = "pcs";
  make_cfr_algorithm(params, g.tree, g.abstraction, tables)->run(1, 30, 1);
  std::vector<double> sigma;
  tables.all_current_strategies(sigma);
  PublicTreeTraversal exact(g.tree, g.abstraction, tables);
  PublicTreeTraversal sampled(g.tree, g.abstraction, tables,
                              PublicTreeTraversal::kDefaultMaxBoardHands, BoardMode::kSampleDeck);
  for (int responder = 0; responder < 2; ++responder) {
    const double want = exact.best_response_value(responder, sigma.data());
    for (int threads : {1, 2}) {
      SplitMix64 rng(17 + threads);
      sampled.sample_board(0, rng);
      sampled.prepare_last_round(0);
      std::vector<std::uint8_t> actions(sampled.sampled_action_size(), 0);
      CfrPass pass;
      pass.traverser = responder;
      pass.strategy = sigma.data();
      pass.set_tables(tables);
      pass.average_weight = 0.0;
      pass.sampled = true;
      pass.enumerate_last_round = true;
      pass.subgame_round = 0;
      pass.response_actions = actions.data();
      pass.threads = threads;
      EXPECT_NEAR(sampled.hybrid_response_pass(pass), want, 1e-12)
          << "responder " << responder << ", " << threads << " threads";
    }
  }
}

// Every trunk index a hand of `g`'s deck can have in round `round` (< the subgame round):
// brute force over every hole pair and board of the deck.
std::set<std::int64_t> dealable_trunk_indices(const SmallGame& g, const HybridCfrBr& algo,
                                              int round) {
  const std::vector<Card> deck = g.game.deck();
  const int n = static_cast<int>(deck.size());
  EXPECT_EQ(g.game.total_board_cards(1), 1);  // round 1 of this game deals one board card
  std::set<std::int64_t> out;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const Card hole[2] = {deck[a], deck[b]};
      if (round == 0) {
        out.insert(algo.trunk_index(0, hole, nullptr));
        continue;
      }
      for (int x = 0; x < n; ++x) {
        if (x == a || x == b) continue;
        const Card board[1] = {deck[x]};
        out.insert(algo.trunk_index(1, hole, board));
      }
    }
  return out;
}

// The 4-round 12-card game has a trunk of two rounds (preflop and flop, lossless). Measured
// (one thread, exact exploitability of the average, chips): 30 iterations 10.68, 300
// iterations 7.84; public chance sampling after 300: 11.34. The game's exploitability after
// T iterations has no independent value (its equilibrium is not known; CFR-BR's regret bound,
// which falls as 1/sqrt(T), is thousands of chips at this size), so the run must improve on
// itself from 30 to 300 iterations and beat public chance sampling at equal iterations.
TEST(HybridCfrBr, LosslessReducedHoldemApproachesAnEquilibrium) {
  const SmallGame g("holdem.limit.2p.12card.4rounds");
  const HybridRun r = run_hybrid(g, g.abstraction, {30, 300});
  const std::vector<double> pcs = exploitability_at(g, "pcs", {300});
  std::printf("12card.4rounds: hybrid %.4f -> %.4f, pcs %.4f chips\n", r.exploitability[0],
              r.exploitability[1], pcs[0]);
  EXPECT_LT(r.exploitability[1], r.exploitability[0]);
  EXPECT_LT(r.exploitability[1], pcs[0]);

  // The trunk regret minimiser has learnt, exactly where the deck deals: its index is laid out
  // for 13 ranks (169 preflop classes, docs/DESIGN.md; the classes of two hole cards and one
  // board card after it), of which this 3-rank deck deals 9 preflop and those found by brute
  // force over its cards after. Every index the deck never deals keeps zero regrets (a uniform
  // strategy) at every trunk node; every class it deals preflop has learnt at each seat's
  // first decision (reached by every hand).
  StrategyTables tables(g.tree, g.abstraction, TablePrecision::kFloat64);
  CfrParameters params;
  params.algorithm = "cfr-br";
  HybridCfrBr algo(params, g.tree, g.abstraction, tables);
  *algo.extra_state() = r.state;
  const std::set<std::int64_t> dealt[2] = {dealable_trunk_indices(g, algo, 0),
                                           dealable_trunk_indices(g, algo, 1)};
  EXPECT_EQ(dealt[0].size(), 9U);
  const std::int64_t classes[2] = {169, static_cast<std::int64_t>(HandIndexer({2, 1}).size())};
  EXPECT_EQ(HandIndexer({2}).size(), 169U);
  std::int64_t learnt_flop = 0;
  double sigma[3];
  const auto learnt = [&](std::int32_t node, std::int64_t index) {
    algo.trunk_strategy(node, index, sigma);
    const int actions = g.tree.node(node).num_actions;
    for (int a = 0; a < actions; ++a)
      if (sigma[a] != 1.0 / actions) return true;
    return false;
  };
  std::set<int> first_decision_of_seat;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(g.tree.nodes().size()); ++i) {
    const BettingNode& node = g.tree.node(i);
    if (node.kind != NodeKind::kDecision || node.round >= algo.subgame_round()) continue;
    const bool first = node.round == 0 && first_decision_of_seat.insert(node.player).second;
    for (std::int64_t index = 0; index < classes[node.round]; ++index) {
      const bool deals = dealt[node.round].contains(index);
      const bool has_learnt = learnt(i, index);
      ASSERT_FALSE(has_learnt && !deals) << "node " << i << ", index " << index;
      if (first && deals) {
        EXPECT_TRUE(has_learnt) << "node " << i << ", class " << index;
      }
      learnt_flop += node.round == 1 && has_learnt;
    }
  }
  EXPECT_EQ(first_decision_of_seat.size(), 2U);
  EXPECT_GT(learnt_flop, 0);
}

// In the lossy Leduc abstraction CFR converges to an abstract equilibrium that is 0.46 chips
// exploitable after 1,000 iterations and rising (docs/strategy-quality.md); CFR-BR's target is
// the least exploitable abstract strategy (0.113 after 100,000 exact iterations).
TEST(HybridCfrBr, LossyLeducIsLessExploitableThanCfr) {
  const SmallGame g("leduc");
  const LeducPairAbstraction lossy;
  const HybridRun r = run_hybrid(g, lossy, {2000});
  StrategyTables cfr(g.tree, lossy, TablePrecision::kFloat64);
  CfrParameters params;
  params.algorithm = "cfr";
  make_cfr_algorithm(params, g.tree, lossy, cfr)->run(1, 2000, 1);
  const double cfr_e =
      compute_exploitability(AveragePolicy(g.tree, lossy, cfr)).exploitability_chips;
  std::printf("lossy leduc 2000 iterations: hybrid %.4f, cfr %.4f chips\n", r.exploitability[0],
              cfr_e);
  EXPECT_LT(r.exploitability[0], 0.6 * cfr_e);
}

TEST(HybridCfrBr, ThreadCountDoesNotChangeTheResult) {
  const SmallGame g("holdem.limit.2p.12card.4rounds");
  const HybridRun one = run_hybrid(g, g.abstraction, {20}, 1);
  const HybridRun two = run_hybrid(g, g.abstraction, {20}, 2);
  testing::expect_same_tables(one.tables, two.tables);
  EXPECT_EQ(one.state, two.state);
  EXPECT_EQ(one.exploitability, two.exploitability);
}

// 40 iterations straight == 20, a checkpoint file (tables and trunk regrets), 20 more.
TEST(HybridCfrBr, AResumedRunContinuesBitForBit) {
  const SmallGame g("holdem.limit.2p.12card.4rounds");
  CfrParameters params;
  params.algorithm = "cfr-br";
  StrategyTables straight(g.tree, g.abstraction, TablePrecision::kFloat64);
  HybridCfrBr a(params, g.tree, g.abstraction, straight);
  a.run(1, 40, 1);

  const TempFolder dir;
  const std::string path = dir / "half.ckpt";
  {
    Checkpoint c;
    c.game_text = g.game.to_acpc_string();
    c.game_name = g.game.name;
    c.game_hash = g.game.hash();
    c.abstraction_hash = g.abstraction.hash();
    c.params = params;
    c.tables = StrategyTables(g.tree, g.abstraction, TablePrecision::kFloat64);
    HybridCfrBr b(params, g.tree, g.abstraction, c.tables);
    b.run(1, 20, 1);
    c.iterations = 20;
    c.algorithm_state = *b.extra_state();
    write_checkpoint(path, c);
  }
  Checkpoint c = read_checkpoint(path);
  ASSERT_FALSE(c.algorithm_state.empty());
  HybridCfrBr resumed(params, g.tree, g.abstraction, c.tables);
  *resumed.extra_state() = c.algorithm_state;
  resumed.run(21, 20, 1);
  testing::expect_same_tables(straight, c.tables);
  EXPECT_EQ(*a.extra_state(), *resumed.extra_state());
}

// The trunk's information sets are real hands up to suit isomorphism: in HULHE 169 preflop
// and 1,286,792 flop classes per betting node.
TEST(HybridCfrBr, TrunkIndicesAreTheCanonicalHands) {
  const SmallGame g("holdem.limit.2p.12card.4rounds");
  StrategyTables tables(g.tree, g.abstraction, TablePrecision::kFloat64);
  CfrParameters params;
  params.algorithm = "cfr-br";
  const HybridCfrBr algo(params, g.tree, g.abstraction, tables);
  EXPECT_EQ(algo.subgame_round(), 2);
  const auto card = [](const char* text) { return parse_card(text); };
  // Suit permutations of hand and board share an index; a different rank does not.
  const Card hole_a[2] = {card("Kh"), card("Ah")}, board_a[1] = {card("Qs")};
  const Card hole_b[2] = {card("Ks"), card("As")}, board_b[1] = {card("Qd")};
  const Card hole_c[2] = {card("Kh"), card("Ad")}, board_c[1] = {card("Qs")};
  EXPECT_EQ(algo.trunk_index(1, hole_a, board_a), algo.trunk_index(1, hole_b, board_b));
  EXPECT_NE(algo.trunk_index(1, hole_a, board_a), algo.trunk_index(1, hole_c, board_c));
  EXPECT_EQ(algo.trunk_index(0, hole_a, nullptr), algo.trunk_index(0, hole_b, nullptr));
  // A fresh trunk plays uniformly.
  double sigma[3] = {0, 0, 0};
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(g.tree.nodes().size()); ++i) {
    const BettingNode& node = g.tree.node(i);
    if (node.kind != NodeKind::kDecision || node.round != 1) continue;
    algo.trunk_strategy(i, algo.trunk_index(1, hole_a, board_a), sigma);
    for (int a = 0; a < node.num_actions; ++a) EXPECT_DOUBLE_EQ(sigma[a], 1.0 / node.num_actions);
    break;
  }
  const GameDefinition hulhe = GameDefinition::from_file(
      std::string(HULHE_SOURCE_DIR) + "/configs/games/holdem.limit.2p.reverse_blinds.game");
  EXPECT_EQ(hybrid_cfr_br_unavailable_reason(hulhe), "");
  EXPECT_NE(hybrid_cfr_br_unavailable_reason(SmallGame("kuhn").game).find("2 rounds"),
            std::string::npos);
}

}  // namespace
}  // namespace hulhe
