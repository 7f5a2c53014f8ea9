#pragma once
// How big a game is: the private views of a player per round, the suit-isomorphic
// (canonical) hands per round, and the information sets of 2-player limit games (decision
// nodes of the public betting tree times the views of the player to act).
#include <cstdint>
#include <optional>

#include "game/betting_tree.h"
#include "game/game_definition.h"

namespace hulhe {

// What one player sees of the cards in `round`: their hole cards (a set) and each round's
// board cards so far (one set per round, in order). HULHE: 1326, 1326*C(50,3), *47, *46.
std::uint64_t private_views(const GameDefinition& game, int round);

// Hole cards with the board so far as one set, up to a permutation of suits: hold'em
// 169; 1,286,792; 13,960,050; 123,156,254 (Waugh's indexer for 52-card decks; counted
// directly for small decks). Empty when the deck is too big to count directly.
std::optional<std::uint64_t> canonical_hands(const GameDefinition& game, int round);

// Information sets of the real (unabstracted) game: sum over rounds of decision nodes
// times private views. HULHE: 319,365,922,522,608.
std::uint64_t information_sets(const BettingTree& tree);

}  // namespace hulhe
