#pragma once
// The public boards of a subgame of a 2-player hold'em game: the board at its root (the cards
// dealt so far) and, round by round, every way the rest of the board can be dealt. Level k
// holds the cumulative boards of round `root_round + k`; a board's children are the boards of
// the next round that extend it (every k-subset of the cards left, k the round's new cards).
// Every remaining card is dealt: no suit isomorphism, so a subgame's strategy is defined per
// real (board, hand), as safe re-solving needs (Burch, Johanson & Bowling 2014).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "game/card.h"
#include "game/game_definition.h"

namespace hulhe {

struct SubgameBoard {
  std::array<Card, kMaxBoardCards> cards{};  // cumulative, in dealing order
  std::int32_t num_cards = 0;
  CardSet mask;       // all its cards
  CardSet new_cards;  // the cards dealt at the start of this board's round
  std::int32_t parent = -1;
  std::int32_t first_child = 0;  // children: first_child .. first_child + children_per_board - 1
};

class SubgameBoards {
 public:
  // `board`: the cards dealt before `root_round` ends, i.e. total_board_cards(root_round)
  // cards in dealing order. Throws InputError on a wrong count, a repeated card or a card not
  // of the deck.
  SubgameBoards(const GameDefinition& game, int root_round, std::span<const Card> board);

  int root_round() const { return root_round_; }
  int num_levels() const { return static_cast<int>(levels_.size()); }
  const std::vector<SubgameBoard>& level(int k) const { return levels_[k]; }
  std::int32_t children_per_board(int k) const { return children_[k]; }
  // For one pair of disjoint hands, the number of children of a level-k board that share no
  // card with either: every such deal is equally likely, so a chance node divides by it.
  std::int64_t compatible_children(int k) const { return compatible_[k]; }
  // The index at level `round - root_round` of the board `cards` (cumulative, dealing order,
  // extending the root board); -1 when it is not one of them.
  std::int32_t find(int round, std::span<const Card> cards) const;

 private:
  int root_round_ = 0;
  std::vector<std::vector<SubgameBoard>> levels_;
  std::vector<std::int32_t> children_;
  std::vector<std::int64_t> compatible_;
  std::vector<std::int32_t> round_cards_;  // new cards per level
};

}  // namespace hulhe
