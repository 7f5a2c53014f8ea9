// The JSON API of `hulhe serve` over loopback with httplib's client, the server in this
// process (server/table_server.h): a full hand, every client error (4xx JSON, nothing
// changed), the session bound and expiry, many sessions at once, the store across a restart,
// the explorer against the hand grid, and the opponent's action frequencies against the
// strategy file's probabilities with the downloaded history replayed by the logs code.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <tuple>

#include "abstraction/lossless_abstraction.h"
#include "agents/policy_agent.h"
#include "game/betting_tree.h"
#include "game/dealer_log.h"
#include "game/game_definition.h"
#include "human_play/strategy_grid.h"
#include "server/opponent.h"
#include "server/play_store.h"
#include "server/strategy_grid_json.h"
#include "server/table_server.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/action_frequencies.h"
#include "tests/support/running_table_server.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_policies.h"
#include "util/split_mix64.h"

namespace hulhe::server {
namespace {

using nlohmann::json;

std::string game_file(const std::string& name) {
  return std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name + ".game";
}

// The strategy file DIR/NAME.strategy of testing::HashedPolicy on the lossless abstraction of
// configs/games/GAME.game (the game named NAME); returns its path.
std::string hashed_strategy_file(const testing::TempFolder& dir, const std::string& game,
                                 const std::string& name) {
  GameDefinition g = GameDefinition::from_file(game_file(game));
  g.name = name;
  const BettingTree tree(g);
  const LosslessAbstraction abstraction(g);
  const testing::HashedPolicy policy(tree, abstraction);
  const std::string strategy = dir / (name + ".strategy");
  write_strategy_file(strategy, policy, StrategyFileMetadata{});
  return strategy;
}

using testing::Answer;
using testing::RunningServer;

// Plays the current hand to its end; `choose` picks among the legal letters.
template <typename Choose>
json finish_hand(RunningServer& s, const std::string& id, json state, Choose choose) {
  while (state["in_hand"].get<bool>()) {
    EXPECT_TRUE(state["your_turn"].get<bool>()) << state.dump();
    std::vector<std::string> letters;
    for (const json& a : state["legal"]) letters.push_back(a["letter"]);
    const Answer a = s.post("/api/session/" + id + "/act", {{"action", choose(letters)}});
    EXPECT_EQ(a.status, 200) << a.text;
    if (a.status != 200) break;
    state = a.body;
  }
  return state;
}

std::string always_call(const std::vector<std::string>&) {
  return "c";
}

TEST(ServeApi, AFullHandOfHoldemAgainstABot) {
  testing::TempFolder dir;
  RunningServer s("bot:always-raise", std::nullopt, dir / "play.sqlite");
  const Answer info = s.get("/api/info");
  ASSERT_EQ(info.status, 200) << info.text;
  EXPECT_EQ(info.body["game"], "holdem.limit.2p.reverse_blinds");
  EXPECT_EQ(info.body["explorer"], true);

  const Answer started = s.post("/api/session", {{"player", "alice"}});
  ASSERT_EQ(started.status, 201) << started.text;
  const std::string id = started.body["session"];
  EXPECT_EQ(started.body["state"]["hand"], 0);
  EXPECT_EQ(started.body["state"]["in_hand"], false);

  // Hand 0: the person is in position 0, the big blind; the small blind (always-raise) acts
  // first and raises: 20 against the person's 10.
  const Answer dealt = s.post("/api/session/" + id + "/hand");
  ASSERT_EQ(dealt.status, 200) << dealt.text;
  const json& st = dealt.body;
  EXPECT_EQ(st["hand"], 1);
  EXPECT_EQ(st["position"], 0);
  EXPECT_EQ(st["position_name"], "big blind");
  EXPECT_EQ(st["your_cards"].size(), 2u);
  EXPECT_EQ(st["board"].size(), 0u);
  EXPECT_EQ(st["opponent_cards"].size(), 0u);
  EXPECT_EQ(st["your_chips"], 10);
  EXPECT_EQ(st["opponent_chips"], 20);
  EXPECT_EQ(st["pot"], 30);
  EXPECT_EQ(st["your_turn"], true);
  ASSERT_EQ(st["opponent_actions"].size(), 1u);
  EXPECT_EQ(st["opponent_actions"][0]["name"], "raise");
  EXPECT_EQ(st["legal"], json::parse(R"([{"letter":"f","name":"fold","chips":0,"label":"fold"},
                            {"letter":"c","name":"call","chips":10,"label":"call 10"},
                            {"letter":"r","name":"raise","chips":20,"label":"raise 20"}])"));
  EXPECT_GT(st["odds"]["vs_random"]["equity"].get<double>(), 0.0);
  EXPECT_LT(st["odds"]["vs_random"]["equity"].get<double>(), 1.0);

  // Call down: the opponent bets once a street and the person calls: 20 preflop, then 10 on
  // the flop and 20 on the turn and river: 70 each.
  const json end = finish_hand(s, id, st, always_call);
  EXPECT_EQ(end["in_hand"], false);
  EXPECT_EQ(end["board"].size(), 5u);
  EXPECT_EQ(end["your_chips"], 70);
  EXPECT_EQ(end["opponent_chips"], 70);
  EXPECT_EQ(end["pot"], 140);
  ASSERT_TRUE(end["result"].is_object()) << end.dump();
  EXPECT_EQ(end["result"]["showdown"], true);
  EXPECT_EQ(end["opponent_cards"].size(), 2u);
  const int won = end["result"]["won"];
  EXPECT_TRUE(won == 70 || won == -70 || won == 0) << won;
  EXPECT_EQ(end["totals"]["hands"], 1);
  EXPECT_DOUBLE_EQ(end["totals"]["mbb_per_game"].get<double>(), won * 100.0);

  // Stored before the answer, and the history replays.
  EXPECT_EQ(s.store().hand_count(), 1);
  const Answer history = s.get("/api/session/" + id + "/history");
  ASSERT_EQ(history.status, 200);
  std::istringstream log(history.text);
  const LogReport report = replay_log(log, GameDefinition::holdem_limit_2p());
  EXPECT_EQ(report.hands, 1);
  EXPECT_EQ(report.mismatches, 0);
  EXPECT_EQ(report.bad_lines, 0);
  const Answer totals = s.get("/api/session/" + id + "/totals");
  EXPECT_EQ(totals.body["hands"], 1);
  EXPECT_EQ(totals.body["profile"]["results"][0]["chips"], won);

  // Hand 1: positions swap; the person is the small blind and acts first.
  const Answer next = s.post("/api/session/" + id + "/hand");
  EXPECT_EQ(next.body["position"], 1);
  EXPECT_EQ(next.body["your_turn"], true);
  EXPECT_EQ(next.body["your_chips"], 5);
  EXPECT_EQ(next.body["opponent_chips"], 10);
}

TEST(ServeApi, ClientErrorsGetA4xxJsonAnswerAndChangeNothing) {
  testing::TempFolder dir;
  ServeLimits limits;
  limits.max_body_bytes = 4096;
  RunningServer s("bot:always-call", std::nullopt, dir / "play.sqlite", limits);
  const Answer started = s.post("/api/session", {{"player", "bob"}});
  const std::string id = started.body["session"];
  const std::string base = "/api/session/" + id;

  auto expect_error = [&](const Answer& a, int status, const std::string& words) {
    EXPECT_EQ(a.status, status) << a.text;
    ASSERT_TRUE(a.body.is_object()) << a.text;
    EXPECT_EQ(a.body["status"], status) << a.text;
    EXPECT_NE(a.body["error"].get<std::string>().find(words), std::string::npos) << a.text;
  };
  expect_error(s.post(base + "/act", {{"action", "c"}}), 409, "no hand is in progress");
  ASSERT_EQ(s.post(base + "/hand").status, 200);
  // The person is the big blind; always-call limped: no bet to face, so fold is illegal.
  const json before = s.get(base).body;
  ASSERT_EQ(before["your_turn"], true);
  expect_error(s.post(base + "/act", {{"action", "fold"}}), 400, "not legal");
  expect_error(s.post(base + "/act", {{"action", "shove"}}), 400, "unknown action");
  expect_error(s.post(base + "/act", {{"act", "c"}}), 400, "act needs");
  expect_error(s.post(base + "/act", {{"action", 3}}), 400, "act needs");
  expect_error(s.call("POST", base + "/act", "{\"action\": \"c\""), 400, "not valid JSON");
  expect_error(s.call("POST", base + "/act", "[1, 2]"), 400, "JSON object");
  expect_error(s.call("POST", base + "/act", "\x01\xff garbage"), 400, "not valid JSON");
  expect_error(s.post(base + "/hand"), 409, "a hand is in progress");
  expect_error(s.call("POST", base + "/act", std::string(100000, '{')), 413, "too large");
  expect_error(s.post("/api/session/0123456789abcdef/act", {{"action", "c"}}), 404, "no session");
  expect_error(s.get("/api/session/0123456789abcdef"), 404, "no session");
  expect_error(s.get("/api/nothing"), 404, "no such route");
  expect_error(s.get("/api/explorer?sequence=" + std::string(20000, 'r')), 414, "too long");
  expect_error(s.post("/api/session", {{"player", ""}}), 400, "1 to 40");
  expect_error(s.post("/api/session", {{"player", std::string(41, 'x')}}), 400, "1 to 40");
  expect_error(s.post("/api/session", {{"player", "a\nb"}}), 400, "control");
  expect_error(s.post("/api/session", {{"player", 7}}), 400, "must be a string");
  expect_error(s.get("/api/explorer?sequence=rf"), 400, "no decision position");
  expect_error(s.get("/api/explorer?sequence=cc/&board=AsKh"), 400, "board");
  expect_error(s.get("/api/explorer?sequence=&board=ZZ"), 400, "card");
  // Nothing changed: the same state, no hand stored, one session's player only.
  EXPECT_EQ(s.get(base).body, before);
  EXPECT_EQ(s.store().hand_count(), 0);
  // And the hand goes on.
  const json end = finish_hand(s, id, before, always_call);
  EXPECT_EQ(end["totals"]["hands"], 1);
}

// Expiry on the server's injected clock (seconds, moved by the test in eighths, which add up
// exactly): a session idle for exactly idle_seconds is live, one idle for longer is gone, and
// every use starts its idle time again; no sleeping, so the machine's load cannot change the
// answer.
TEST(ServeApi, SessionsAreBoundedAndExpire) {
  testing::TempFolder dir;
  ServeLimits limits;
  limits.max_sessions = 4;
  limits.idle_seconds = 1.0;
  std::atomic<double> now{1000.0};
  RunningServer s("bot:always-call", std::nullopt, dir / "play.sqlite", limits, 1,
                  [&now] { return now.load(); });
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i) {
    now = 1000.0 + i / 8.0;
    ids.push_back(s.post("/api/session").body["session"]);
  }
  // The two least recently used went first.
  now = 1000.625;
  EXPECT_EQ(s.get("/api/session/" + ids[0]).status, 404);
  EXPECT_EQ(s.get("/api/session/" + ids[1]).status, 404);
  for (int i = 2; i < 6; ++i) EXPECT_EQ(s.get("/api/session/" + ids[i]).status, 200);
  now = 1001.625;  // idle for exactly idle_seconds: still live, and used again now
  EXPECT_EQ(s.get("/api/session/" + ids[5]).status, 200);
  now = 1002.125;  // the others idle for 1.5 s: expired; ids[5] for 0.5 s
  for (int i = 2; i < 5; ++i) {
    const Answer expired = s.get("/api/session/" + ids[i]);
    EXPECT_EQ(expired.status, 404) << i;
    EXPECT_NE(expired.text.find("expired after 1 s idle"), std::string::npos) << expired.text;
  }
  EXPECT_EQ(s.get("/api/session/" + ids[5]).status, 200);
  now = 1003.125;  // ids[5] idle for exactly 1 s again: live; an eighth later it is not
  EXPECT_EQ(s.get("/api/session/" + ids[5]).status, 200);
  now = 1004.25;
  EXPECT_EQ(s.get("/api/session/" + ids[5]).status, 404);
}

TEST(ServeApi, HundredsOfConcurrentSessions) {
  testing::TempFolder dir;
  ServeLimits limits;
  limits.max_sessions = 1000;
  // Leduc: the odds of every state are exact and cheap, so the test measures the server.
  RunningServer s("bot:always-call", GameDefinition::from_file(game_file("leduc")),
                  dir / "play.sqlite", limits);
  constexpr int kThreads = 8, kPerThread = 40;
  std::vector<std::vector<std::string>> ids(kThreads);
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const std::string player = fmt::format("p{}", t);
      for (int i = 0; i < kPerThread; ++i) {
        const Answer a = s.post("/api/session", {{"player", player}});
        if (a.status != 201) {
          ++failures[static_cast<std::size_t>(t)];
          continue;
        }
        const std::string id = a.body["session"];
        ids[static_cast<std::size_t>(t)].push_back(id);
        // One hand each, called down.
        if (s.post("/api/session/" + id + "/hand").status != 200)
          ++failures[static_cast<std::size_t>(t)];
        for (int k = 0; k < 8; ++k) {
          const Answer act = s.post("/api/session/" + id + "/act", {{"action", "c"}});
          if (act.status != 200) break;
          if (!act.body["in_hand"].get<bool>()) break;
        }
      }
    });
  for (std::thread& t : threads) t.join();
  int total = 0;
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failures[static_cast<std::size_t>(t)], 0);
    total += static_cast<int>(ids[static_cast<std::size_t>(t)].size());
  }
  EXPECT_EQ(total, kThreads * kPerThread);
  EXPECT_EQ(s.store().hand_count(), kThreads * kPerThread);
  for (const auto& list : ids)
    for (const std::string& id : list)
      EXPECT_EQ(s.get("/api/session/" + id).body["totals"]["hands"], 1);
}

TEST(ServeApi, AReturningPlayerSeesTheirLifetimeResults) {
  testing::TempFolder dir;
  double chips = 0;
  {
    RunningServer s("bot:always-call", std::nullopt, dir / "play.sqlite");
    const std::string id = s.post("/api/session", {{"player", "carol"}}).body["session"];
    for (int h = 0; h < 6; ++h) {
      const json end = finish_hand(s, id, s.post("/api/session/" + id + "/hand").body, always_call);
      chips += end["result"]["won"].get<double>();
    }
    EXPECT_EQ(s.get("/api/session/" + id + "/totals").body["chips"], chips);
  }
  RunningServer again("bot:always-call", std::nullopt, dir / "play.sqlite");
  const Answer profile = again.get("/api/player/carol");
  ASSERT_EQ(profile.status, 200) << profile.text;
  EXPECT_EQ(profile.body["known"], true);
  ASSERT_EQ(profile.body["results"].size(), 1u);
  EXPECT_EQ(profile.body["results"][0]["hands"], 6);
  EXPECT_EQ(profile.body["results"][0]["chips"], chips);
  const Answer session = again.post("/api/session", {{"player", "carol"}});
  EXPECT_EQ(session.body["profile"]["results"][0]["hands"], 6);
  EXPECT_EQ(again.get("/api/player/dave").body["known"], false);
}

TEST(ServeApi, TheExplorerShowsTheStrategysHandGrid) {
  testing::TempFolder dir;
  const std::string strategy = hashed_strategy_file(dir, "holdem.limit.2p.12card.2rounds", "toy");
  const StrategyFile file = StrategyFile::read(strategy);

  RunningServer s(strategy, std::nullopt, dir / "play.sqlite");
  for (const auto& [sequence, board] : {std::pair<std::string, std::string>{"", ""},
                                        {"r", ""},
                                        {"cc/", "AsKhKd"},
                                        {"rc/r", "QcQdAh"}}) {
    const Answer a =
        s.get("/api/explorer?sequence=" + httplib::detail::encode_query_param(sequence) +
              "&board=" + board);
    ASSERT_EQ(a.status, 200) << sequence << ": " << a.text;
    json expected =
        strategy_grid_json(strategy_grid(file, sequence, parse_cards(board)), "toy.strategy");
    EXPECT_EQ(a.body, expected) << sequence;
    EXPECT_EQ(a.body["cells"].size(), 9u);  // ranks Q K A
  }
  // A bot without a table has nothing to explore; Leduc (one hole card) has no grid.
  RunningServer bot("bot:equity", std::nullopt, dir / "bot.sqlite");
  EXPECT_EQ(bot.get("/api/explorer?sequence=").status, 404);
  EXPECT_EQ(bot.get("/api/info").body["explorer"], false);
}

// The opponent plays exactly the strategy file's probabilities: many Leduc hands through the
// API, the opponent's actions counted per information set from the downloaded history (which
// holds both hands), each count within 4.5 standard deviations of n p (as the play tests do).
TEST(ServeApiSlow, TheOpponentPlaysTheStrategyFilesFrequencies) {
  testing::TempFolder dir;
  const std::string strategy = hashed_strategy_file(dir, "leduc", "leduc");
  auto file = std::make_shared<const StrategyFile>(StrategyFile::read(strategy));

  RunningServer s(strategy, std::nullopt, dir / "play.sqlite", ServeLimits{}, 9);
  const std::string id = s.post("/api/session", {{"player", "counter"}}).body["session"];
  SplitMix64 rng(3);
  constexpr int kHands = 2500;
  for (int h = 0; h < kHands; ++h) {
    const Answer dealt = s.post("/api/session/" + id + "/hand");
    ASSERT_EQ(dealt.status, 200) << dealt.text;
    // Reported probabilities: a distribution that gave the action drawn a positive chance.
    for (const json& a : dealt.body["opponent_actions"]) {
      double sum = 0, drawn = 0;
      for (const json& p : a["probabilities"]) {
        sum += p["p"].get<double>();
        if (p["letter"] == a["letter"]) drawn = p["p"];
      }
      EXPECT_NEAR(sum, 1.0, 1e-9);
      EXPECT_GT(drawn, 0.0);
    }
    finish_hand(s, id, dealt.body, [&](const std::vector<std::string>& letters) {
      return letters[rng.below(static_cast<std::uint32_t>(letters.size()))];
    });
  }
  const Answer history = s.get("/api/session/" + id + "/history");
  std::istringstream log(history.text);
  const LogReport report = replay_log(log, file->game());
  EXPECT_EQ(report.hands, kHands);
  EXPECT_EQ(report.mismatches, 0);
  EXPECT_EQ(report.bad_lines, 0);
  EXPECT_TRUE(report.has_score && report.score_matches);
  EXPECT_EQ(s.store().hand_count(), kHands);

  const PolicyAgent agent(file, "s");
  testing::ActionCounts counts;
  std::istringstream lines(history.text);
  std::string line;
  int hand = 0;
  while (std::getline(lines, line)) {
    if (!line.starts_with("STATE:")) continue;
    const LogStateLine parsed = parse_log_state(line, file->game());
    const int opponent = 1 - hand % 2;  // the person is in position hand % 2
    ++hand;
    GameState state(file->game());
    for (int p = 0; p < 2; ++p) state.set_hole_cards(p, parsed.state.hole_cards(p));
    for (int c = 0; c < file->game().total_board_cards(file->game().num_rounds - 1); ++c)
      state.set_board_card(c, parsed.state.board_cards()[c]);
    for (int r = 0; r < file->game().num_rounds; ++r)
      for (int i = 0; i < parsed.state.num_actions(r); ++i) {
        if (state.current_player() == opponent) {
          const BettingNode& node = file->tree().node(agent.find_node(state));
          const std::int32_t bucket = file->abstraction().bucket(
              node.round, state.hole_cards(opponent), state.board_cards());
          auto& c = counts[{node.round, node.id_in_round, bucket}];
          c.resize(node.num_actions);
          for (int a = 0; a < node.num_actions; ++a)
            c[static_cast<std::size_t>(a)] += node.actions[a] == parsed.state.action(r, i).type;
        }
        state.apply(parsed.state.action(r, i));
      }
  }
  EXPECT_EQ(hand, kHands);
  const int checked = testing::expect_drawn_with_probabilities(*file, counts, 150);
  EXPECT_GE(checked, 6);
}

}  // namespace
}  // namespace hulhe::server
