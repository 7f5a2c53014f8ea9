#pragma once
// One bucket per round: the abstraction of policies that ignore the cards (baseline bots),
// valid for any game, HULHE included, where the lossless abstraction is too large.
#include <string>

#include "abstraction/card_abstraction.h"
#include "game/game_definition.h"

namespace hulhe {

class CardBlindAbstraction final : public CardAbstraction {
 public:
  explicit CardBlindAbstraction(const GameDefinition& game)
      : rounds_(game.num_rounds), hash_(game.hash() ^ 0x6361726420626c6eULL) {}
  int num_rounds() const override { return rounds_; }
  std::int32_t num_buckets(int) const override { return 1; }
  std::int32_t bucket(int, const Card*, const Card*) const override { return 0; }
  std::uint64_t hash() const override { return hash_; }
  std::string describe() const override { return "card-blind (1 bucket per round)"; }

 private:
  int rounds_;
  std::uint64_t hash_;
};

}  // namespace hulhe
