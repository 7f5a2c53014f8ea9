#pragma once
// One deal of a 2-player game drawn from a seed, as the sampling CFR variants need it: the
// hole cards of both positions, the whole board, each position's bucket in every round
// (looked up once per deal, so the tree walk itself never calls the abstraction) and the
// showdown result. Every random choice of a Monte Carlo CFR iteration comes from a
// SplitMix64 stream seeded by (run seed, iteration number) alone, which is what makes a
// 1-thread run deterministic and a resumed run continue bit-for-bit.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"
#include "game/card.h"
#include "game/game_definition.h"
#include "util/split_mix64.h"

namespace hulhe {

struct SampledDeal {
  std::array<std::array<Card, kMaxHoleCards>, 2> hole{};         // by position
  std::array<Card, kMaxBoardCards> board{};                      // all rounds' board cards
  std::array<std::array<std::int32_t, kMaxRounds>, 2> bucket{};  // [position][round]
  // +1: position 0 wins the showdown, -1: position 1 wins, 0: split pot.
  int showdown = 0;
};

class DealSampler {
 public:
  // Throws InputError unless the game has 2 players and enough cards for a deal.
  DealSampler(const GameDefinition& game, const CardAbstraction& abstraction);

  // Deals hole cards and the full board uniformly at random (partial Fisher-Yates) and fills
  // in buckets and the showdown result.
  void deal(SplitMix64& rng, SampledDeal& out) const;

  // Buckets and showdown of given cards (used by deal and by tests).
  void evaluate(SampledDeal& deal) const;

  int cards_per_deal() const { return 2 * game_.num_hole_cards + num_board_cards_; }

 private:
  std::int32_t showdown_rank(const SampledDeal& deal, int position) const;
  void build_small_deck_ranks(int showdown_cards);

  GameDefinition game_;
  const CardAbstraction& abstraction_;
  int num_board_cards_ = 0;
  bool use_evaluate_ = false;  // 52-card deck: the table-driven 7-card evaluator
  // Small decks: rank of every showdown hand, indexed by the colex rank of its cards'
  // positions in the deck, so dealing never calls the (allocating) generic ranker.
  std::vector<std::int32_t> small_deck_rank_;
  std::array<std::int8_t, kMaxCards> deck_position_{};
  std::array<std::array<std::int32_t, 8>, kMaxCards + 1> binomial_{};
  std::array<Card, kMaxCards> deck_{};
  int deck_size_ = 0;
};

}  // namespace hulhe
