#pragma once
// An ACPC protocol 2.0.0 client (the ACPC server's example_player.c, with an Agent deciding):
// sends VERSION:2.0.0, then answers every MATCHSTATE in which its position is to act with
// that state, ':' and the agent's action; states of others' turns and ends of hands only
// update the tally. Lines that are not MATCHSTATEs of the game, or not readable, are
// reported and ignored (comment lines starting with '#' or ';' silently), never fatal;
// the one exception is the first MATCHSTATE: if it does not fit the game at all, the match
// is of another game and play stops with an InputError.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "acpc/line_socket.h"
#include "agents/agent.h"
#include "game/game_definition.h"

namespace hulhe {

struct PlayerSummary {
  std::int64_t hands = 0;          // hands seen to their end
  double total = 0;                // chips won over them
  double mbb_per_game = 0;         // total per hand, in thousandths of a big blind
  std::int64_t actions = 0;        // responses sent
  std::int64_t ignored_lines = 0;  // garbage and unreadable lines
  bool ended_mid_hand = false;     // the dealer closed the connection inside a hand
  std::uint32_t last_hand = 0;     // the hand of the last state seen
  // Time from reading a MATCHSTATE to sending the answer (parse, agent, format), µs.
  std::vector<double> decision_micros;
};

// Plays until the dealer closes the connection. `log` (may be null) gets every line read
// ("< "), sent ("> ") and each problem ("! "). The agent's generator for hand h is
// SplitMix64::for_iteration(seed, h), so a match replays exactly from the seed.
// Throws InputError when the dealer's first MATCHSTATE is of another game.
PlayerSummary play_acpc_match(LineConnection& dealer, Agent& agent, const GameDefinition& game,
                              std::uint64_t seed, std::ostream* log);

}  // namespace hulhe
