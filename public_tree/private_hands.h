#pragma once
// The chance outcomes of a small 2-player game, split the way vector-form CFR needs them
// (Johanson et al. 2012): each player's private hands (all hole-card combinations of the
// deck; both players share one list and card removal is handled by reach vectors), and the
// public boards of every round as a tree (a round-r board's children are the round-(r+1)
// boards that extend it). Only games with 1 or 2 hole cards and no board cards before the
// first betting round are supported, which covers Kuhn, Leduc and hold'em variants.
#include <array>
#include <cstdint>
#include <vector>

#include "game/card.h"
#include "game/game_definition.h"
#include "util/combinatorics.h"

namespace hulhe {

struct PrivateHands {
  int num_hole_cards = 0;
  std::vector<std::array<Card, 2>> cards;  // hand h's hole cards, ascending
  std::vector<CardSet> masks;
  // Hands sharing no card with a given hand: the opponent's possible holdings.
  std::int64_t compatible_opponent_hands = 0;

  std::int32_t size() const { return static_cast<std::int32_t>(cards.size()); }
};

// Throws InputError for games this module does not handle (see above).
PrivateHands enumerate_private_hands(const GameDefinition& game);

struct PublicBoards {
  int num_rounds = 0;
  // boards[r][b]: the cumulative board of round r, cards in dealing order (rounds in order,
  // ascending within a round); round 0 has exactly one, empty board.
  std::array<std::vector<std::array<Card, kMaxBoardCards>>, kMaxRounds> cards;
  std::array<std::vector<CardSet>, kMaxRounds> masks;
  // The children of board b of round r are boards first_child[r][b] ..
  // first_child[r][b] + children_per_board[r] - 1 of round r + 1.
  std::array<std::vector<std::int32_t>, kMaxRounds> first_child;
  std::array<std::int32_t, kMaxRounds> children_per_board{};
  // For one fixed pair of disjoint hands, how many children are compatible with both: the
  // chance node's divisor, since every compatible deal is equally likely.
  std::array<std::int64_t, kMaxRounds> compatible_children{};
  std::array<std::int32_t, kMaxRounds> board_cards{};  // cumulative count per round

  std::int32_t num_boards(int round) const {
    return static_cast<std::int32_t>(cards[round].size());
  }
};

// Number of boards of each round, without enumerating them (to refuse huge games early).
std::array<std::int64_t, kMaxRounds> count_public_boards(const GameDefinition& game);

// Throws InputError when the total boards x hands exceeds max_board_hands.
PublicBoards enumerate_public_boards(const GameDefinition& game, std::int64_t max_board_hands);

}  // namespace hulhe
