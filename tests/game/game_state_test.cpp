#include "game/game_state.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "util/input_error.h"

namespace hulhe {
namespace {

GameDefinition load(const std::string& name) {
  return GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name +
                                   ".game");
}

void deal(GameState& s, const std::vector<std::string>& holes, const std::string& board) {
  for (std::size_t p = 0; p < holes.size(); ++p)
    s.set_hole_cards(static_cast<int>(p), parse_cards(holes[p]).data());
  const auto b = parse_cards(board);
  for (std::size_t i = 0; i < b.size(); ++i) s.set_board_card(static_cast<int>(i), b[i]);
}

TEST(GameState, HulheStartAndRaiseCap) {
  const GameDefinition g = load("holdem.limit.2p.reverse_blinds");
  GameState s(g);
  EXPECT_EQ(s.current_player(), 1);  // the small blind acts first preflop
  EXPECT_EQ(s.spent(0), 10);
  EXPECT_EQ(s.spent(1), 5);
  EXPECT_TRUE(s.can_fold());
  std::int32_t lo = 0, hi = 0;
  ASSERT_TRUE(s.can_raise(&lo, &hi));
  EXPECT_EQ(lo, 20);
  EXPECT_EQ(hi, 20);
  s.apply_betting("rrr");  // three raises: 20, 30, 40 (the big blind is not a raise)
  EXPECT_EQ(s.max_spent(), 40);
  EXPECT_EQ(s.current_player(), 0);
  EXPECT_FALSE(s.can_raise());
  EXPECT_FALSE(s.is_legal({Action::kRaise, 0}));
  EXPECT_THROW(s.apply({Action::kRaise, 0}), InputError);
  s.apply({Action::kCall, 0});
  EXPECT_EQ(s.round(), 1);
  EXPECT_EQ(s.current_player(), 0);  // the big blind acts first after the flop
  EXPECT_FALSE(s.can_fold());        // nothing to call
  s.apply_betting("rrrr");           // four raises on the flop, 10 each
  EXPECT_EQ(s.max_spent(), 80);
  EXPECT_FALSE(s.can_raise());
  s.apply_betting("c/r");
  EXPECT_EQ(s.round(), 2);
  EXPECT_EQ(s.max_spent(), 100);  // turn bets are 20
  EXPECT_EQ(s.betting_string(), "rrrc/rrrrc/r");
}

TEST(GameState, FoldAndShowdownValues) {
  const GameDefinition g = load("holdem.limit.2p.reverse_blinds");
  GameState fold(g, 4);
  fold.apply_betting("f");  // STATE:4:f:5s4c|Kc7d:5|-5
  EXPECT_TRUE(fold.finished());
  EXPECT_EQ(fold.value(0), 5);
  EXPECT_EQ(fold.value(1), -5);
  EXPECT_FALSE(fold.is_legal({Action::kCall, 0}));

  GameState sd(g);
  sd.apply_betting("rc/crc/rc/rc");  // STATE:0:rc/crc/rc/rc:5d5c|9hQd/8dAs8s/4h/6d:70|-70
  ASSERT_TRUE(sd.finished());
  deal(sd, {"5d5c", "9hQd"}, "8dAs8s4h6d");
  EXPECT_EQ(sd.spent(0), 70);
  EXPECT_EQ(sd.value(0), 70);
  EXPECT_EQ(sd.value(1), -70);

  GameState tie(g);
  tie.apply_betting("cc/cc/cc/cc");
  deal(tie, {"2c3d", "2h3s"}, "TsJsQsKdAh");  // both play the board's straight
  EXPECT_EQ(tie.value(0), 0);
  EXPECT_EQ(tie.value(1), 0);
}

TEST(GameState, LeducAndKuhnRules) {
  const GameDefinition leduc = load("leduc");
  GameState s(leduc);
  EXPECT_EQ(s.current_player(), 0);
  EXPECT_FALSE(s.can_fold());  // antes are equal: nothing to call
  s.apply_betting("rr");
  EXPECT_EQ(s.max_spent(), 5);
  EXPECT_FALSE(s.can_raise());  // two raises a round
  s.apply_betting("c/r");
  EXPECT_EQ(s.round(), 1);
  EXPECT_EQ(s.max_spent(), 9);  // second-round raises are 4
  s.apply_betting("c");
  ASSERT_TRUE(s.finished());
  deal(s, {"Qs", "Ks"}, "Qh");  // a pair of queens beats a king
  EXPECT_EQ(s.value(0), 9);
  EXPECT_EQ(s.value(1), -9);

  const GameDefinition kuhn = load("kuhn");
  GameState k(kuhn);
  k.apply_betting("cr");
  EXPECT_FALSE(k.can_raise());
  k.apply_betting("c");
  deal(k, {"As", "Ks"}, "");
  EXPECT_EQ(k.value(0), 2);
  EXPECT_EQ(k.value(1), -2);
}

TEST(GameState, NoLimitRaiseSizes) {
  const GameDefinition g = load("holdem.nolimit.2p.reverse_blinds");
  GameState s(g);
  std::int32_t lo = 0, hi = 0;
  ASSERT_TRUE(s.can_raise(&lo, &hi));
  EXPECT_EQ(lo, 200);  // call the big blind and raise by at least as much
  EXPECT_EQ(hi, 20000);
  EXPECT_FALSE(s.is_legal({Action::kRaise, 199}));
  EXPECT_FALSE(s.is_legal({Action::kRaise, 20001}));
  s.apply({Action::kRaise, 300});  // a raise of 200
  ASSERT_TRUE(s.can_raise(&lo, &hi));
  EXPECT_EQ(lo, 500);  // the next raise must be at least 200 too
  s.apply_betting("r1000c/");
  EXPECT_EQ(s.round(), 1);
  ASSERT_TRUE(s.can_raise(&lo, &hi));
  EXPECT_EQ(lo, 1100);  // a new round: the big blind above the bet
  s.apply_betting("r20000");
  EXPECT_FALSE(s.can_raise());
  s.apply({Action::kCall, 0});
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(s.round(), 3);  // all in: the rest of the board is dealt
  EXPECT_EQ(s.betting_string(), "r300r1000c/r20000c//");
  EXPECT_THROW(GameState(g).apply_betting("r"), InputError);
  EXPECT_THROW(GameState(g).apply_betting("r150"), InputError);
}

GameDefinition three_player_short_stacks() {
  return GameDefinition::from_string(
      "GAMEDEF\nnolimit\nnumPlayers = 3\nnumRounds = 4\nstack = 100 300 500\n"
      "blind = 10 20 0\nfirstPlayer = 3 1 1 1\nnumSuits = 4\nnumRanks = 13\n"
      "numHoleCards = 2\nnumBoardCards = 0 3 1 1\nEND GAMEDEF\n");
}

TEST(GameState, SidePots) {
  const GameDefinition g = three_player_short_stacks();
  GameState s(g);
  EXPECT_EQ(s.current_player(), 2);
  s.apply_betting("r500");
  std::int32_t lo = 0, hi = 0;
  EXPECT_FALSE(s.can_raise(&lo, &hi));  // 100 cannot cover a bet of 500
  s.apply_betting("cc");                // both call all in
  ASSERT_TRUE(s.finished());
  EXPECT_EQ(s.round(), 3);
  EXPECT_EQ(s.spent(0), 100);
  EXPECT_EQ(s.spent(1), 300);
  EXPECT_EQ(s.spent(2), 500);
  // Aces > kings > queens: position 0 wins the main pot of 300, position 1 the side pot of
  // 400, and position 2 gets its uncalled 200 back.
  deal(s, {"AsAh", "KsKh", "QsQh"}, "2c3d7h8s9c");
  EXPECT_EQ(s.value(0), 200);
  EXPECT_EQ(s.value(1), 100);
  EXPECT_EQ(s.value(2), -300);
  // Aces and kings tie on a board straight flush: every pot is split among its players.
  deal(s, {"AsAh", "KsKh", "QsQh"}, "2c3c4c5c6c");
  EXPECT_EQ(s.value(0), 0);
  EXPECT_EQ(s.value(1), 0);
  EXPECT_EQ(s.value(2), 0);
}

TEST(GameState, ThreeWayTieSplitsOddChips) {
  const GameDefinition g = load("holdem.limit.3p");
  GameState s(g);
  s.apply_betting("ff");
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(s.value(1), 5);  // the big blind takes the small blind
  GameState t(g);
  t.apply_betting("rcf/cc/cc/cc");  // the big blind folds 10 after the button raised to 20
  deal(t, {"2c3d", "2h3s", "4c5d"}, "TsJsQsKdAh");
  EXPECT_EQ(t.value(1), -10);
  EXPECT_EQ(t.value(0), 5);  // the 10 folded chips split between the two tied hands
  EXPECT_EQ(t.value(2), 5);
}

// Random legal play in every shipped game: the game is zero-sum, nobody loses more than
// they put in, and the betting string reads back to the same state.
TEST(GameState, RandomPlayIsZeroSumAndRoundTrips) {
  std::mt19937 rng(7);
  for (const char* name : {"holdem.limit.2p.reverse_blinds", "holdem.nolimit.2p.reverse_blinds",
                           "holdem.limit.3p", "holdem.nolimit.3p", "kuhn", "leduc"}) {
    const GameDefinition g = load(name);
    for (int hand = 0; hand < 300; ++hand) {
      GameState s(g, static_cast<std::uint32_t>(hand));
      while (!s.finished()) {
        std::vector<BetAction> legal;
        if (s.can_fold()) legal.push_back({Action::kFold, 0});
        legal.push_back({Action::kCall, 0});
        std::int32_t lo = 0, hi = 0;
        if (s.can_raise(&lo, &hi)) {
          const bool nl = g.betting_type == BettingType::kNoLimit;
          legal.push_back({Action::kRaise, nl ? lo : 0});
          if (nl)
            legal.push_back({Action::kRaise, std::uniform_int_distribution<int>(lo, hi)(rng)});
        }
        s.apply(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]);
      }
      std::vector<Card> deck = g.deck();
      std::shuffle(deck.begin(), deck.end(), rng);
      std::size_t k = 0;
      for (int p = 0; p < g.num_players; ++p, k += g.num_hole_cards)
        s.set_hole_cards(p, deck.data() + k);
      for (int i = 0; i < g.total_board_cards(g.num_rounds - 1); ++i)
        s.set_board_card(i, deck[k++]);
      double sum = 0;
      for (int p = 0; p < g.num_players; ++p) {
        EXPECT_GE(s.value(p), -s.spent(p));
        sum += s.value(p);
      }
      EXPECT_NEAR(sum, 0.0, 1e-9) << name << " " << s.betting_string();
      GameState again(g);
      again.apply_betting(s.betting_string());
      EXPECT_EQ(again.betting_string(), s.betting_string());
      EXPECT_TRUE(again.finished());
    }
  }
}

TEST(GameState, RejectsBadBetting) {
  const GameDefinition g = load("holdem.limit.2p.reverse_blinds");
  for (const char* bad :
       {"x", "rrrr", "cc/f", "ccc", "f/", "rc//", "r300", "cc/cc/cc/cc/", "rcc"}) {
    EXPECT_THROW(GameState(g).apply_betting(bad), InputError) << bad;
  }
}

}  // namespace
}  // namespace hulhe
