#pragma once
// A dealer speaking ACPC protocol 2.0.0 like the ACPC server's dealer.c, for matches run
// and tested without outside software:
//   * one loopback port per seat; each player connects and sends VERSION:2.0.0 first;
//   * cards dealt exactly as dealer.c does (game.c dealCards with genrand_int32 = MT19937
//     seeded with the match seed), so the same seed deals the same cards as the ACPC dealer;
//   * seats rotate: in hand h, position p is played by seat (p + h) mod players;
//   * before every action and at the end of each hand, every seat gets
//     MATCHSTATE:<position>:<hand>:<betting>:<cards>\r\n, showing its own hole cards and,
//     after a showdown, those of the players who did not fold;
//   * the player to act answers with the same state, ':' and an action. Comment lines
//     ('#', ';'), unreadable lines and answers to another state are ignored; an invalid
//     action is fixed as game.c isValidAction(tryFixing) and dealer.c do: a no-limit raise
//     outside the legal range is moved into it, any other invalid action is played as a call;
//   * the log has one STATE line a hand and a final SCORE line (game/dealer_log.h).
// A player who does not connect, send its version or answer within the timeout, or who
// closes its connection, ends the match with an InputError naming the seat and the hand.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "acpc/line_socket.h"
#include "game/game_definition.h"
#include "util/progress.h"

namespace hulhe {

struct DealerConfig {
  GameDefinition game;
  std::string game_file;  // for the log header
  std::int64_t hands = 1000;
  std::uint32_t seed = 0;          // ACPC dealer seeds are 32-bit
  std::vector<std::string> names;  // one per seat
  std::vector<int> ports;          // one per seat; 0 = a free port; empty = all free
  int timeout_ms = 600000;         // per response, version line and connection (ACPC t_response)
};

struct DealerResult {
  std::int64_t hands = 0;
  std::vector<double> totals;         // per seat
  std::int64_t fixed_actions = 0;     // invalid actions played as calls (or clamped raises)
  std::int64_t ignored_lines = 0;     // unreadable or unrequested lines from players
  std::vector<std::string> warnings;  // the first few of those, for the summary
};

class AcpcDealer {
 public:
  // Checks the configuration and binds the ports (InputError for a bad one).
  explicit AcpcDealer(DealerConfig config);
  const std::vector<int>& ports() const { return ports_; }
  // Accepts the players (seat order), plays the match. `log` (may be null) gets the ACPC
  // log; `progress` (may be empty) the hands dealt every two seconds (util/progress.h).
  DealerResult run(std::ostream* log, const ProgressCallback& progress);

 private:
  DealerConfig config_;
  std::vector<LoopbackListener> listeners_;
  std::vector<int> ports_;
};

// ACPC game.c dealCards: hole cards for positions 0..n-1, then the board, each card drawn
// uniformly from what is left of the deck (suits outer, ranks inner) by genrand % left.
struct AcpcDeal {
  std::vector<std::vector<Card>> hole;  // by position
  std::vector<Card> board;              // every round's board cards
};
template <typename Mt>
AcpcDeal deal_acpc_cards(const GameDefinition& game, Mt& genrand);

// The SCORE line: per seat total and name.
std::string score_line(const std::vector<double>& totals, const std::vector<std::string>& names);

template <typename Mt>
AcpcDeal deal_acpc_cards(const GameDefinition& game, Mt& genrand) {
  // dealer.c's deck order: suits outer, ranks inner.
  std::vector<Card> ordered;
  for (int s = kMaxSuits - game.num_suits; s < kMaxSuits; ++s)
    for (int r = kMaxRanks - game.num_ranks; r < kMaxRanks; ++r) ordered.push_back(make_card(r, s));
  std::size_t left = ordered.size();
  auto draw = [&] {
    const std::size_t i = static_cast<std::uint32_t>(genrand()) % left;
    const Card c = ordered[i];
    ordered[i] = ordered[left - 1];
    --left;
    return c;
  };
  AcpcDeal deal;
  deal.hole.resize(game.num_players);
  for (int p = 0; p < game.num_players; ++p)
    for (int i = 0; i < game.num_hole_cards; ++i) deal.hole[p].push_back(draw());
  for (int r = 0; r < game.num_rounds; ++r)
    for (int i = 0; i < game.num_board_cards[r]; ++i) deal.board.push_back(draw());
  return deal;
}

}  // namespace hulhe
