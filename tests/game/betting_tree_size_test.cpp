// betting_tree_size counts the nodes without building the tree; the limit refuses games
// without a raise cap before any allocation.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "game/betting_tree.h"
#include "tests/support/shipped_games.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

TEST(BettingTreeSize, MatchesTheBuiltTreeOnShippedGames) {
  for (const char* name : {"kuhn", "leduc", "holdem.limit.2p.reverse_blinds"}) {
    const GameDefinition g = testing::shipped_game(name);
    EXPECT_EQ(betting_tree_size(g), static_cast<std::int64_t>(BettingTree(g).nodes().size()))
        << name;
  }
  EXPECT_EQ(betting_tree_size(testing::shipped_game("holdem.limit.2p.reverse_blinds")), 16584);
}

TEST(BettingTreeSize, MatchesTheBuiltTreeOnRandomCapsAndBlinds) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    GameDefinition g = testing::shipped_game("holdem.limit.2p.reverse_blinds");
    g.num_rounds = 1 + static_cast<int>(rng() % 4);
    for (int r = 0; r < kMaxRounds; ++r) g.max_raises[r] = static_cast<std::uint8_t>(rng() % 5);
    g.blind[0] = static_cast<std::int32_t>(rng() % 3);
    g.blind[1] = static_cast<std::int32_t>(rng() % 3);
    g.first_player[0] = static_cast<std::uint8_t>(rng() % 2);
    EXPECT_EQ(betting_tree_size(g), static_cast<std::int64_t>(BettingTree(g).nodes().size()))
        << g.to_acpc_string();
  }
}

TEST(BettingTreeSize, LimitGamesWithoutRaiseCapsAreRefusedBeforeAllocating) {
  const std::string base =
      "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 4\nblind = 10 5\nraiseSize = 10 10 20 20\n"
      "firstPlayer = 2 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
      "numBoardCards = 0 3 1 1\n";
  // No maxRaises (ACPC: 255 a round), one value for four rounds, and 255 everywhere.
  for (const char* caps : {"", "maxRaises = 0\n", "maxRaises = 1\n", "maxRaises = 255\n",
                           "maxRaises = 255 255 255 255\n", "maxRaises = 3 100 100 100\n"}) {
    const GameDefinition g = GameDefinition::from_string(base + caps + "END GAMEDEF\n");
    EXPECT_GT(betting_tree_size(g), kMaxBettingTreeNodes) << caps;
    try {
      BettingTree tree(g);
      ADD_FAILURE() << "built a tree for '" << caps << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("maxRaises"), std::string::npos) << e.what();
    }
  }
}

TEST(BettingTreeSize, CommitmentsThatOverflow32BitsAreRefused) {
  GameDefinition g = testing::shipped_game("holdem.limit.2p.reverse_blinds");
  g.raise_size = {1 << 29, 1 << 29, 1 << 29, 1 << 29};
  EXPECT_THROW(BettingTree{g}, InputError);
}

}  // namespace
}  // namespace hulhe
