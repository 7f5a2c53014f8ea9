// The hand grid of `hulhe show` (human_play/strategy_grid.h) on a 12-card hold'em (ranks Q K
// A, four suits) with a lossless abstraction: every cell against a brute-force average of the
// policy over the class's combinations, dead combinations on a board, and the renderings.
#include "human_play/strategy_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "abstraction/lossless_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "tests/support/test_policies.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

struct SmallHoldem {
  GameDefinition game = GameDefinition::from_file(
      std::string(HULHE_SOURCE_DIR) + "/configs/games/holdem.limit.2p.12card.2rounds.game");
  BettingTree tree{game};
  LosslessAbstraction abstraction{game};
  testing::HashedTestPolicy policy{tree, abstraction};
};

// The policy's mean over every 2-card hand of the deck whose ranks and suitedness match
// `label`, off the board, computed here from scratch.
std::vector<double> brute_force_mean(const SmallHoldem& g, const StrategyGrid& grid,
                                     const std::string& label, int* combos) {
  const auto rank = [](char c) { return static_cast<int>(std::string("23456789TJQKA").find(c)); };
  const int r1 = rank(label[0]), r2 = rank(label[1]);
  const std::vector<Card> deck = g.game.deck();
  const BettingNode& node = g.tree.node(g.tree.decision_node(grid.round, grid.node));
  std::vector<double> sum(node.num_actions, 0.0), p(node.num_actions);
  *combos = 0;
  for (Card a : deck)
    for (Card b : deck) {
      if (a <= b) continue;
      if (std::find(grid.board.begin(), grid.board.end(), a) != grid.board.end() ||
          std::find(grid.board.begin(), grid.board.end(), b) != grid.board.end())
        continue;
      const int hi = std::max(rank_of(a), rank_of(b)), lo = std::min(rank_of(a), rank_of(b));
      if (hi != r1 || lo != r2) continue;
      const bool suited = suit_of(a) == suit_of(b);
      if (label.size() == 3 && suited != (label[2] == 's')) continue;
      const Card hole[2] = {a, b};
      g.policy.action_probabilities(grid.round, grid.node,
                                    g.abstraction.bucket(grid.round, hole, grid.board.data()), p);
      for (std::size_t k = 0; k < p.size(); ++k) sum[k] += p[k];
      ++*combos;
    }
  for (double& x : sum) x /= *combos;
  return sum;
}

TEST(StrategyGrid, PreflopCellsAreTheMeanOverEachClass) {
  SmallHoldem g;
  const StrategyGrid grid = strategy_grid(g.policy, "", {});
  EXPECT_EQ(grid.round, 0);
  ASSERT_EQ(grid.ranks, (std::vector<int>{12, 11, 10}));  // A K Q
  const std::vector<std::string> labels = {"AA",  "AKs", "AQs", "AKo", "KK",
                                           "KQs", "AQo", "KQo", "QQ"};
  ASSERT_EQ(grid.cells.size(), 9u);
  for (std::size_t i = 0; i < 9; ++i) {
    const StrategyGridCell& cell = grid.cells[i];
    EXPECT_EQ(cell.label, labels[i]);
    int combos = 0;
    const std::vector<double> want = brute_force_mean(g, grid, cell.label, &combos);
    EXPECT_EQ(static_cast<int>(cell.combos.size()), combos) << cell.label;
    // Pairs 6, suited 4, offsuit 12 with four suits.
    EXPECT_EQ(combos, cell.label.size() == 2 ? 6 : cell.label[2] == 's' ? 4 : 12);
    ASSERT_EQ(cell.probabilities.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k)
      EXPECT_NEAR(cell.probabilities[k], want[k], 1e-12) << cell.label;
  }
  // The first decision of this game: the small blind facing the big blind's bet.
  EXPECT_EQ(grid.action_names, (std::vector<std::string>{"fold", "call", "raise"}));
}

TEST(StrategyGrid, FlopBoardRemovesCombosAndBucketsAreTheAbstractions) {
  SmallHoldem g;
  const std::vector<Card> board = parse_cards("AsAhKd");
  const StrategyGrid grid = strategy_grid(g.policy, "cc/", board);
  EXPECT_EQ(grid.round, 1);
  EXPECT_EQ(grid.sequence, "cc/");
  EXPECT_EQ(grid.action_names, (std::vector<std::string>{"check", "bet"}));
  // AA: As and Ah are on the board, so only Ac Ad is left.
  EXPECT_EQ(grid.cell(0, 0).combos.size(), 1u);
  for (const StrategyGridCell& cell : grid.cells) {
    int combos = 0;
    const std::vector<double> want = brute_force_mean(g, grid, cell.label, &combos);
    ASSERT_EQ(static_cast<int>(cell.combos.size()), combos) << cell.label;
    for (std::size_t k = 0; k < want.size(); ++k)
      EXPECT_NEAR(cell.probabilities[k], want[k], 1e-12) << cell.label;
    for (const StrategyGridCombo& c : cell.combos) {
      EXPECT_GT(c.hole[0], c.hole[1]);
      EXPECT_EQ(c.bucket, g.abstraction.bucket(1, c.hole.data(), board.data()));
    }
  }
  // "cc" names the same position as "cc/".
  const StrategyGrid same = strategy_grid(g.policy, "cc", board);
  EXPECT_EQ(same.node, grid.node);
  EXPECT_EQ(same.cells[4].probabilities, grid.cells[4].probabilities);
}

TEST(StrategyGrid, DeadClassesAndRenderings) {
  SmallHoldem g;
  const StrategyGrid grid = strategy_grid(g.policy, "cc/", parse_cards("AsAhAd"));
  EXPECT_TRUE(grid.cell(0, 0).combos.empty());  // AA: one ace left
  EXPECT_TRUE(grid.cell(0, 0).probabilities.empty());
  const std::string text = strategy_grid_text(grid);
  EXPECT_NE(text.find("check (% of each class's hands)\n       A   K   Q\n   A   ."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("bet (% of each class's hands)"), std::string::npos);
  // The K row of the check grid: AKo, then KK, then KQs, each in percent, rounded.
  std::string k_row = "   K";
  for (int col = 0; col < 3; ++col) {
    char cell[8];
    std::snprintf(cell, sizeof cell, "%4.0f", 100.0 * grid.cell(1, col).probabilities[0]);
    k_row += cell;
  }
  EXPECT_NE(text.find(k_row + "\n"), std::string::npos) << text;

  const std::string svg = strategy_grid_svg(grid, "a <title> & more");
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("a &lt;title&gt; &amp; more"), std::string::npos);
  std::size_t cells = 0;
  for (std::size_t at = svg.find("<g class=\"cell\""); at != std::string::npos;
       at = svg.find("<g class=\"cell\"", at + 1))
    ++cells;
  EXPECT_EQ(cells, 9u);
  EXPECT_NE(svg.find("AA: every combination touches the board"), std::string::npos);
  // Every combination's bucket is in its class's tooltip.
  const StrategyGridCombo& kq = grid.cell(1, 2).combos.front();
  EXPECT_NE(svg.find(card_to_string(kq.hole[0]) + card_to_string(kq.hole[1]) + " bucket " +
                     std::to_string(kq.bucket)),
            std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST(StrategyGrid, RefusesBadPositionsBoardsAndGames) {
  SmallHoldem g;
  EXPECT_THROW(strategy_grid(g.policy, "x", {}), InputError);
  EXPECT_THROW(strategy_grid(g.policy, "f", {}), InputError);    // a fold ends the hand
  EXPECT_THROW(strategy_grid(g.policy, "cc/", {}), InputError);  // the flop needs its board
  EXPECT_THROW(strategy_grid(g.policy, "", parse_cards("As")), InputError);
  EXPECT_THROW(strategy_grid(g.policy, "cc/", parse_cards("AsAsKd")), InputError);
  EXPECT_THROW(strategy_grid(g.policy, "cc/", parse_cards("As2cKd")), InputError);  // no 2s
  const GameDefinition leduc =
      GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/leduc.game");
  const BettingTree tree(leduc);
  const LosslessAbstraction abstraction(leduc);
  const testing::UniformTestPolicy uniform(tree, abstraction);
  EXPECT_THROW(strategy_grid(uniform, "", {}), InputError);
}

}  // namespace
}  // namespace hulhe
