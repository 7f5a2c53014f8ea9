// The dealer and the player over loopback, in-process: ACPC-identical deals (checked against
// a real ACPC dealer log), every shipped game replayed by the log checker with zero
// mismatches, seat rotation, invalid actions played as calls, silent players timed out,
// and a player that survives garbage and a dealer of another game.
#include "acpc/acpc_dealer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acpc/acpc_player.h"
#include "acpc/line_socket.h"
#include "agents/agent_factory.h"
#include "game/dealer_log.h"
#include "game/match_state.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

GameDefinition shipped(const std::string& name) {
  GameDefinition g =
      GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name + ".game");
  g.name = name;
  return g;
}

// Runs the dealer with one thread per seat, each playing the agent `bot:` + `bots[seat]`
// (agents/agent_factory.h) through play_acpc_match; returns the dealer's log and result
// and each seat's summary.
struct Match {
  std::string log;
  DealerResult result;
  std::vector<PlayerSummary> players;
};

Match play_match(const GameDefinition& game, std::int64_t hands, std::uint32_t seed,
                 const std::vector<std::string>& bots) {
  DealerConfig config;
  config.game = game;
  config.game_file = game.name + ".game";
  config.hands = hands;
  config.seed = seed;
  config.timeout_ms = 20000;
  for (std::size_t s = 0; s < bots.size(); ++s) config.names.push_back("seat" + std::to_string(s));
  AcpcDealer dealer(config);
  Match m;
  m.players.resize(bots.size());
  std::vector<std::unique_ptr<Agent>> agents;
  for (const std::string& bot : bots) agents.push_back(make_agent("bot:" + bot, game));
  std::vector<std::thread> threads;
  for (std::size_t s = 0; s < bots.size(); ++s)
    threads.emplace_back([&, s] {
      LineConnection c = LineConnection::connect("127.0.0.1", dealer.ports()[s]);
      m.players[s] = play_acpc_match(c, *agents[s], game, 100 + s, nullptr);
    });
  std::ostringstream log;
  m.result = dealer.run(&log, nullptr);
  for (auto& t : threads) t.join();
  m.log = log.str();
  return m;
}

// The log of `m` replays without a problem, no action was fixed, no line ignored, and each
// player's own tally (from the MATCHSTATEs it saw) is the dealer's.
void expect_clean_match(const Match& m, const GameDefinition& game, int hands) {
  std::istringstream in(m.log);
  const LogReport report = replay_log(in, game);
  EXPECT_EQ(report.hands, hands);
  EXPECT_EQ(report.mismatches, 0);
  EXPECT_EQ(report.bad_lines, 0);
  EXPECT_TRUE(report.has_score);
  EXPECT_TRUE(report.score_matches);
  EXPECT_EQ(m.result.fixed_actions, 0);
  EXPECT_EQ(m.result.ignored_lines, 0);
  double sum = 0;
  for (std::size_t s = 0; s < m.players.size(); ++s) {
    EXPECT_EQ(m.players[s].hands, hands);
    EXPECT_FALSE(m.players[s].ended_mid_hand);
    EXPECT_NEAR(m.players[s].total, m.result.totals[s], 1e-6);
    EXPECT_EQ(m.players[s].ignored_lines, 0);
    sum += m.result.totals[s];
  }
  EXPECT_NEAR(sum, 0.0, 1e-6);  // zero-sum
}

TEST(AcpcDeal, SameCardsAsTheAcpcDealerLog) {
  // The real ACPC dealer's log of 1,000 HULHE hands, seed 0: our deal with MT19937(0) must
  // give every hand's hole cards and the board cards it shows.
  std::ifstream in(std::string(HULHE_TEST_DATA_DIR) + "/acpc-holdem.limit.2p.1000hands.log");
  ASSERT_TRUE(in);
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  std::mt19937 genrand(0);
  std::string line;
  int hands = 0;
  while (std::getline(in, line)) {
    if (!line.starts_with("STATE:")) continue;
    const LogStateLine s = parse_log_state(line, game);
    const AcpcDeal deal = deal_acpc_cards(game, genrand);
    for (int p = 0; p < 2; ++p)
      for (int i = 0; i < 2; ++i) ASSERT_EQ(s.state.hole_cards(p)[i], deal.hole[p][i]) << line;
    for (int i = 0; i < game.total_board_cards(s.state.round()); ++i)
      ASSERT_EQ(s.state.board_cards()[i], deal.board[i]) << line;
    // Seats rotate: position 0 of hand h is seat h mod 2 (Alice is seat 0).
    EXPECT_EQ(s.names[0], s.state.hand_id() % 2 == 0 ? "Alice" : "Bob");
    ++hands;
  }
  EXPECT_EQ(hands, 1000);
}

TEST(AcpcDealer, EveryShippedGameReplaysWithoutMismatch) {
  struct Case {
    std::string game;
    std::vector<std::string> bots;
  };
  const std::vector<Case> cases{
      {"holdem.limit.2p.reverse_blinds", {"uniform", "always-call"}},
      {"holdem.nolimit.2p.reverse_blinds", {"uniform", "uniform"}},
      {"holdem.limit.3p", {"uniform", "always-raise", "uniform"}},
      {"holdem.nolimit.3p", {"uniform", "always-call", "uniform"}},
      {"kuhn", {"uniform", "always-fold"}},
      {"leduc", {"uniform", "always-raise"}},
  };
  // Few hands a game: enough to reach showdowns, side pots and all-ins, and quick under
  // the sanitizers (each message is a thread switch).
  constexpr int kHands = 60;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.game);
    const GameDefinition game = shipped(c.game);
    expect_clean_match(play_match(game, kHands, 7, c.bots), game, kHands);
  }
}

TEST(AcpcDealer, EquityFunctionAndRuleBotsPlayOverTheProtocol) {
  // The bots with parameters play over ACPC like the baselines: every hand replays, every
  // action is valid, the tallies agree.
  const std::string bots = std::string(HULHE_SOURCE_DIR) + "/configs/bots/";
  struct Case {
    std::string game;
    std::vector<std::string> bots;
  };
  const std::vector<Case> cases{
      {"holdem.limit.2p.reverse_blinds", {"equity", "rules:" + bots + "rules-holdem.toml"}},
      {"leduc", {"rules:" + bots + "rules-leduc.toml", "function"}},
      {"holdem.nolimit.3p", {"function:" + bots + "function-prudent.toml", "equity", "uniform"}},
  };
  constexpr int kHands = 30;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.game);
    const GameDefinition game = shipped(c.game);
    expect_clean_match(play_match(game, kHands, 5, c.bots), game, kHands);
  }
}

TEST(AcpcDealer, SameSeedSameMatch) {
  const GameDefinition game = shipped("leduc");
  const Match a = play_match(game, 50, 3, {"uniform", "uniform"});
  const Match b = play_match(game, 50, 3, {"uniform", "uniform"});
  EXPECT_EQ(a.log, b.log);
}

TEST(AcpcDealer, AlwaysFoldLosesItsBlinds) {
  // HULHE, DESIGN ground truth: against always-raise, always-fold loses its small blind (5)
  // or its big blind (10), 750 mbb/g.
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const Match m = play_match(game, 100, 1, {"always-fold", "always-raise"});
  EXPECT_DOUBLE_EQ(m.result.totals[0], -7.5 * 100);
  EXPECT_DOUBLE_EQ(m.players[0].mbb_per_game, -750.0);
}

// A raw client: connects, sends the version, then answers each state where it acts with
// answer(line) (or nothing, to be timed out).
void raw_client(int port, std::function<std::string(const std::string&, const MatchState&)> answer,
                const GameDefinition& game) {
  LineConnection c = LineConnection::connect("127.0.0.1", port);
  c.write_line("VERSION:2.0.0");
  std::string line;
  while (c.read_line(line, 20000) == LineConnection::Read::kLine) {
    const MatchState ms = MatchState::parse(line, game);
    if (ms.state.finished() || ms.state.current_player() != ms.viewing_position) continue;
    const std::string reply = answer(line, ms);
    if (reply.empty()) {
      // Silent: wait for the dealer to give up.
      while (c.read_line(line, 20000) == LineConnection::Read::kLine) {
      }
      return;
    }
    c.write_line(reply);
  }
}

TEST(AcpcDealer, InvalidActionsArePlayedAsCallsAndGarbageIsIgnored) {
  // Seat 0 sends, before each real answer, a comment, garbage and an answer to another
  // state; its real answer is invalid whenever it can be: a fold with no bet to call, a
  // raise at the cap; a call otherwise.
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  DealerConfig config;
  config.game = game;
  config.hands = 60;
  config.seed = 5;
  config.timeout_ms = 20000;
  config.names = {"raw", "bot"};
  AcpcDealer dealer(config);
  int invalid = 0, answers = 0;
  std::thread raw([&] {
    LineConnection c = LineConnection::connect("127.0.0.1", dealer.ports()[0]);
    c.write_line("VERSION:2.0.0");
    std::string line;
    while (c.read_line(line, 20000) == LineConnection::Read::kLine) {
      const MatchState ms = MatchState::parse(line, game);
      if (ms.state.finished() || ms.state.current_player() != ms.viewing_position) continue;
      c.write_line("# a comment");
      c.write_line("garbage, not a state");
      c.write_line("MATCHSTATE:0:99999::AsAh|:c");  // another hand
      ++answers;
      if (!ms.state.can_fold()) {
        ++invalid;
        c.write_line(line + ":f");
      } else if (!ms.state.can_raise()) {
        ++invalid;
        c.write_line(line + ":r");
      } else {
        c.write_line(line + ":c");
      }
    }
  });
  std::thread bot([&] {
    LineConnection c = LineConnection::connect("127.0.0.1", dealer.ports()[1]);
    auto agent = make_agent("bot:uniform", game);
    play_acpc_match(c, *agent, game, 1, nullptr);
  });
  std::ostringstream log;
  const DealerResult r = dealer.run(&log, nullptr);
  raw.join();
  bot.join();
  std::istringstream in(log.str());
  const LogReport report = replay_log(in, game);
  EXPECT_EQ(report.hands, 60);
  EXPECT_EQ(report.mismatches, 0);
  EXPECT_EQ(report.bad_lines, 0);
  EXPECT_GT(invalid, 10);
  EXPECT_EQ(r.fixed_actions, invalid);
  // The comment is skipped silently; the garbage and the stray answer are counted.
  EXPECT_EQ(r.ignored_lines, 2 * answers);
  // The raw seat never folded: its folds were all invalid, hence calls.
  for (const std::string& w : r.warnings) {
    if (w.find("invalid action") != std::string::npos) {
      EXPECT_NE(w.find("played as 'c'"), std::string::npos) << w;
    }
  }
}

TEST(AcpcDealer, SilentPlayerTimesOut) {
  const GameDefinition game = shipped("kuhn");
  DealerConfig config;
  config.game = game;
  config.hands = 10;
  config.timeout_ms = 300;
  AcpcDealer dealer(config);
  std::thread a([&] {
    raw_client(
        dealer.ports()[0], [](const std::string&, const MatchState&) { return ""; }, game);
  });
  std::thread b([&] {
    raw_client(
        dealer.ports()[1], [](const std::string& l, const MatchState&) { return l + ":c"; }, game);
  });
  try {
    dealer.run(nullptr, nullptr);
    ADD_FAILURE() << "no timeout";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sent no action within 300 ms"), std::string::npos)
        << e.what();
  }
  a.join();
  b.join();
}

TEST(AcpcDealer, PlayerThatNeverConnectsTimesOut) {
  DealerConfig config;
  config.game = shipped("kuhn");
  config.timeout_ms = 100;
  AcpcDealer dealer(config);
  EXPECT_THROW(dealer.run(nullptr, nullptr), InputError);
}

TEST(AcpcDealer, BadConfigurations) {
  DealerConfig config;
  config.game = shipped("kuhn");
  config.names = {"a", "b", "c"};
  EXPECT_THROW(AcpcDealer{config}, InputError);
  config.names = {"a", "b:c"};
  EXPECT_THROW(AcpcDealer{config}, InputError);
  config.names = {};
  config.ports = {0};
  EXPECT_THROW(AcpcDealer{config}, InputError);
}

// A fake player that sends `version` as its version line; the dealer's error message.
std::string version_refusal(const std::string& version) {
  DealerConfig config;
  config.game = shipped("kuhn");
  config.hands = 1;
  config.timeout_ms = 5000;
  AcpcDealer dealer(config);
  auto client = [&](int seat, const std::string& first_line) {
    LineConnection c = LineConnection::connect("127.0.0.1", dealer.ports()[seat]);
    c.write_line(first_line);
    std::string line;
    while (c.read_line(line, 5000) == LineConnection::Read::kLine) {
      const MatchState ms = MatchState::parse(line, config.game);
      if (!ms.state.finished() && ms.state.current_player() == ms.viewing_position)
        c.write_line(line + ":c");
    }
  };
  std::thread fake(client, 0, version), good(client, 1, "VERSION:2.0.0");
  std::string message;
  try {
    dealer.run(nullptr, nullptr);
  } catch (const InputError& e) {
    message = e.what();
  }
  fake.join();
  good.join();
  return message;
}

// Issue 20: messages are byte strings. "VER\0SION:2.0.0" was reported as "sent 'VER" (the
// line went through c_str()); now every byte is shown, escaped, up to a bound.
TEST(AcpcDealer, VersionLineIsShownWholeAndEscaped) {
  EXPECT_EQ(version_refusal(std::string("VER\0SION:2.0.0", 14)),
            "seat 1 (player1) sent 'VER\\x00SION:2.0.0', expected the protocol version "
            "VERSION:2.0.0");
  // sscanf on c_str() took this as version 2.0.0; the bytes after the NUL are a broken line.
  EXPECT_NE(
      version_refusal(std::string("VERSION:2.0.0\0junk", 18)).find("'VERSION:2.0.0\\x00junk'"),
      std::string::npos);
  EXPECT_NE(version_refusal("VERSION:1.0.0\x1b[2J").find("'VERSION:1.0.0\\x1b[2J'"),
            std::string::npos);
  const std::string long_refusal = version_refusal(std::string(5000, 'v'));
  EXPECT_NE(long_refusal.find("'" + std::string(200, 'v') + "'... (5000 bytes)"), std::string::npos)
      << long_refusal;
  EXPECT_LT(long_refusal.size(), 400u);
  EXPECT_EQ(version_refusal("VERSION:2.1.7"), "");  // a later minor version is accepted
}

// An answer with a NUL is ignored with a warning that shows all of it.
TEST(AcpcDealer, IgnoredLinesAreShownWholeAndEscaped) {
  const GameDefinition game = shipped("kuhn");
  DealerConfig config;
  config.game = game;
  config.hands = 2;
  config.timeout_ms = 20000;
  AcpcDealer dealer(config);
  auto answer_with_garbage = [&](int seat) {
    LineConnection c = LineConnection::connect("127.0.0.1", dealer.ports()[seat]);
    c.write_line("VERSION:2.0.0");
    std::string line;
    while (c.read_line(line, 20000) == LineConnection::Read::kLine) {
      const MatchState ms = MatchState::parse(line, game);
      if (ms.state.finished() || ms.state.current_player() != ms.viewing_position) continue;
      c.write_line(line + std::string(":\0c", 3));
      c.write_line(line + ":c");
    }
  };
  std::thread a(answer_with_garbage, 0), b(answer_with_garbage, 1);
  const DealerResult r = dealer.run(nullptr, nullptr);
  a.join();
  b.join();
  ASSERT_FALSE(r.warnings.empty());
  for (const std::string& w : r.warnings) {
    EXPECT_EQ(w.find('\0'), std::string::npos) << w;
    EXPECT_NE(w.find("\\x00c'"), std::string::npos) << w;
  }
}

// A fake dealer for the player: sends `lines`, then reads the player's answers for a while.
std::vector<std::string> fake_dealer(const std::vector<std::string>& lines,
                                     const GameDefinition& game, PlayerSummary* summary,
                                     std::string* error) {
  LoopbackListener listener(0);
  std::vector<std::string> received;
  std::thread player([&] {
    LineConnection c = LineConnection::connect("127.0.0.1", listener.port());
    auto agent = make_agent("bot:always-call", game);
    try {
      *summary = play_acpc_match(c, *agent, game, 1, nullptr);
    } catch (const InputError& e) {
      *error = e.what();
    }
  });
  LineConnection c = listener.accept(5000);
  std::string line;
  c.read_line(line, 5000);
  received.push_back(line);
  for (const std::string& l : lines) {
    c.write_line(l);
    if (l.starts_with("MATCHSTATE:1:") && !l.ends_with("/")) {
      // Wait for an answer when the player is to act (position 1 preflop, no action yet).
    }
  }
  // Collect what comes back before closing.
  while (c.read_line(line, 300) == LineConnection::Read::kLine) received.push_back(line);
  c.close();
  player.join();
  return received;
}

TEST(AcpcPlayer, SurvivesGarbageAndReportsAMidHandClose) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  PlayerSummary s;
  std::string error;
  const auto received = fake_dealer({"MATCHSTATE:1:0::|9hQd", "hello", "MATCHSTATE:1:0:zz:|9hQd",
                                     "# comment", std::string(70000, 'x'), "MATCHSTATE:1:0:c:|9hQd",
                                     "MATCHSTATE:0:1::5d5c|", "MATCHSTATE:0:1:r:5d5c|"},
                                    game, &s, &error);
  EXPECT_TRUE(error.empty()) << error;
  ASSERT_GE(received.size(), 3u);
  EXPECT_EQ(received[0], "VERSION:2.0.0");
  EXPECT_EQ(received[1], "MATCHSTATE:1:0::|9hQd:c");   // small blind acts first preflop
  EXPECT_EQ(received[2], "MATCHSTATE:0:1:r:5d5c|:c");  // then hand 1, facing a raise
  EXPECT_EQ(s.actions, 2);
  EXPECT_EQ(s.ignored_lines, 4);  // "hello", bad betting, and the 70,000 x's (two lines)
  EXPECT_TRUE(s.ended_mid_hand);
  EXPECT_EQ(s.last_hand, 1u);
}

TEST(AcpcPlayer, DealerOfAnotherGameIsAnError) {
  PlayerSummary s;
  std::string error;
  fake_dealer({"MATCHSTATE:1:0::|9hQd"}, shipped("leduc"), &s, &error);
  EXPECT_NE(error.find("does not fit the game leduc"), std::string::npos) << error;
}

TEST(AcpcPlayer, UnreachableDealer) {
  int port = 0;
  {
    LoopbackListener l(0);  // a port that was free a moment ago and is closed now
    port = l.port();
  }
  try {
    LineConnection::connect("127.0.0.1", port, 2000);
    ADD_FAILURE() << "connected to a closed port";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot connect to 127.0.0.1:" + std::to_string(port)),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hulhe
