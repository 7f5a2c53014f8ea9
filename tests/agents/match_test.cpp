// In-process matches: exact zero for an agent against itself in duplicate mode, the same
// result whatever the thread count, logs that replay with zero mismatches in every shipped
// game, and the equity bot's and a solved strategy's margins over the baselines.
#include "agents/match.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "agents/policy_agent.h"
#include "game/dealer_log.h"
#include "tests/support/shipped_games.h"
#include "tests/support/solved_leduc.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using testing::shipped_game;
using testing::shipped_game_names;

MatchResult run(const std::string& game, const std::string& a, const std::string& b,
                std::int64_t hands, bool duplicate, int threads = 1, std::uint64_t seed = 7,
                std::ostream* log = nullptr) {
  const GameDefinition& g = shipped_game(game);
  MatchConfig c;
  c.hands = hands;
  c.duplicate = duplicate;
  c.threads = threads;
  c.seed = seed;
  c.log = log;
  return play_match(g, load_agent(a, g), load_agent(b, g), c);
}

TEST(Match, DuplicateSelfPlayIsExactlyZero) {
  for (const std::string& game : shipped_game_names())
    for (const std::string bot : {"bot:uniform", "bot:equity", "bot:function"}) {
      const MatchResult r = run(game, bot, bot, 300, true, 2);
      const bool two_players = shipped_game(game).num_players == 2;
      // Heads-up values are whole chips or halves: the sum is exact. Three-way split pots
      // are thirds, exact up to rounding.
      if (two_players)
        EXPECT_EQ(r.total_chips, 0.0) << game << " " << bot;
      else
        EXPECT_NEAR(r.total_chips, 0.0, 1e-6) << game << " " << bot;
      EXPECT_NEAR(r.ci95_chips, 0.0, 1e-9) << game << " " << bot;
      EXPECT_EQ(r.illegal_actions, 0);
    }
}

TEST(Match, ResultDoesNotDependOnThreads) {
  const MatchResult one =
      run("holdem.nolimit.2p.reverse_blinds", "bot:function", "bot:uniform", 5000, false, 1);
  const MatchResult two =
      run("holdem.nolimit.2p.reverse_blinds", "bot:function", "bot:uniform", 5000, false, 2);
  EXPECT_EQ(one.total_chips, two.total_chips);
  EXPECT_EQ(one.ci95_chips, two.ci95_chips);
  const MatchResult other_seed =
      run("holdem.nolimit.2p.reverse_blinds", "bot:function", "bot:uniform", 5000, false, 2, 8);
  EXPECT_NE(one.total_chips, other_seed.total_chips);
}

TEST(Match, HandCountsAndSeats) {
  const MatchResult dup = run("holdem.limit.3p", "bot:always-call", "bot:always-call", 100, true);
  EXPECT_EQ(dup.hands, 102);  // rounded up to whole deals of 3 seatings
  EXPECT_EQ(dup.samples, 34);
  // Always-fold against always-call in HULHE: it loses its blind in every hand, 10 as the
  // big blind (position 0), 5 as the small blind: 7.5 chips a hand = 750 mbb/g.
  const MatchResult fold =
      run("holdem.limit.2p.reverse_blinds", "bot:always-fold", "bot:always-raise", 1000, false);
  EXPECT_DOUBLE_EQ(fold.chips_per_hand, -7.5);
  EXPECT_DOUBLE_EQ(fold.mbb_per_game, -750.0);
}

TEST(Match, LogsReplayWithZeroMismatchesInEveryShippedGame) {
  for (const std::string& game : shipped_game_names()) {
    std::stringstream log;
    const MatchResult r = run(game, "bot:equity", "bot:uniform", 400, true, 2, 3, &log);
    const LogReport report = replay_log(log, shipped_game(game));
    EXPECT_EQ(report.hands, r.hands) << game;
    EXPECT_EQ(report.mismatches, 0) << game;
    EXPECT_EQ(report.bad_lines, 0) << game;
    EXPECT_TRUE(report.has_score && report.score_matches) << game;
    ASSERT_GE(report.players.size(), 2U) << game;
    EXPECT_EQ(report.players[0].name, "equity");
    EXPECT_NEAR(report.players[0].total, r.total_chips, 1e-6) << game;
  }
}

// The bots must beat always-call and uniform random by a significant margin in HULHE.
TEST(Match, EquityBotBeatsTheBaselinesInHoldem) {
  for (const std::string b : {"bot:always-call", "bot:uniform"}) {
    const MatchResult r = run("holdem.limit.2p.reverse_blinds", "bot:equity", b, 3000, true, 2);
    EXPECT_GT(r.mbb_per_game - r.ci95_mbb, 100.0)
        << b << ": " << r.mbb_per_game << " ± " << r.ci95_mbb;
  }
}

// A near-equilibrium Leduc strategy (CFR+, 400 iterations) beats the baselines.
TEST(Match, SolvedLeducStrategyBeatsTheBaselines) {
  const testing::SolvedLeduc leduc(400);
  const GameDefinition& g = leduc.game;
  const std::shared_ptr<const Policy> policy = leduc.policy;
  AgentSource solved{"cfr+", "cfr+",
                     {},     [policy] { return std::make_unique<PolicyAgent>(policy, "cfr+"); },
                     g,      policy};
  MatchConfig c;
  c.hands = 20000;
  c.duplicate = true;
  c.threads = 2;
  for (const std::string b : {"bot:always-call", "bot:always-raise", "bot:uniform"}) {
    const MatchResult r = play_match(g, solved, load_agent(b, g), c);
    EXPECT_GT(r.mbb_per_game - r.ci95_mbb, 0.0)
        << b << ": " << r.mbb_per_game << " ± " << r.ci95_mbb;
  }
}

// A block is 4,096 deals; a slow agent (one that re-solves: a hand a second) would leave a
// match silent for an hour if progress came only between blocks. Inside a block the calling
// thread reports, here after every deal it plays (interval 0), in order, then the end once.
TEST(Match, ReportsProgressInsideABlock) {
  const GameDefinition& g = shipped_game("leduc");
  for (const int threads : {1, 2}) {
    MatchConfig c;
    c.hands = 600;
    c.duplicate = true;
    c.threads = threads;
    c.progress_interval_seconds = 0;
    std::vector<std::int64_t> done;
    c.on_progress = [&](const Progress& p) {
      EXPECT_EQ(p.total, 600);
      done.push_back(p.done);
    };
    play_match(g, load_agent("bot:uniform", g), load_agent("bot:equity", g), c);
    // With two threads the calling one may get no deals at all (the other takes every chunk
    // of a fast agent while it waits for a core), so only the end is certain there.
    ASSERT_GE(done.size(), 1u);
    EXPECT_EQ(done.back(), 600);
    EXPECT_EQ(std::count(done.begin(), done.end(), 600), 1);
    EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
    for (const std::int64_t d : done) EXPECT_EQ(d % 2, 0);  // whole deals of 2 seatings
    // One thread reports every deal: 2, 4, ..., 600.
    if (threads == 1) {
      ASSERT_EQ(done.size(), 300u);
      for (std::size_t k = 0; k < done.size(); ++k)
        EXPECT_EQ(done[k], 2 * static_cast<std::int64_t>(k + 1));
    }
  }
  // The default interval (1 s) keeps a fast match near its one report at the end of the
  // block, not one a deal (300).
  MatchConfig c;
  c.hands = 600;
  int reports = 0;
  c.on_progress = [&](const Progress&) { ++reports; };
  play_match(g, load_agent("bot:uniform", g), load_agent("bot:uniform", g), c);
  EXPECT_GE(reports, 1);
  EXPECT_LT(reports, 10);
}

TEST(Match, RejectsNoHands) {
  EXPECT_THROW(run("kuhn", "bot:uniform", "bot:uniform", 0, false), InputError);
}

}  // namespace
}  // namespace hulhe
