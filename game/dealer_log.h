#pragma once
// The ACPC dealer's log: one line a hand,
//   STATE:<hand>:<betting>:<all cards>:<value pos0>|<value pos1>[|...]:<name pos0>|<name
//   pos1>[|...]
// plus `SCORE:<total>|...:<name>|...` at the end and `#` comment lines. Each STATE line is
// replayed through GameState (legal betting; payoffs recomputed from the cards) and compared
// with the values the dealer wrote. Seats swap positions from hand to hand in ACPC matches,
// so results are gathered per player *name*.
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "game/game_state.h"

namespace hulhe {

struct LogStateLine {
  GameState state;
  std::vector<double> values;      // per position, as written by the dealer
  std::vector<std::string> names;  // per position
};

// Parses and replays one STATE line; throws InputError naming the problem.
LogStateLine parse_log_state(std::string_view line, const GameDefinition& game);
// The line ACPC would print for a replayed state (values printed as whole numbers when whole).
std::string log_state_string(const LogStateLine& s);

struct LogPlayer {
  std::string name;
  std::int64_t hands = 0;
  double total = 0;         // chips, the sum of the dealer's values
  double mbb_per_game = 0;  // mean per hand, in thousandths of a big blind
  double ci95_mbb = 0;      // 1.96 * sample standard deviation / sqrt(hands)
};

struct LogProblem {
  int line = 0;
  std::string message;
};

struct LogReport {
  std::int64_t hands = 0;            // STATE lines replayed (mismatching ones included)
  std::int64_t mismatches = 0;       // lines whose written values differ from the replay
  std::int64_t bad_lines = 0;        // lines that could not be read or replayed (skipped)
  bool has_score = false;            // a SCORE line was seen
  bool score_matches = true;         // ... and it agrees with the per-player totals
  std::vector<LogPlayer> players;    // in order of first appearance
  std::vector<LogProblem> problems;  // every mismatch and bad line, with its line number
};

// Reads a whole log; never stops at a bad line.
LogReport replay_log(std::istream& in, const GameDefinition& game);

}  // namespace hulhe
