#pragma once
// How the abstract game sees cards: in each round a hand (hole cards + board so far) falls in
// one of num_buckets(round) buckets. Imperfect recall: the bucket depends only on that round's
// cards. Lossless abstractions (small games, HULHE preflop) and clustered bucket maps
// implement the same interface. Callers look buckets up once per hand per board, outside hot
// loops, so a virtual call is fine here.
#include <cstdint>
#include <string>

#include "game/card.h"

namespace hulhe {

class CardAbstraction {
 public:
  virtual ~CardAbstraction() = default;
  virtual int num_rounds() const = 0;
  virtual std::int32_t num_buckets(int round) const = 0;
  // hole: the game's hole cards; board: GameDefinition::total_board_cards(round) cards.
  virtual std::int32_t bucket(int round, const Card* hole, const Card* board) const = 0;
  // Identifies the abstraction in file headers (checkpoint → abstraction).
  virtual std::uint64_t hash() const = 0;
  virtual std::string describe() const = 0;
};

}  // namespace hulhe
