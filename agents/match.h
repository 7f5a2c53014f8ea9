#pragma once
// An in-process match between two agents, A and B, under the rules of game/game_state.h.
//
// Seats and positions: A takes one position and B every other one (heads-up: A against B;
// three players: A against two copies of B). A moves to the next position every hand, so
// every seat plays every position equally often. In duplicate mode (as in the ACPC) each
// deal is played once per seating, A in each position in turn with the same cards per
// position, which cancels most of the luck of the cards; a match of an agent against itself
// then comes out at exactly 0.
//
// Determinism: deal d's cards come from a generator seeded by (seed, d); the agent in
// position p draws its random choices from one seeded by (seed, d, p), the same in every
// seating of the deal. Hands are played in parallel blocks and summed in hand order, so a
// seed gives the same result whatever the number of threads.
//
// The result is A's mean win per hand with a 95% confidence interval 1.96·s/√n, where the
// samples are independent units: deals in duplicate mode (the sum over their seatings),
// hands otherwise.
#include <cstdint>
#include <ostream>
#include <string>

#include "agents/agent_factory.h"
#include "game/game_definition.h"
#include "util/progress.h"

namespace hulhe {

struct MatchConfig {
  // Hands to play; in duplicate mode rounded up to a whole number of deals (a multiple of
  // the number of players).
  std::int64_t hands = 1000;
  bool duplicate = false;
  std::uint64_t seed = 1;
  int threads = 1;
  // When set, one ACPC dealer-log STATE line per hand, in hand order, then a SCORE line.
  std::ostream* log = nullptr;
  // Told after every block of hands, and inside a block at most every
  // progress_interval_seconds (an agent that re-solves plays a hand a second, so a block
  // can take an hour), always from the calling thread: hands done, in all, and the seconds
  // since the start (util/progress.h; rate and ETA filled in).
  ProgressCallback on_progress;
  double progress_interval_seconds = 1.0;
};

struct MatchResult {
  std::string a, b;           // agent names
  std::int64_t hands = 0;     // hands played
  std::int64_t samples = 0;   // independent units behind the interval (deals or hands)
  double total_chips = 0;     // A's winnings
  double chips_per_hand = 0;  // A's mean
  double ci95_chips = 0;      // half-width of the 95% interval, chips a hand
  double mbb_per_game = 0;    // the same in thousandths of a big blind
  double ci95_mbb = 0;
  std::int64_t illegal_actions = 0;  // actions an agent got wrong, played as calls (ACPC)
  double seconds = 0;
};

MatchResult play_match(const GameDefinition& game, const AgentSource& a, const AgentSource& b,
                       const MatchConfig& config);

}  // namespace hulhe
