// External-sampling MCCFR on Kuhn and Leduc: exploitability and game value of the average
// strategy against an exact brute-force best response written here, independently of the
// solver's best-response code; determinism and resumability of 1-thread runs.
#include "solver/external_sampling_mccfr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "abstraction/lossless_abstraction.h"
#include "abstraction/policy.h"
#include "best_response/exploitability.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/hand_evaluator.h"
#include "public_tree/strategy_tables.h"
#include "solver/average_policy.h"
#include "tests/support/same_tables.h"

namespace hulhe {
namespace {

GameDefinition load(const std::string& name) {
  return GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name);
}

// Exact best response by brute force over every deal (ordered distinct cards: hole cards of
// position 0, of position 1, then the board), all equally likely. Walks the public tree
// carrying a per-deal weight (chance × the fixed player's reach); at the responder's
// decision nodes the deals are grouped by what the responder sees (its hole cards and the
// board so far: perfect recall in the real game) and each group takes the action with the
// largest weighted value.
class BruteForce {
 public:
  explicit BruteForce(const Policy& policy) : policy_(policy), tree_(policy.tree()) {
    const GameDefinition& game = tree_.game();
    const std::vector<Card> deck = game.deck();
    const int h = game.num_hole_cards;
    const int b = game.total_board_cards(game.num_rounds - 1);
    std::vector<Card> cards;
    std::vector<bool> used(deck.size(), false);
    enumerate(deck, used, cards, 2 * h + b);
    for (Deal& d : deals_) {
      for (int p = 0; p < 2; ++p) {
        CardSet set;
        for (int k = 0; k < h; ++k) set.insert(d.cards[p * h + k]);
        for (int k = 0; k < b; ++k) set.insert(d.cards[2 * h + k]);
        d.rank[p] = rank_cards_acpc(set);
        for (int r = 0; r < game.num_rounds; ++r)
          d.bucket[p][r] = policy.abstraction().bucket(r, &d.cards[p * h], &d.cards[2 * h]);
      }
    }
  }

  // Value to `responder` of best-responding to the policy (responder = -1: both follow it).
  double value(int responder) const {
    std::vector<double> weight(deals_.size(), 1.0 / static_cast<double>(deals_.size()));
    std::vector<double> v = walk(tree_.root(), responder, weight, responder < 0 ? 0 : responder);
    double total = 0.0;
    for (std::size_t i = 0; i < deals_.size(); ++i) total += weight[i] * v[i];
    return total;
  }

 private:
  struct Deal {
    std::array<Card, 2 * kMaxHoleCards + kMaxBoardCards> cards{};
    std::array<std::int32_t, 2> rank{};
    std::array<std::array<std::int32_t, kMaxRounds>, 2> bucket{};
  };

  void enumerate(const std::vector<Card>& deck, std::vector<bool>& used, std::vector<Card>& cards,
                 int needed) {
    if (static_cast<int>(cards.size()) == needed) {
      Deal d;
      std::copy(cards.begin(), cards.end(), d.cards.begin());
      deals_.push_back(d);
      return;
    }
    for (std::size_t i = 0; i < deck.size(); ++i) {
      if (used[i]) continue;
      used[i] = true;
      cards.push_back(deck[i]);
      enumerate(deck, used, cards, needed);
      cards.pop_back();
      used[i] = false;
    }
  }

  // Per-deal value to `me` below node n, given per-deal weights of reaching n.
  std::vector<double> walk(std::int32_t n, int responder, const std::vector<double>& weight,
                           int me) const {
    const BettingNode& node = tree_.node(n);
    std::vector<double> v(deals_.size());
    if (node.kind == NodeKind::kFold) {
      const double u0 = node.player == 0 ? -node.committed[0] : node.committed[1];
      std::fill(v.begin(), v.end(), me == 0 ? u0 : -u0);
      return v;
    }
    if (node.kind == NodeKind::kShowdown) {
      for (std::size_t i = 0; i < deals_.size(); ++i) {
        const auto& r = deals_[i].rank;
        const double u0 = r[0] > r[1] ? node.committed[1] : (r[0] < r[1] ? -node.committed[0] : 0);
        v[i] = me == 0 ? u0 : -u0;
      }
      return v;
    }
    const int actions = node.num_actions;
    if (node.player == responder) {
      std::vector<std::vector<double>> child(actions);
      for (int a = 0; a < actions; ++a) child[a] = walk(node.child[a], responder, weight, me);
      // What the responder sees: its hole cards and the board of this round.
      const GameDefinition& game = tree_.game();
      const int h = game.num_hole_cards;
      std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<std::size_t>> groups;
      for (std::size_t i = 0; i < deals_.size(); ++i) {
        CardSet hole, board;
        for (int k = 0; k < h; ++k) hole.insert(deals_[i].cards[responder * h + k]);
        for (int k = 0; k < game.total_board_cards(node.round); ++k)
          board.insert(deals_[i].cards[2 * h + k]);
        groups[{hole.mask(), board.mask()}].push_back(i);
      }
      for (const auto& [key, members] : groups) {
        int best = 0;
        double best_value = -1e300;
        for (int a = 0; a < actions; ++a) {
          double s = 0.0;
          for (std::size_t i : members) s += weight[i] * child[a][i];
          if (s > best_value) best_value = s, best = a;
        }
        for (std::size_t i : members) v[i] = child[best][i];
      }
      return v;
    }
    std::vector<std::vector<double>> sigma(deals_.size(), std::vector<double>(actions));
    for (std::size_t i = 0; i < deals_.size(); ++i)
      policy_.action_probabilities(node.round, node.id_in_round,
                                   deals_[i].bucket[node.player][node.round], sigma[i]);
    for (int a = 0; a < actions; ++a) {
      std::vector<double> w(weight);
      for (std::size_t i = 0; i < deals_.size(); ++i) w[i] *= sigma[i][a];
      const std::vector<double> c = walk(node.child[a], responder, w, me);
      for (std::size_t i = 0; i < deals_.size(); ++i) v[i] += sigma[i][a] * c[i];
    }
    return v;
  }

  const Policy& policy_;
  const BettingTree& tree_;
  std::vector<Deal> deals_;
};

struct Result {
  double exploitability;  // (BR_0 + BR_1) / 2, chips
  double game_value;      // of position 0
};

Result evaluate(const Policy& policy) {
  BruteForce bf(policy);
  return {(bf.value(0) + bf.value(1)) / 2.0, bf.value(-1)};
}

struct Solver {
  explicit Solver(const std::string& game_file)
      : game(load(game_file)), tree(game), abstraction(game), tables(tree, abstraction) {}
  GameDefinition game;
  BettingTree tree;
  LosslessAbstraction abstraction;
  StrategyTables tables;
};

// External sampling's average on `game_file` (kuhn.game or leduc.game) after `iterations`
// from `seed` on `threads` threads, judged by the brute-force best response: exploitable for
// less than `bound` chips, its value within `value_tolerance` of the game's (docs/DESIGN.md).
void expect_solved(const std::string& game_file, std::uint64_t seed, std::int64_t iterations,
                   int threads, double bound, double value_tolerance) {
  Solver s(game_file);
  ExternalSamplingMccfr(s.tree, s.abstraction, s.tables, seed).run(1, iterations, threads);
  const Result r = evaluate(AveragePolicy(s.tree, s.abstraction, s.tables));
  EXPECT_LT(r.exploitability, bound);
  EXPECT_NEAR(r.game_value, game_file == "kuhn.game" ? -1.0 / 18.0 : -0.085606424078,
              value_tolerance);
}

TEST(ExternalSamplingMccfr, BruteForceBestResponseOfUniformKuhnAndLeduc) {
  // Checks the test's own best response against DESIGN.md: NashConv of uniform play.
  Solver kuhn("kuhn.game");
  StrategyTables empty(kuhn.tree, kuhn.abstraction);  // all-zero sums: uniform averages
  AveragePolicy uniform(kuhn.tree, kuhn.abstraction, empty);
  EXPECT_NEAR(2 * evaluate(uniform).exploitability, 11.0 / 12.0, 1e-12);
  Solver leduc("leduc.game");
  AveragePolicy leduc_uniform(leduc.tree, leduc.abstraction, leduc.tables);
  EXPECT_NEAR(2 * evaluate(leduc_uniform).exploitability, 4.747222222222222, 1e-9);
}

TEST(ExternalSamplingMccfr, BruteForceAgreesWithTheSolversBestResponse) {
  for (const char* file : {"kuhn.game", "leduc.game"}) {
    Solver s(file);
    ExternalSamplingMccfr(s.tree, s.abstraction, s.tables, 3).run(1, 3000, 1);
    const AveragePolicy policy(s.tree, s.abstraction, s.tables);
    const Result brute = evaluate(policy);
    const ExploitabilityReport report = compute_exploitability(policy);
    EXPECT_NEAR(report.exploitability_chips, brute.exploitability, 1e-9) << file;
    EXPECT_NEAR(report.game_value, brute.game_value, 1e-9) << file;
  }
}

TEST(ExternalSamplingMccfr, KuhnConverges) {
  expect_solved("kuhn.game", 42, 200000, 1, 5e-3, 5e-3);
}

TEST(ExternalSamplingMccfr, LeducConverges) {
  expect_solved("leduc.game", 42, 100000, 1, 0.1, 0.05);  // uniform: 2.37
}

TEST(ExternalSamplingMccfr, OneThreadIsDeterministicAndResumable) {
  Solver a("leduc.game"), b("leduc.game"), c("leduc.game");
  ExternalSamplingMccfr(a.tree, a.abstraction, a.tables, 9).run(1, 4000, 1);
  ExternalSamplingMccfr(b.tree, b.abstraction, b.tables, 9).run(1, 4000, 1);
  ExternalSamplingMccfr resumed(c.tree, c.abstraction, c.tables, 9);
  resumed.run(1, 1500, 1);
  resumed.run(1501, 2500, 1);
  testing::expect_same_tables(a.tables, b.tables);
  testing::expect_same_tables(a.tables, c.tables);
  // A different seed gives different tables.
  Solver d("leduc.game");
  ExternalSamplingMccfr(d.tree, d.abstraction, d.tables, 10).run(1, 4000, 1);
  EXPECT_NE(a.tables.regret_values(), d.tables.regret_values());
}

// Two threads are not reproducible (the interleaving decides the order of updates and which
// rare ones are lost), so the bound must hold for every interleaving, not one. 200,000
// iterations under a 5e-3 bound failed once in CI (8.8e-3). Measured with 1,000,000 iterations
// over 60 runs on a 2-core machine with a third busy process beside them: median 1.4e-3, worst
// 5.1e-3; the bound is twice that worst (uniform play is exploitable for 0.458).
TEST(ExternalSamplingMccfr, TwoThreadsConvergeToo) {
  expect_solved("kuhn.game", 5, 1000000, 2, 1e-2, 5e-3);
}

// The targets: Kuhn in 5 s below 1e-3 chips and value within 1e-3; Leduc in 60 s on
// one core below 1e-2 chips. Iteration counts stand in for the seconds (measured rates are
// in docs/benchmarks.md).
TEST(ExternalSamplingMccfrSlow, KuhnReachesTarget) {
  expect_solved("kuhn.game", 1, 4000000, 1, 1e-3, 1e-3);
}

TEST(ExternalSamplingMccfrSlow, LeducReachesTarget) {
  expect_solved("leduc.game", 1, 4000000, 1, 1e-2, 2e-2);  // the value: within NashConv
}

}  // namespace
}  // namespace hulhe
