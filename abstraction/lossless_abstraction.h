#pragma once
// The lossless card abstraction of a small game (Kuhn, Leduc, toy hold'em variants): every
// distinct view (hole cards, board so far) of a round is its own bucket, so the abstract game
// is the real game and equilibria of it are exact. Buckets are combinatorial indices:
// colex rank of the hole cards among the deck times the number of board subsets, plus the
// colex rank of the board. Suits are not merged, so the bucket count is an upper bound on
// the distinct views (combinations that share a card stay unused rows in the tables).
#include <array>
#include <cstdint>
#include <string>

#include "abstraction/card_abstraction.h"
#include "game/game_definition.h"

namespace hulhe {

class LosslessAbstraction final : public CardAbstraction {
 public:
  // Throws InputError when a round would need more than kMaxBuckets buckets (use a
  // clustered abstraction for such games).
  explicit LosslessAbstraction(const GameDefinition& game);

  static constexpr std::int64_t kMaxBuckets = std::int64_t{1} << 26;

  int num_rounds() const override { return num_rounds_; }
  std::int32_t num_buckets(int round) const override { return num_buckets_[round]; }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override;
  std::uint64_t hash() const override { return hash_; }
  std::string describe() const override;

 private:
  // Colex rank of a set of distinct deck cards (given in any order).
  std::int64_t subset_rank(const Card* cards, int count) const;

  int num_rounds_ = 0;
  int num_hole_cards_ = 0;
  std::array<int, kMaxRounds> board_cards_{};             // cumulative per round
  std::array<std::int32_t, kMaxRounds> board_subsets_{};  // C(deck, board_cards_[r])
  std::array<std::int32_t, kMaxRounds> num_buckets_{};
  std::array<std::int8_t, kMaxCards> deck_index_{};  // card id → position in game.deck()
  std::uint64_t hash_ = 0;
  std::string game_name_;
};

}  // namespace hulhe
