// The session side of `hulhe serve` (server/play_session.h) through its JSON API, the server
// in this process: a hand the store cannot take is refused with 503 and undone (another
// connection holding the SQLite file's write lock), action names that must fit the betting,
// the state number against repeated requests, the showdown line's categories, the person's
// own actions, and an abandoned hand finished by the engine's rule. Also the engine's
// checkpoint: an undone step replays exactly.
#include "server/play_session.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "agents/agent_factory.h"
#include "game/card.h"
#include "game/dealer_log.h"
#include "game/game_definition.h"
#include "game/hand_evaluator.h"
#include "human_play/human_session.h"
#include "server/opponent.h"
#include "server/play_store.h"
#include "server/table_server.h"
#include "tests/support/running_table_server.h"
#include "tests/support/temp_folder.h"

namespace hulhe::server {
namespace {

using nlohmann::json;

using testing::Answer;
using testing::RunningServer;

// Another process's hold on the store: a second SQLite connection in BEGIN EXCLUSIVE.
class StoreLock {
 public:
  explicit StoreLock(const std::string& path) {
    EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db_, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db_);
  }
  ~StoreLock() {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
  }
  StoreLock(const StoreLock&) = delete;
  StoreLock& operator=(const StoreLock&) = delete;

 private:
  sqlite3* db_ = nullptr;
};

std::string start_session(RunningServer& s) {
  const Answer a = s.post("/api/session", {{"player", "tester"}});
  EXPECT_EQ(a.status, 201) << a.text;
  return a.body["session"];
}

// A server playing `bot` with its store in a temporary folder, and one session started on
// it: what the tests of a store that cannot take a hand lock and post to.
struct StoredSession {
  explicit StoredSession(const std::string& bot)
      : db(dir / "play.sqlite"),
        server(bot, std::nullopt, db),
        base("/api/session/" + start_session(server)) {}
  testing::TempFolder dir;
  const std::string db;
  RunningServer server;
  const std::string base;
};

void expect_error(const Answer& a, int status, const std::string& words) {
  EXPECT_EQ(a.status, status) << a.text;
  ASSERT_TRUE(a.body.is_object()) << a.text;
  EXPECT_NE(a.body["error"].get<std::string>().find(words), std::string::npos) << a.text;
}

std::vector<std::string> names(const json& list) {
  std::vector<std::string> out;
  for (const json& a : list) out.push_back(a["name"]);
  return out;
}

TEST(ServeSession, AHandTheStoreCannotTakeIsRefusedWith503AndTheSessionIsUnchanged) {
  StoredSession session("bot:always-raise");
  RunningServer& s = session.server;
  const std::string& base = session.base;
  // Hand 0: the person is the big blind and faces the small blind's raise; a fold ends it.
  ASSERT_EQ(s.post(base + "/hand").status, 200);
  for (int hand = 0; hand < 2; ++hand) {
    const json before = s.get(base).body;
    ASSERT_EQ(before["your_turn"], true) << before.dump();
    {
      StoreLock lock(session.db);
      const Answer refused =
          s.post(base + "/act", {{"action", "fold"}, {"state_number", before["state_number"]}});
      expect_error(refused, 503, "could not be stored");
      // The session did not count the hand: the same state, the same totals, nothing stored.
      EXPECT_EQ(s.get(base).body, before);
      EXPECT_EQ(s.get(base + "/totals").body["hands"], hand);
    }
    EXPECT_EQ(s.store().hand_count(), hand);
    // The lock gone, the same request goes through and the hand is stored.
    const Answer done =
        s.post(base + "/act", {{"action", "fold"}, {"state_number", before["state_number"]}});
    ASSERT_EQ(done.status, 200) << done.text;
    EXPECT_EQ(done.body["in_hand"], false);
    EXPECT_EQ(done.body["totals"]["hands"], hand + 1);
    EXPECT_EQ(s.store().hand_count(), hand + 1);
    // Hand 1: the person is the small blind and acts first.
    if (hand == 0) {
      ASSERT_EQ(s.post(base + "/hand").status, 200);
    }
  }
  const Answer history = s.get(base + "/history");
  std::istringstream log(history.text);
  const LogReport report = replay_log(log, GameDefinition::holdem_limit_2p());
  EXPECT_EQ(report.hands, 2);
  EXPECT_EQ(report.mismatches, 0);
}

TEST(ServeSession, ANewHandTheStoreCannotTakeIsRefusedWith503) {
  // always-fold folds its small blind: the deal itself completes the hand.
  StoredSession session("bot:always-fold");
  RunningServer& s = session.server;
  const std::string& base = session.base;
  const json before = s.get(base).body;
  {
    StoreLock lock(session.db);
    expect_error(s.post(base + "/hand"), 503, "could not be stored");
    EXPECT_EQ(s.get(base).body, before);
  }
  EXPECT_EQ(s.store().hand_count(), 0);
  const Answer dealt = s.post(base + "/hand");
  ASSERT_EQ(dealt.status, 200) << dealt.text;
  EXPECT_EQ(dealt.body["hand"], 1);
  EXPECT_EQ(dealt.body["in_hand"], false);
  EXPECT_EQ(dealt.body["result"]["text"], "the opponent folds: you win 5");
  EXPECT_EQ(dealt.body["totals"]["hands"], 1);
  EXPECT_EQ(s.store().hand_count(), 1);
}

// The engine's undo: a step taken, undone and taken again plays exactly as the step taken
// once, against a bot with per-hand state (the equity bot computes its equity once a round
// from its generator).
TEST(ServeSession, AnUndoneStepReplaysExactly) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  HumanSession once(game, make_agent("bot:equity", game), 11, "p");
  HumanSession twice(game, make_agent("bot:equity", game), 11, "p");
  std::mt19937 rng(5);
  for (int hand = 0; hand < 30; ++hand) {
    once.start_hand();
    {
      const HumanSession::Checkpoint c = twice.checkpoint();
      twice.start_hand();
      twice.restore(c);
      EXPECT_EQ(twice.view().hand, hand);
      twice.start_hand();
    }
    while (once.hand_running()) {
      ASSERT_TRUE(twice.hand_running());
      const std::vector<BetAction> legal = once.legal_actions();
      // Mostly calls and raises, so that hands reach later rounds.
      BetAction a = legal[rng() % legal.size()];
      if (a.type == Action::kFold && rng() % 4 != 0) a = {Action::kCall, 0};
      once.act(a);
      const HumanSession::Checkpoint c = twice.checkpoint();
      const std::string betting = twice.view().betting;
      twice.act(a);
      twice.restore(c);
      EXPECT_EQ(twice.view().betting, betting);
      EXPECT_EQ(twice.log_lines().size(), static_cast<std::size_t>(hand));
      twice.act(a);
      EXPECT_EQ(twice.view().betting, once.view().betting);
    }
  }
  EXPECT_EQ(twice.log_lines(), once.log_lines());
  EXPECT_EQ(twice.totals().chips, once.totals().chips);
}

TEST(ServeSession, ActionNamesMustFitTheBetting) {
  testing::TempFolder dir;
  {
    RunningServer s("bot:always-call", std::nullopt, dir / "call.sqlite");
    const std::string base = "/api/session/" + start_session(s);
    // Hand 0: the person is the big blind; the small blind limped. Nothing to call, but the
    // blinds are the round's bet: check or raise.
    const json st = s.post(base + "/hand").body;
    EXPECT_EQ(names(st["opponent_actions"]), std::vector<std::string>{"call"});
    EXPECT_EQ(st["legal"], json::parse(R"([{"letter":"c","name":"check","chips":0,"label":"check"},
                               {"letter":"r","name":"raise","chips":10,"label":"raise 10"}])"));
    expect_error(s.post(base + "/act", {{"action", "call"}}), 400, "nothing to call: check");
    expect_error(s.post(base + "/act", {{"action", "bet"}}), 400, "raise");
    expect_error(s.post(base + "/act", {{"action", "fold"}}), 400, "not legal");
    EXPECT_EQ(s.get(base).body, st);
    json after = s.post(base + "/act", {{"action", "raise"}}).body;
    // The small blind called; the flop: the person (big blind) acts first, no bet yet.
    EXPECT_EQ(after["round"], 1);
    EXPECT_EQ(names(after["legal"]), (std::vector<std::string>{"check", "bet"}));
    expect_error(s.post(base + "/act", {{"action", "raise"}}), 400, "no bet to raise: bet");
    expect_error(s.post(base + "/act", {{"action", "call"}}), 400, "nothing to call");
    after = s.post(base + "/act", {{"action", "bet"}}).body;
    EXPECT_EQ(after["round"], 2);
    after = s.post(base + "/act", {{"action", "check"}}).body;
    // The opponent's check on the turn, offered check or bet (no fold: nothing to face).
    const json& last = after["opponent_actions"].back();
    EXPECT_EQ(last["name"], "check");
    EXPECT_EQ(names(last["probabilities"]), (std::vector<std::string>{"check", "bet"}));
    // Every action of the hand, the person's too.
    std::vector<std::string> all;
    for (const json& a : after["actions"])
      all.push_back(a["by"].get<std::string>() + " " + a["name"].get<std::string>());
    EXPECT_EQ(all,
              (std::vector<std::string>{"opponent call", "you raise", "opponent call", "you bet",
                                        "opponent call", "you check", "opponent check"}));
    // The letters stay generic: c is the check here.
    after = s.post(base + "/act", {{"action", "c"}}).body;
    EXPECT_EQ(after["round"], 3);
  }
  {
    RunningServer s("bot:always-raise", std::nullopt, dir / "raise.sqlite");
    const std::string base = "/api/session/" + start_session(s);
    // Hand 0: the person (big blind) faces the small blind's raise.
    const json st = s.post(base + "/hand").body;
    EXPECT_EQ(names(st["legal"]), (std::vector<std::string>{"fold", "call", "raise"}));
    EXPECT_EQ(names(st["opponent_actions"][0]["probabilities"]),
              (std::vector<std::string>{"fold", "call", "raise"}));
    expect_error(s.post(base + "/act", {{"action", "check"}}), 400, "facing a bet: call 10");
    expect_error(s.post(base + "/act", {{"action", "bet"}}), 400, "raise");
    EXPECT_EQ(s.get(base).body, st);
    json after = s.post(base + "/act", {{"action", "call"}}).body;
    // The flop: the person checks, the opponent's first bet of the round is a bet.
    after = s.post(base + "/act", {{"action", "check"}}).body;
    EXPECT_EQ(after["opponent_actions"].back()["name"], "bet");
    after = s.post(base + "/act", {{"action", "raise"}}).body;
    EXPECT_EQ(after["opponent_actions"].back()["name"], "raise");
    // Hand 1: the person, the small blind, limps; the big blind's raise after a limp is a
    // raise (the blinds are the round's bet).
    while (after["in_hand"].get<bool>()) after = s.post(base + "/act", {{"action", "c"}}).body;
    after = s.post(base + "/hand").body;
    EXPECT_EQ(after["position_name"], "small blind");
    after = s.post(base + "/act", {{"action", "call"}}).body;
    std::vector<std::string> all;
    for (const json& a : after["actions"])
      all.push_back(a["by"].get<std::string>() + " " + a["name"].get<std::string>());
    EXPECT_EQ(all, (std::vector<std::string>{"you call", "opponent raise"}));
  }
}

TEST(ServeSession, AStaleStateNumberIsRefusedWith409) {
  testing::TempFolder dir;
  RunningServer s("bot:always-call", std::nullopt, dir / "play.sqlite");
  const std::string base = "/api/session/" + start_session(s);
  const json fresh = s.get(base).body;
  const std::int64_t n = fresh["state_number"];
  // A double click on "deal": the second request carries the same number.
  const Answer dealt = s.post(base + "/hand", {{"state_number", n}});
  ASSERT_EQ(dealt.status, 200) << dealt.text;
  EXPECT_EQ(dealt.body["state_number"], n + 1);
  expect_error(s.post(base + "/hand", {{"state_number", n}}), 409, "sent twice?");
  // A double click on "check": acted once.
  const Answer once = s.post(base + "/act", {{"action", "check"}, {"state_number", n + 1}});
  ASSERT_EQ(once.status, 200) << once.text;
  expect_error(s.post(base + "/act", {{"action", "check"}, {"state_number", n + 1}}), 409,
               "sent twice?");
  EXPECT_EQ(s.get(base).body, once.body);
  EXPECT_EQ(once.body["actions"].size(), 2u);  // the limp and the check
  expect_error(s.post(base + "/act", {{"action", "check"}, {"state_number", "7"}}), 400,
               "non-negative integer");
  expect_error(s.post(base + "/act", {{"action", "check"}, {"state_number", -1}}), 400,
               "non-negative integer");
  expect_error(s.post(base + "/act", {{"action", "check"}, {"state_number", 1.5}}), 400,
               "non-negative integer");
  EXPECT_EQ(s.get(base).body, once.body);
  // Without a number a request is taken as before.
  const Answer plain = s.post(base + "/act", {{"action", "check"}});
  ASSERT_EQ(plain.status, 200) << plain.text;
  EXPECT_EQ(plain.body["state_number"], n + 3);
}

TEST(ServeSession, TheShowdownLineNamesEachHandsCategory) {
  testing::TempFolder dir;
  RunningServer s("bot:always-call", std::nullopt, dir / "play.sqlite");
  const std::string base = "/api/session/" + start_session(s);
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  int differing = 0;
  for (int hand = 0; hand < 24; ++hand) {
    json st = s.post(base + "/hand").body;
    EXPECT_FALSE(st["odds"].is_null());
    while (st["in_hand"].get<bool>()) st = s.post(base + "/act", {{"action", "c"}}).body;
    const json& r = st["result"];
    ASSERT_EQ(r["showdown"], true) << st.dump();
    EXPECT_TRUE(st["odds"].is_null()) << "the odds panel after the hand";
    auto category = [&](const json& hole) {
      CardSet cards;
      std::string text;
      for (const json& c : hole) {
        cards.insert(parse_card(c.get<std::string>()));
        text += c.get<std::string>();
      }
      for (const json& c : st["board"]) cards.insert(parse_card(c.get<std::string>()));
      return std::make_pair(text, std::string(category_name(hand_category(game, cards))));
    };
    const auto [mine, my_category] = category(st["your_cards"]);
    const auto [theirs, their_category] = category(st["opponent_cards"]);
    EXPECT_EQ(r["your_category"], my_category);
    EXPECT_EQ(r["opponent_category"], their_category);
    const std::int64_t won = r["won"];
    const std::string outcome = won > 0   ? "you win " + std::to_string(won)
                                : won < 0 ? "you lose " + std::to_string(-won)
                                          : "a split, net 0";
    EXPECT_EQ(r["text"], "showdown: your " + mine + " (" + my_category + "), its " + theirs + " (" +
                             their_category + "): " + outcome);
    differing += my_category != their_category;
  }
  EXPECT_GT(differing, 0);
}

TEST(ServeSession, LeavingMidHandEndsTheHandByTheRuleAndStoresIt) {
  testing::TempFolder dir;
  RunningServer s("bot:always-raise", std::nullopt, dir / "play.sqlite");
  const std::string base = "/api/session/" + start_session(s);
  const json dealt = s.post(base + "/hand").body;
  ASSERT_EQ(dealt["in_hand"], true);
  expect_error(s.post(base + "/leave", {{"state_number", dealt["state_number"].get<int>() + 1}}),
               409, "sent twice?");
  const Answer left = s.post(base + "/leave", {{"state_number", dealt["state_number"]}});
  ASSERT_EQ(left.status, 200) << left.text;
  EXPECT_EQ(left.body["in_hand"], false);
  EXPECT_EQ(left.body["result"]["text"], "you fold: you lose 10");
  EXPECT_EQ(left.body["actions"].back()["by"], "you");
  EXPECT_EQ(left.body["actions"].back()["name"], "fold");
  EXPECT_EQ(left.body["totals"]["hands"], 1);
  EXPECT_EQ(s.store().hand_count(), 1);
  // Nothing running: leaving again changes no hand.
  const Answer again = s.post(base + "/leave");
  ASSERT_EQ(again.status, 200) << again.text;
  EXPECT_EQ(again.body["totals"]["hands"], 1);
  EXPECT_EQ(s.store().hand_count(), 1);
}

TEST(ServeSession, AnAbandonedHandIsFoldedOrCheckedDownAndHandedToTheStore) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  auto store_nothing = [](StoredHand&) {};
  {
    // Facing the small blind's raise: a fold.
    PlaySession p(load_opponent("bot:always-raise", std::nullopt), "leaver", 3);
    p.new_hand(std::nullopt, store_nothing);
    const std::int64_t n = p.state_number();
    p.abandon_hand();
    EXPECT_EQ(p.state_number(), n + 1);
    const std::vector<StoredHand> hands = p.take_completed_hands();
    ASSERT_EQ(hands.size(), 1u);
    EXPECT_EQ(hands[0].result_chips, -10);
    EXPECT_EQ(hands[0].hand_number, 0);
    EXPECT_EQ(p.state()["result"]["text"], "you fold: you lose 10");
    EXPECT_EQ(p.state()["totals"]["hands"], 1);
    p.abandon_hand();  // no hand running: nothing
    EXPECT_EQ(p.state_number(), n + 1);
    EXPECT_TRUE(p.take_completed_hands().empty());
  }
  {
    // Stored through store_completed_hands: a store that fails leaves the hand pending.
    PlaySession p(load_opponent("bot:always-raise", std::nullopt), "leaver", 3);
    p.new_hand(std::nullopt, store_nothing);
    p.abandon_hand();
    int calls = 0;
    EXPECT_THROW(p.store_completed_hands([&](StoredHand&) {
      ++calls;
      throw std::runtime_error("disk full");
    }),
                 std::runtime_error);
    EXPECT_GE(calls, 1);
    std::vector<StoredHand> stored;
    p.store_completed_hands([&](StoredHand& h) { stored.push_back(h); });
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_EQ(stored[0].result_chips, -10);
    EXPECT_TRUE(p.take_completed_hands().empty());
  }
  {
    // Nothing to call (always-call limps and checks): checks to the showdown, a legal hand.
    PlaySession p(load_opponent("bot:always-call", std::nullopt), "leaver", 3);
    p.new_hand(std::nullopt, store_nothing);
    p.abandon_hand();
    const std::vector<StoredHand> hands = p.take_completed_hands();
    ASSERT_EQ(hands.size(), 1u);
    EXPECT_EQ(p.state()["result"]["showdown"], true);
    EXPECT_EQ(std::llabs(hands[0].result_chips) % 10, 0);
    std::istringstream log(p.history());
    const LogReport report = replay_log(log, game);
    EXPECT_EQ(report.hands, 1);
    EXPECT_EQ(report.mismatches, 0);
  }
}

}  // namespace
}  // namespace hulhe::server
