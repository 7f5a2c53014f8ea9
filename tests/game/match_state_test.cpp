#include "game/match_state.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/shipped_games.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

TEST(MatchState, RoundTripsRealDealerLines) {
  const GameDefinition g = testing::shipped_game("holdem.limit.2p.reverse_blinds");
  for (const char* line : {"MATCHSTATE:1:0::|9hQd", "MATCHSTATE:0:0:rc/crc/rc/:5d5c|/8dAs8s/4h/6d",
                           "MATCHSTATE:1:0:rc/crc/rc/rc:5d5c|9hQd/8dAs8s/4h/6d",
                           "MATCHSTATE:1:12:rc/rc/rc/crrf:|AdQd/9d7h4h/Kd/As"}) {
    const MatchState ms = MatchState::parse(std::string(line) + "\r\n", g);
    EXPECT_EQ(ms.to_string(), line);
  }
}

TEST(MatchState, ReadsFields) {
  const GameDefinition g = testing::shipped_game("holdem.limit.2p.reverse_blinds");
  const MatchState a = MatchState::parse("MATCHSTATE:0:0:rc/crc/rc/:5d5c|/8dAs8s/4h/6d", g);
  EXPECT_EQ(a.viewing_position, 0);
  EXPECT_EQ(a.state.round(), 3);
  EXPECT_FALSE(a.state.finished());
  EXPECT_EQ(a.state.current_player(), 0);
  EXPECT_TRUE(a.state.has_hole_cards(0));
  EXPECT_FALSE(a.state.has_hole_cards(1));
  EXPECT_EQ(card_to_string(a.state.board_cards()[4]), "6d");
  const MatchState b = MatchState::parse("MATCHSTATE:1:12:rc/rc/rc/crrf:|AdQd/9d7h4h/Kd/As", g);
  EXPECT_EQ(b.state.hand_id(), 12U);
  EXPECT_TRUE(b.state.finished());
  EXPECT_TRUE(b.state.folded(1));
  EXPECT_EQ(b.state.value(1), -70);
}

TEST(MatchState, ResponsesAndNoLimit) {
  const GameDefinition g = testing::shipped_game("holdem.limit.2p.reverse_blinds");
  const MatchState ms = MatchState::parse("MATCHSTATE:0:0:rc/crc/rc/:5d5c|/8dAs8s/4h/6d", g);
  EXPECT_EQ(response_string(ms, {Action::kRaise, 0}),
            "MATCHSTATE:0:0:rc/crc/rc/:5d5c|/8dAs8s/4h/6d:r");
  const MatchResponse r = MatchResponse::parse("MATCHSTATE:1:0::|9hQd:c\r\n", g);
  EXPECT_EQ(r.action.type, Action::kCall);
  EXPECT_EQ(r.to_string(), "MATCHSTATE:1:0::|9hQd:c");

  const GameDefinition nl = testing::shipped_game("holdem.nolimit.2p.reverse_blinds");
  const std::string line = "MATCHSTATE:0:3:r300r900c/cr2700:Ah2c|/Kd7s3h";
  const MatchState n = MatchState::parse(line, nl);
  EXPECT_EQ(n.to_string(), line);
  EXPECT_EQ(n.state.max_spent(), 2700);
  const MatchResponse nr = MatchResponse::parse(line + ":r8100", nl);
  EXPECT_EQ(nr.action.size, 8100);
  EXPECT_EQ(nr.to_string(), line + ":r8100");
  EXPECT_EQ(MatchResponse::parse(line + ":f", nl).action.type, Action::kFold);

  const GameDefinition l3 = testing::shipped_game("holdem.limit.3p");
  const std::string three = "MATCHSTATE:2:7:rcc/r:||QcJd/2s3s4s";
  EXPECT_EQ(MatchState::parse(three, l3).to_string(), three);
  const GameDefinition leduc = testing::shipped_game("leduc");
  const std::string lm = "MATCHSTATE:0:5:rc/r:Ks|/Qh";
  EXPECT_EQ(MatchState::parse(lm, leduc).to_string(), lm);
}

TEST(MatchState, RejectsMalformedMessages) {
  const GameDefinition g = testing::shipped_game("holdem.limit.2p.reverse_blinds");
  for (const char* bad : {
           "",                                 // nothing
           "MATCHSTATE:1:0:|9hQd",             // a field missing
           "MATCH:1:0::|9hQd",                 // wrong header
           "MATCHSTATE:2:0::|9hQd",            // no position 2
           "MATCHSTATE:x:0::|9hQd",            // bad position
           "MATCHSTATE:-1:0::Ks|",             // a negative position (the fuzzer's finding)
           "MATCHSTATE:+1:0::|9hQd",           // a sign
           "MATCHSTATE:1:-3::|9hQd",           // bad hand number
           "MATCHSTATE:1:0:x:|9hQd",           // bad action
           "MATCHSTATE:1:0:rrrr:|9hQd",        // over the raise cap
           "MATCHSTATE:1:0:rc:|9hQd/8dAs8s",   // missing '/' after a round
           "MATCHSTATE:1:0::9hQd",             // one player's cards only
           "MATCHSTATE:1:0::|9hQ",             // half a card
           "MATCHSTATE:1:0::|9h9h",            // the same card twice
           "MATCHSTATE:1:0::|9hQx",            // bad suit
           "MATCHSTATE:1:0::5d5c|",            // the viewer's cards missing
           "MATCHSTATE:1:0:rc/:|9hQd/8dAs",    // two flop cards
           "MATCHSTATE:1:0:rc/:|9hQd",         // flop missing
           "MATCHSTATE:1:0::|9hQd/8dAs8s",     // a flop before the flop
           "MATCHSTATE:1:0:rc/:|9hQd/8dAs9h",  // a board card in a hand
       }) {
    EXPECT_THROW(MatchState::parse(bad, g), InputError) << bad;
  }
  EXPECT_THROW(MatchResponse::parse("MATCHSTATE:1:0::|9hQd:x", g), InputError);
  EXPECT_THROW(MatchResponse::parse("MATCHSTATE:1:0::|9hQd:r100", g), InputError);
  EXPECT_THROW(MatchResponse::parse("MATCHSTATE:1:0::|9hQd", g), InputError);
  const GameDefinition nl = testing::shipped_game("holdem.nolimit.2p.reverse_blinds");
  EXPECT_THROW(MatchState::parse("MATCHSTATE:1:0:r:|9hQd", nl), InputError);
  EXPECT_THROW(MatchResponse::parse("MATCHSTATE:1:0::|9hQd:r", nl), InputError);
  EXPECT_THROW(MatchResponse::parse("MATCHSTATE:1:0::|9hQd:r-300", nl), InputError);
  const GameDefinition leduc = testing::shipped_game("leduc");
  EXPECT_THROW(MatchState::parse("MATCHSTATE:0:0::2c|", leduc), InputError);  // not in deck
  try {
    MatchState::parse("MATCHSTATE:1:0:rrrr:|9hQd", g);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("illegal action 'r'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hulhe
