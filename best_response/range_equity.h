#pragma once
// Equity of one private hand against a weighted range of the opponent's private hands when
// the rest of the board is dealt at random and nobody bets again (check/call to the end):
// what local best response (Lisý & Bowling 2017) values its call and raise with.
//
// The work is split so that a range costs O(n): `score` compares the hand with every
// opponent hand on every completion of the board once (exactly when there are at most
// `exact_limit` completions, as on the HULHE flop (1,081), turn and river; otherwise on
// `monte_carlo_boards` completions drawn from the caller's generator, as preflop) and keeps
// per opponent hand h its score s_h (2 per win, 1 per tie) and its number of compatible
// completions c_h. The equity against any range w is then Σ w_h s_h / (2 Σ w_h c_h): every
// (opponent hand, completion) pair that shares no card is equally likely, so weighting the
// pairs by w_h is Bayes' rule with card removal. One score pass serves every decision of a
// betting round, whatever the range has become.
#include <cstdint>
#include <span>
#include <vector>

#include "game/card.h"
#include "game/game_definition.h"
#include "game/hand_evaluator.h"
#include "public_tree/private_hands.h"
#include "public_tree/sampled_deal.h"

namespace hulhe {

struct RangeEquityOptions {
  std::int64_t exact_limit = 5000;  // enumerate the board's completions up to this many
  int monte_carlo_boards = 1000;    // else sample this many
};

class RangeEquity {
 public:
  // Per-thread buffers: the opponent hands compatible with the known cards, their scores.
  struct Scores {
    std::vector<std::int32_t> hand;   // opponent hand ids that share no card with mine/board
    std::vector<std::int32_t> score;  // 2 per win, 1 per tie, over the completions
    std::vector<std::int32_t> count;  // completions compatible with the hand
    std::vector<EvalHand> eval;       // scratch
    std::vector<std::uint64_t> mask;  // scratch
    std::vector<Card> pool;           // scratch: cards left in the deck
  };

  // Throws InputError when the game's showdowns cannot be ranked here (a 52-card deck with
  // fewer than 5 or more than 7 showdown cards and over 4M showdown hands).
  RangeEquity(const GameDefinition& game, const PrivateHands& hands, RangeEquityOptions options);

  // Scores of hand `mine` against every opponent hand given the first `known` cards of
  // `board` (dealing order). Uses `rng` only when sampling.
  void score(std::int32_t mine, const Card* board, int known, SplitMix64& rng, Scores& s) const;
  // Equity (wins + ties / 2) against the range w (weights by hand id; hands missing from
  // s.hand count as 0); `fallback` when the range has no weight there.
  static double equity(const Scores& s, std::span<const double> w, double fallback = 0.5);
  // Whether score() enumerates every completion with `known` board cards.
  bool exact(int known) const;

  // Showdown rank of hand h with the whole board (board_mask: every board card); higher wins.
  std::int32_t showdown_rank(std::int32_t h, CardSet board_mask) const;

 private:
  std::int32_t table_rank(std::uint64_t cards) const;

  GameDefinition game_;
  const PrivateHands& hands_;
  RangeEquityOptions options_;
  int final_board_ = 0;
  bool use_evaluator_ = false;
  std::vector<EvalHand> hand_eval_;
  std::vector<Card> deck_;
  // Small decks: rank of every showdown hand by the colex index of its deck positions.
  std::vector<std::int32_t> small_rank_;
  std::array<std::int8_t, kMaxCards> deck_position_{};
  std::array<std::array<std::int64_t, 8>, kMaxCards + 1> binomial_{};
};

}  // namespace hulhe
