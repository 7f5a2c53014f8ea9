// `hulhe dealer` against two `hulhe play` processes over loopback: a strategy file and a
// baseline bot play a match; the dealer's log replays with zero mismatches, and the
// strategy player's action frequencies (from its --log) match the file's probabilities.
// The bots with parameters (equity, rules) play the same way. Plus the failure modes:
// unreachable dealer, a strategy of another game, silent players.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "abstraction/lossless_abstraction.h"
#include "acpc/line_socket.h"
#include "agents/policy_agent.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/hand_indexer.h"
#include "game/match_state.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "tests/cli/run_hulhe.h"
#include "tests/support/action_frequencies.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_policies.h"

namespace hulhe {
namespace {

namespace fs = std::filesystem;
using cli_test::run_hulhe;

std::string game_file(const std::string& name) {
  return std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name + ".game";
}

class PlayCli : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_ / name; }

  struct Outcome {
    int dealer_status = -1, strategy_status = -1, bot_status = -1;
    std::string dealer_out, strategy_out, bot_out;
    // The dealer and both players exited 0.
    void expect_all_exited_cleanly() const {
      EXPECT_EQ(dealer_status, 0) << dealer_out;
      EXPECT_EQ(strategy_status, 0) << strategy_out;
      EXPECT_EQ(bot_status, 0) << bot_out;
    }
  };
  // Starts the dealer, reads its ports, starts the two players, waits for all three.
  Outcome match(const std::string& game, int hands, const std::string& strategy,
                const std::string& bot, const std::string& log) {
    Outcome o;
    const std::string dealer_cmd = std::string(HULHE_BINARY) + " dealer --game " + game +
                                   " --hands " + std::to_string(hands) +
                                   " --seed 11 --players Strategy Bot --timeout-ms 30000 --log " +
                                   log + " 2>" + path("dealer.err");
    FILE* dealer = popen(dealer_cmd.c_str(), "r");
    char buffer[4096];
    int p1 = 0, p2 = 0;
    if (dealer == nullptr || std::fgets(buffer, sizeof buffer, dealer) == nullptr ||
        std::sscanf(buffer, "%d %d", &p1, &p2) != 2) {
      ADD_FAILURE() << "no ports from the dealer";
      if (dealer != nullptr) pclose(dealer);
      return o;
    }
    auto start = [&](const std::string& args) {
      return popen((std::string(HULHE_BINARY) + " play " + args + " 2>&1").c_str(), "r");
    };
    FILE* a = start(strategy + " --port " + std::to_string(p1) + " --seed 3 --log " +
                    path("strategy.log"));
    FILE* b = start(bot + " --game " + game + " --port " + std::to_string(p2));
    auto drain = [&](FILE* f, std::string& out) {
      std::size_t n = 0;
      while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out.append(buffer, n);
      const int status = pclose(f);
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    o.dealer_status = drain(dealer, o.dealer_out);
    o.strategy_status = drain(a, o.strategy_out);
    o.bot_status = drain(b, o.bot_out);
    std::ifstream err(path("dealer.err"));
    o.dealer_out += std::string(std::istreambuf_iterator<char>(err), {});
    return o;
  }

  // Counts the strategy player's actions per information set from its --log ("> " lines)
  // and checks each against the file: |count - n q/Q| <= 4.5 sqrt(n p (1-p)) + 1 at every
  // information set reached at least `min_visits` times. Returns how many were checked.
  int check_frequencies(const std::string& strategy_path, int min_visits) {
    auto file = std::make_shared<const StrategyFile>(StrategyFile::read(strategy_path));
    const PolicyAgent agent(file, "s");
    testing::ActionCounts counts;
    std::ifstream in(path("strategy.log"));
    std::string line;
    while (std::getline(in, line)) {
      if (!line.starts_with("> MATCHSTATE")) continue;
      const MatchResponse r = MatchResponse::parse(line.substr(2), file->game());
      // The information set: the decision node the betting leads to, the seat's bucket.
      const GameState& state = r.match_state.state;
      const BettingNode& node = file->tree().node(agent.find_node(state));
      const std::int32_t bucket = file->abstraction().bucket(
          node.round, state.hole_cards(r.match_state.viewing_position), state.board_cards());
      auto& c = counts[{node.round, node.id_in_round, bucket}];
      c.resize(node.num_actions);
      for (int a = 0; a < node.num_actions; ++a) c[a] += node.actions[a] == r.action.type;
    }
    return testing::expect_drawn_with_probabilities(*file, counts, min_visits);
  }

  void expect_log_replays(const std::string& game, const std::string& log, int hands) {
    const auto r = run_hulhe("logs --json --game " + game + " " + log, false);
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["hands"], hands);
    EXPECT_EQ(j["mismatches"], 0);
    EXPECT_EQ(j["bad_lines"], 0);
    EXPECT_EQ(j["score_line"], "agrees");
  }

  testing::TempFolder dir_;
};

TEST_F(PlayCli, LeducStrategyAgainstUniform) {
  const std::string game = game_file("leduc");
  GameDefinition g = GameDefinition::from_file(game);
  g.name = "leduc";
  const BettingTree tree(g);
  const LosslessAbstraction abstraction(g);
  const testing::HashedPolicy policy(tree, abstraction);
  const std::string strategy = path("leduc.strategy");
  write_strategy_file(strategy, policy, StrategyFileMetadata{});

  const int hands = 3000;
  const std::string log = path("match.log");
  const Outcome o = match(game, hands, "--strategy " + strategy, "--bot uniform", log);
  o.expect_all_exited_cleanly();
  EXPECT_NE(o.strategy_out.find("play: 3000 hands of leduc"), std::string::npos) << o.strategy_out;
  EXPECT_NE(o.dealer_out.find("SCORE:"), std::string::npos) << o.dealer_out;
  expect_log_replays(game, log, hands);
  EXPECT_GE(check_frequencies(strategy, 150), 6);
}

TEST_F(PlayCli, EquityAndRuleBotsPlayAnAcpcMatch) {
  // Every agent of the factory's grammar plays over the protocol: a rule list (--agent
  // bot:rules:FILE) against the equity bot (--bot equity), Leduc.
  const std::string game = game_file("leduc");
  const std::string rules = std::string(HULHE_SOURCE_DIR) + "/configs/bots/rules-leduc.toml";
  const int hands = 300;
  const std::string log = path("match.log");
  const Outcome o =
      match(game, hands, "--agent bot:rules:" + rules + " --game " + game, "--bot equity", log);
  o.expect_all_exited_cleanly();
  EXPECT_NE(o.strategy_out.find("play: 300 hands of leduc as rules"), std::string::npos)
      << o.strategy_out;
  EXPECT_NE(o.bot_out.find("play: 300 hands of leduc as equity"), std::string::npos) << o.bot_out;
  EXPECT_NE(o.strategy_out.find("; 0 lines ignored"), std::string::npos) << o.strategy_out;
  expect_log_replays(game, log, hands);
  // The same spec through --agent and --bot; --agent excludes the other two.
  const auto both = run_hulhe("play --agent bot:equity --bot equity --port 1");
  EXPECT_NE(both.status, 0) << both.out;
  const auto unknown = run_hulhe("play --agent bot:nope --port 1");
  EXPECT_EQ(unknown.status, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("unknown agent 'bot:nope'"), std::string::npos) << unknown.out;
}

TEST_F(PlayCli, UnreachableDealer) {
  int port = 0;
  {
    LoopbackListener l(0);
    port = l.port();
  }
  const auto r = run_hulhe("play --bot always-call --port " + std::to_string(port));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("cannot connect to 127.0.0.1:" + std::to_string(port)), std::string::npos)
      << r.out;
  const auto none = run_hulhe("play --port 1");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.out.find("--strategy FILE or --bot NAME"), std::string::npos) << none.out;
}

TEST_F(PlayCli, StrategyOfAnotherGame) {
  // A Leduc strategy connected to a HULHE dealer: the player says so and exits 2, the
  // dealer reports the closed seat and exits 2.
  const std::string leduc = path("leduc.strategy");
  ASSERT_EQ(run_hulhe("export --baseline uniform --game " + game_file("leduc") + " --out " + leduc)
                .status,
            0);
  const Outcome o = match(game_file("holdem.limit.2p.reverse_blinds"), 10, "--strategy " + leduc,
                          "--bot always-call", path("m.log"));
  EXPECT_EQ(o.strategy_status, 2) << o.strategy_out;
  EXPECT_NE(o.strategy_out.find("does not fit the game leduc"), std::string::npos)
      << o.strategy_out;
  EXPECT_EQ(o.dealer_status, 2) << o.dealer_out;
  EXPECT_NE(o.dealer_out.find("closed its connection"), std::string::npos) << o.dealer_out;
}

TEST_F(PlayCli, DealerTimesOutPlayersThatDoNotConnect) {
  const auto r = run_hulhe("dealer --game " + game_file("kuhn") + " --hands 5 --timeout-ms 200");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("seat 1 (player1) did not connect"), std::string::npos) << r.out;
  const auto names = run_hulhe("dealer --game " + game_file("kuhn") + " --players a b c");
  EXPECT_EQ(names.status, 2) << names.out;
}

TEST_F(PlayCli, ExportBitsAndBaselines) {
  const std::string s16 = path("u16.strategy");
  const auto r = run_hulhe("export --baseline always-raise --game " + game_file("leduc") +
                           " --bits 16 --out " + s16);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("16-bit"), std::string::npos) << r.out;
  EXPECT_EQ(StrategyFile::read(s16).bits(), 16);
  const std::string s5 = path("u5.strategy");
  const auto five =
      run_hulhe("export --baseline uniform --game " + game_file("leduc") + " --bits 5 --out " + s5);
  ASSERT_EQ(five.status, 0) << five.out;
  EXPECT_NE(five.out.find("5-bit"), std::string::npos) << five.out;
  EXPECT_EQ(StrategyFile::read(s5).quantum_total(), 31U);
  const auto twelve = run_hulhe("export --baseline uniform --bits 12 --out " + path("x.strategy"));
  EXPECT_EQ(twelve.status, 2);
  EXPECT_NE(twelve.out.find("--bits must be 2 to 8 or 16"), std::string::npos) << twelve.out;
  EXPECT_EQ(run_hulhe("export --baseline uniform --bits 1 --out " + path("x.strategy")).status, 2);
  EXPECT_EQ(run_hulhe("export --out " + path("y.strategy")).status, 2);
  // The output may not be an input.
  const auto same = run_hulhe("export --baseline uniform --game " + game_file("leduc") + " --out " +
                              game_file("leduc"));
  EXPECT_EQ(same.status, 2) << same.out;
}

// HULHE: a strategy over an embedded bucket table (canonical index mod k) against
// always-call for 2,000 hands. Slow: packing the 123M river hands and loading them.
TEST_F(PlayCli, SlowHoldemStrategyAgainstAlwaysCall) {
  const GameDefinition g = GameDefinition::holdem_limit_2p();
  const BettingTree tree(g);
  std::vector<PackedRoundBuckets> rounds = testing::modulo_packed_rounds({3, 2, 2, 2});
  const PackedBucketAbstraction abstraction(std::move(rounds), 12345, "test 3-2-2-2");
  const testing::HashedPolicy policy(tree, abstraction);
  const std::string strategy = path("holdem.strategy");
  write_strategy_file(strategy, policy, StrategyFileMetadata{});

  const std::string game = game_file("holdem.limit.2p.reverse_blinds");
  const int hands = 2000;
  const std::string log = path("match.log");
  const Outcome o = match(game, hands, "--strategy " + strategy, "--bot always-call", log);
  o.expect_all_exited_cleanly();
  expect_log_replays(game, log, hands);
  EXPECT_GE(check_frequencies(strategy, 150), 4);
}

}  // namespace
}  // namespace hulhe
