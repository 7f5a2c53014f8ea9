// The range solver's last round in phases with its terminals in lanes
// (resolving/range_last_round_plan.h, range_terminal_values.h's *_lanes): each lane gives the
// bits of the one-terminal sweeps, on HULHE river boards with and without ties and with
// garbage in the unused lanes, and whole solves give the recursion's bits (values, best
// responses, average strategies) in both precisions, on a reduced deck's turn and a HULHE river.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "game/betting_tree.h"
#include "public_tree/private_hands.h"
#include "resolving/range_last_round_plan.h"
#include "resolving/range_solver.h"
#include "resolving/range_terminal_values.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/solver_test_games.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

CardSet mask_of(const std::vector<Card>& cards) {
  CardSet m;
  for (const Card c : cards) m.insert(c);
  return m;
}

template <typename Real, int W>
void expect_lanes_match_one_terminal_sweeps(const char* board_text, bool all_tie) {
  const GameDefinition game = hulhe_game();
  const PrivateHands all = enumerate_private_hands(game);
  const std::vector<Card> board = parse_cards(board_text);
  const RangeHands hands(all, mask_of({board.begin(), board.end() - 1}));
  const CardSet full = mask_of(board);
  const RangeShowdown order(game, all, hands, full);
  const std::int32_t n = hands.size();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Real> live(n), reach(static_cast<std::size_t>(n) * W);
  for (std::int32_t h = 0; h < n; ++h) live[h] = all.masks[hands.full[h]].intersects(full) ? 0 : 1;
  const int used = W - 3;  // the rest: finite garbage, as a plan's unused lanes may hold
  for (std::int32_t h = 0; h < n; ++h)
    for (int l = 0; l < W; ++l)
      reach[static_cast<std::size_t>(h) * W + l] =
          l < used ? static_cast<Real>(live[h] * u(rng)) : static_cast<Real>(1e3 * u(rng));
  std::vector<double> win(W), lose(W);
  std::vector<Real> payoff(W);
  for (int l = 0; l < W; ++l) {
    win[l] = 10 * (l + 1);
    lose[l] = -5.0 * (l + 2);
    payoff[l] = static_cast<Real>(l % 2 == 0 ? 15 * (l + 1) : -20 * l);
  }
  std::vector<Real> showdown(reach.size(), Real(-1)), fold(reach.size(), Real(-1));
  range_showdown_lanes<Real, W>(hands, order, reach.data(), win.data(), lose.data(),
                                showdown.data());
  range_fold_lanes<Real, W>(hands, live.data(), reach.data(), payoff.data(), fold.data());
  std::vector<Real> lane(n), expect(n);
  int nonzero = 0;
  for (int l = 0; l < used; ++l) {
    for (std::int32_t h = 0; h < n; ++h) lane[h] = reach[static_cast<std::size_t>(h) * W + l];
    range_showdown_values(hands, order, lane.data(), static_cast<Real>(win[l]),
                          static_cast<Real>(lose[l]), expect.data());
    for (std::int32_t h = 0; h < n; ++h) {
      ASSERT_EQ(showdown[static_cast<std::size_t>(h) * W + l], expect[h]) << "lane " << l;
      nonzero += std::abs(expect[h]) > 1e-6;
    }
    range_fold_values(hands, live.data(), lane.data(), payoff[l], expect.data());
    for (std::int32_t h = 0; h < n; ++h)
      ASSERT_EQ(fold[static_cast<std::size_t>(h) * W + l], expect[h]) << "lane " << l;
  }
  // A royal flush on the board ties every showdown: one tie group, values 0 up to rounding
  // (the sweep's running sums against the per-card totals).
  if (all_tie)
    EXPECT_EQ(nonzero, 0);
  else
    EXPECT_GT(nonzero, n / 2);
}

TEST(RangeTerminalLanes, GiveTheOneTerminalSweepsBits) {
  for (const char* board : {"2c7dJs9h3c", "AhKhQhJhTh", "8s8d8hKcKd", "5c6c7c8c2d"}) {
    SCOPED_TRACE(board);
    const bool all_tie = std::string(board) == "AhKhQhJhTh";
    expect_lanes_match_one_terminal_sweeps<float, 12>(board, all_tie);
    expect_lanes_match_one_terminal_sweeps<double, 12>(board, all_tie);
    expect_lanes_match_one_terminal_sweeps<float, 8>(board, all_tie);
    expect_lanes_match_one_terminal_sweeps<double, 16>(board, all_tie);
    expect_lanes_match_one_terminal_sweeps<float, 4>(board, all_tie);
  }
}

// A limit river (HULHE: bet and 3 raises) has 10 decision nodes, 9 showdowns and 8 folds.
TEST(RangeLastRoundPlan, ListsAHulheRiverInPreOrder) {
  const BettingTree tree(hulhe_game());
  const std::int32_t i = checked_to(tree, 3);
  const std::vector<FlatNode> nodes = flatten_betting_tree(tree);
  RangeLastRoundPlan plan;
  ASSERT_TRUE(make_range_last_round_plan(nodes, i, plan));
  EXPECT_EQ(plan.entries.size(), 27u);
  EXPECT_EQ(plan.showdowns, 9);
  EXPECT_EQ(plan.folds, 8);
  EXPECT_EQ(plan.showdown_width, 12);
  EXPECT_EQ(plan.fold_width, 8);
  for (std::size_t e = 1; e < plan.entries.size(); ++e) {
    const RangeLastRoundPlan::Entry& x = plan.entries[e];
    ASSERT_LT(x.parent, static_cast<std::int32_t>(e));
    EXPECT_EQ(nodes[plan.entries[x.parent].node].child[x.action], x.node);
    EXPECT_EQ(plan.children[x.parent][x.action], static_cast<std::int32_t>(e));
  }
  // Both seats' chips: a won showdown pays what the other puts in.
  for (const RangeLastRoundPlan::Entry& x : plan.entries) {
    if (nodes[x.node].kind == NodeKind::kShowdown) {
      EXPECT_EQ(plan.win[0][x.lane], -plan.lose[1][x.lane]);
    }
  }
}

// Everything a solve gives, after `iterations`: both positions' values and best-response
// values, and the average strategy of every hand at the root's first decision.
std::vector<double> solve_results(const BettingTree& tree, std::int32_t root,
                                  const std::vector<Card>& board, RangeSolverOptions o,
                                  int iterations) {
  RangeSolver s(tree, root, board, o);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int p = 0; p < 2; ++p) {
    std::vector<double> range(s.hands().size());
    for (double& x : range) x = u(rng);
    s.set_range(p, range);
  }
  s.iterate(iterations);
  std::vector<double> out;
  for (int p = 0; p < 2; ++p) {
    for (const double x : s.values(p)) out.push_back(x);
    for (const double x : s.best_response_values(p)) out.push_back(x);
  }
  std::vector<double> probabilities(3);
  const std::int32_t actions = tree.node(root).num_actions;
  probabilities.resize(actions);
  for (std::int32_t h = 0; h < s.hands().size(); ++h) {
    s.average_strategy(root, 0, h, probabilities);
    for (const double x : probabilities) out.push_back(x);
  }
  return out;
}

void expect_lanes_give_the_recursions_bits(const BettingTree& tree, int round, const char* board,
                                           int iterations) {
  const std::int32_t root = checked_to(tree, round);
  for (auto precision :
       {RangeSolverOptions::Precision::kDouble, RangeSolverOptions::Precision::kSingle})
    for (auto algorithm :
         {RangeSolverOptions::Algorithm::kDcfr, RangeSolverOptions::Algorithm::kCfrPlus}) {
      RangeSolverOptions o;
      o.precision = precision;
      o.algorithm = algorithm;
      const std::vector<double> lanes =
          solve_results(tree, root, parse_cards(board), o, iterations);
      o.last_round_lanes = false;
      const std::vector<double> recursion =
          solve_results(tree, root, parse_cards(board), o, iterations);
      ASSERT_EQ(lanes.size(), recursion.size());
      for (std::size_t i = 0; i < lanes.size(); ++i) ASSERT_EQ(lanes[i], recursion[i]) << i;
    }
}

TEST(RangeSolver, LastRoundLanesGiveTheRecursionsBitsOnAReducedTurn) {
  const SmallGame g("holdem.limit.2p.12card.4rounds");
  expect_lanes_give_the_recursions_bits(g.tree, 2, "AhKd", 20);
}

TEST(RangeSolver, LastRoundLanesGiveTheRecursionsBitsOnAHulheRiver) {
  const BettingTree tree(hulhe_game());
  expect_lanes_give_the_recursions_bits(tree, 3, "2c7dJs9h3c", 10);
}

}  // namespace
}  // namespace hulhe
