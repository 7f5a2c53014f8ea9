#pragma once
// What a strategy does at one betting position, hand by hand, as poker players draw it: the
// R x R grid of hold'em hand classes (R ranks of the deck, high to low; pairs on the
// diagonal, suited classes above it, offsuit below). Each class holds its card combinations
// that do not touch the board, each combination's bucket in the strategy's card abstraction,
// and the class's action probabilities: the mean over those combinations (every combination
// is equally likely before the opponent's actions are taken into account). `hulhe show`
// prints it and draws it as SVG.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "abstraction/policy.h"
#include "game/card.h"

namespace hulhe {

struct StrategyGridCombo {
  std::array<Card, 2> hole{};  // higher card id first
  std::int32_t bucket = 0;
};

struct StrategyGridCell {
  std::string label;                      // "AKs", "T9o", "77"
  std::vector<StrategyGridCombo> combos;  // live combinations; empty: all touch the board
  std::vector<double> probabilities;      // per action of the node; empty when no combo
};

struct StrategyGrid {
  std::string sequence;  // ACPC betting string of the position, e.g. "rc/"
  int round = 0;
  std::int32_t node = 0;  // decision id in its round (Policy's node)
  int player = 0;         // position to act
  std::vector<Card> board;
  std::vector<char> actions;              // 'f', 'c', 'r', in the node's action order
  std::vector<std::string> action_names;  // "fold", "check" or "call", "bet" or "raise"
  std::vector<int> ranks;                 // of the deck, high to low: the grid's rows and columns
  std::vector<StrategyGridCell> cells;    // ranks.size()^2, row-major

  const StrategyGridCell& cell(std::size_t row, std::size_t col) const {
    return cells[row * ranks.size() + col];
  }
};

// The grid of `policy` at the decision position reached by `sequence` (an ACPC betting
// string; a trailing '/' may be left out where a round has just begun) with `board` (exactly
// the round's board cards). Throws InputError for a game without 2 hole cards, a sequence
// that names no decision position, or a wrong, repeated or foreign board card.
StrategyGrid strategy_grid(const Policy& policy, std::string_view sequence,
                           const std::vector<Card>& board);

// Terminal rendering: a header, then one grid per action with probabilities in percent
// ('.' for a class whose combinations all touch the board).
std::string strategy_grid_text(const StrategyGrid& grid);

// SVG rendering: one square per class, split into bars by the action probabilities (fold red,
// check/call green, bet/raise blue), its label, and a tooltip (<title>) with the
// probabilities and every combination's bucket.
std::string strategy_grid_svg(const StrategyGrid& grid, std::string_view title);

}  // namespace hulhe
