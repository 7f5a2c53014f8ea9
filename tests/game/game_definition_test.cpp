#include "game/game_definition.h"

#include <gtest/gtest.h>

#include <string>

#include "util/input_error.h"

namespace hulhe {
namespace {

std::string game_path(const std::string& name) {
  return std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name + ".game";
}

TEST(GameDefinition, ReadsHulhe) {
  const GameDefinition g = GameDefinition::from_file(game_path("holdem.limit.2p.reverse_blinds"));
  EXPECT_EQ(g.name, "holdem.limit.2p.reverse_blinds");
  EXPECT_EQ(g.betting_type, BettingType::kLimit);
  EXPECT_EQ(g.num_players, 2);
  EXPECT_EQ(g.num_rounds, 4);
  EXPECT_EQ(g.blind[0], 10);
  EXPECT_EQ(g.blind[1], 5);
  EXPECT_EQ(g.big_blind(), 10);
  EXPECT_EQ(g.stack[0], INT32_MAX);
  EXPECT_EQ((std::array<std::int32_t, 4>{10, 10, 20, 20}), g.raise_size);
  // firstPlayer = 2 1 1 1 in the file: position 1 (the button) acts first preflop.
  EXPECT_EQ((std::array<std::uint8_t, 4>{1, 0, 0, 0}), g.first_player);
  EXPECT_EQ((std::array<std::uint8_t, 4>{3, 4, 4, 4}), g.max_raises);
  EXPECT_EQ((std::array<std::uint8_t, 4>{0, 3, 1, 1}), g.num_board_cards);
  EXPECT_EQ(g.total_board_cards(0), 0);
  EXPECT_EQ(g.total_board_cards(1), 3);
  EXPECT_EQ(g.total_board_cards(3), 5);
  EXPECT_EQ(g.deck_size(), 52);
  EXPECT_EQ(g.deck().size(), 52U);
}

TEST(GameDefinition, BuiltInHulheEqualsTheShippedFile) {
  const GameDefinition file =
      GameDefinition::from_file(game_path("holdem.limit.2p.reverse_blinds"));
  const GameDefinition built_in = GameDefinition::holdem_limit_2p();
  EXPECT_EQ(built_in, file);
  EXPECT_EQ(built_in.hash(), file.hash());
  EXPECT_EQ(built_in.name, file.name);
}

TEST(GameDefinition, ReadsEveryShippedGameAndRoundTrips) {
  for (const char* name : {"holdem.limit.2p.reverse_blinds", "holdem.nolimit.2p.reverse_blinds",
                           "holdem.limit.3p", "holdem.nolimit.3p", "kuhn", "leduc"}) {
    const GameDefinition g = GameDefinition::from_file(game_path(name));
    const GameDefinition back = GameDefinition::from_string(g.to_acpc_string());
    EXPECT_EQ(back, g) << name;
    EXPECT_EQ(back.hash(), g.hash()) << name;
    EXPECT_EQ(back.to_acpc_string(), g.to_acpc_string()) << name;
  }
}

TEST(GameDefinition, NoLimitAndThreePlayerGames) {
  const GameDefinition nl =
      GameDefinition::from_file(game_path("holdem.nolimit.2p.reverse_blinds"));
  EXPECT_EQ(nl.betting_type, BettingType::kNoLimit);
  EXPECT_EQ(nl.stack[0], 20000);
  EXPECT_EQ(nl.stack[1], 20000);
  EXPECT_EQ(nl.max_raises[0], 255);
  EXPECT_EQ(nl.big_blind(), 100);
  const GameDefinition l3 = GameDefinition::from_file(game_path("holdem.limit.3p"));
  EXPECT_EQ(l3.num_players, 3);
  EXPECT_EQ(l3.blind[0], 5);
  EXPECT_EQ(l3.blind[1], 10);
  EXPECT_EQ(l3.blind[2], 0);
  EXPECT_EQ(l3.first_player[0], 2);
  const GameDefinition n3 = GameDefinition::from_file(game_path("holdem.nolimit.3p"));
  EXPECT_EQ(n3.stack[2], 20000);
  EXPECT_EQ(n3.blind[1], 100);
}

TEST(GameDefinition, SmallDecksUseAcpcsTopRanksAndLastSuits) {
  const GameDefinition kuhn = GameDefinition::from_file(game_path("kuhn"));
  EXPECT_EQ(cards_to_string(kuhn.deck()), "QsKsAs");
  EXPECT_EQ(kuhn.num_rounds, 1);
  EXPECT_EQ(kuhn.num_hole_cards, 1);
  const GameDefinition leduc = GameDefinition::from_file(game_path("leduc"));
  EXPECT_EQ(cards_to_string(leduc.deck()), "QhQsKhKsAhAs");
  EXPECT_EQ(leduc.deck_set().size(), 6);
  EXPECT_EQ(leduc.raise_size[0], 2);
  EXPECT_EQ(leduc.raise_size[1], 4);
  EXPECT_EQ(leduc.first_player[1], 0);
}

TEST(GameDefinition, KeysAreCaseInsensitiveAndLayoutFree) {
  const GameDefinition a = GameDefinition::from_file(game_path("holdem.limit.2p.reverse_blinds"));
  const GameDefinition b = GameDefinition::from_string(
      "# a comment\n\n  gamedef\r\nLIMIT\nNUMPLAYERS=2\nnumrounds 4\nBlind = 10   5\n"
      "raisesize = 10 10 20 20\nfirstplayer = 2 1 1 1\nMaxRaises = 3 4 4 4\nnumsuits = 4\n"
      "numranks = 13\nnumholecards = 2\nnumboardcards = 0 3 1 1\nend gamedef\n");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());  // the name differs, the rules do not
}

TEST(GameDefinition, HashSeparatesRules) {
  const GameDefinition a = GameDefinition::from_file(game_path("holdem.limit.2p.reverse_blinds"));
  GameDefinition b = a;
  b.max_raises[0] = 4;
  EXPECT_NE(a.hash(), b.hash());
  b = a;
  b.raise_size[3] = 40;
  EXPECT_NE(a.hash(), b.hash());
  b = a;
  b.name = "other";
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_NE(a.hash(), GameDefinition::from_file(game_path("leduc")).hash());
}

// Each malformed text must fail with "<source>:<line>: <problem>".
void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  try {
    GameDefinition::from_string(text, "bad.game");
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("bad.game:" + where + ": ", 0), 0U) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

const char* const kGood[] = {
    "GAMEDEF",      "limit",           "numPlayers = 2",    "numRounds = 2",
    "blind = 1 1",  "raiseSize = 2 4", "firstPlayer = 1 1", "maxRaises = 2 2",
    "numSuits = 2", "numRanks = 3",    "numHoleCards = 1",  "numBoardCards = 0 1",
    "END GAMEDEF"};

// kGood with line `i` (0-based) replaced by `line` (empty: removed).
std::string with_line(int i, const std::string& line) {
  std::string s;
  for (int k = 0; k < 13; ++k) s += (k == i ? line : std::string(kGood[k])) + "\n";
  return s;
}

TEST(GameDefinition, GoodTemplateParses) {
  EXPECT_EQ(GameDefinition::from_string(with_line(-1, "")),
            GameDefinition::from_file(game_path("leduc")));
}

TEST(GameDefinition, RejectsMalformedFilesWithLineNumbers) {
  expect_error(with_line(2, "numPlayers = two"), "3", "whole numbers");
  expect_error(with_line(2, "numPlayers = 11"), "3", "out of range");
  expect_error(with_line(2, "numPlayers = 1"), "3", "out of range");
  expect_error(with_line(2, "numPlayers ="), "3", "needs a value");
  expect_error(with_line(2, "numPlayers = 2 3"), "3", "at most 1");
  expect_error(with_line(3, "numRounds = 5"), "4", "out of range");
  expect_error(with_line(4, "blind = 1"), "5", "only 1 blinds, need 2");
  expect_error(with_line(5, "raiseSize = 2"), "6", "only 1 raise sizes, need 2");
  expect_error(with_line(5, "raiseSize = 2 -4"), "6", "out of range");
  expect_error(with_line(6, "firstPlayer = 1 3"), "7", "firstPlayer 3 of round 2");
  expect_error(with_line(6, "firstPlayer = 0 1"), "7", "out of range");
  expect_error(with_line(7, "maxRaises = 2 256"), "8", "out of range");
  expect_error(with_line(8, "numSuits = 5"), "9", "out of range");
  expect_error(with_line(9, "numRanks = 14"), "10", "out of range");
  expect_error(with_line(10, "numHoleCards = 4"), "11", "out of range");
  expect_error(with_line(11, "numBoardCards = 0"), "12", "only 1 board card numbers");
  expect_error(with_line(11, "numBoardCards = 0 5"), "13", "too many hole and board cards");
  expect_error(with_line(7, "maxRaise = 2 2"), "8", "unknown key 'maxRaise'");
  expect_error(with_line(7, "= 2 2"), "8", "unknown key");
  expect_error(with_line(1, "limit please"), "2", "unexpected text");
  expect_error(with_line(12, ""), "12", "missing END GAMEDEF");
  expect_error(with_line(0, ""), "2", "before GAMEDEF");
  expect_error(with_line(12, "END GAMEDEF\nlimit"), "14", "after END GAMEDEF");
  expect_error(with_line(2, ""), "13", "numPlayers is missing");
  expect_error(with_line(9, ""), "13", "numRanks is missing");
  expect_error(with_line(4, "stack = 1 1\nblind = 1 2"), "6", "exceeds its stack");
  expect_error("", "1", "no GAMEDEF");
}

TEST(GameDefinition, UnreadableFileIsInputError) {
  EXPECT_THROW(GameDefinition::from_file("/nonexistent/x.game"), InputError);
}

}  // namespace
}  // namespace hulhe
