#include "public_tree/sampled_deal.h"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

#include "game/hand_evaluator.h"
#include "util/input_error.h"

namespace hulhe {

DealSampler::DealSampler(const GameDefinition& game, const CardAbstraction& abstraction)
    : game_(game), abstraction_(abstraction) {
  if (game.num_players != 2)
    throw InputError("sampling CFR needs a 2-player game, not " + std::to_string(game.num_players) +
                     " players");
  num_board_cards_ = game.total_board_cards(game.num_rounds - 1);
  deck_size_ = game.deck_size();
  if (cards_per_deal() > deck_size_ || num_board_cards_ > kMaxBoardCards ||
      game.num_hole_cards > kMaxHoleCards)
    throw InputError("game deals " + std::to_string(cards_per_deal()) + " cards from a deck of " +
                     std::to_string(deck_size_));
  // ACPC decks of small games are the top ranks and last suits (GameDefinition::deck()).
  const std::vector<Card> deck = game.deck();
  std::copy(deck.begin(), deck.end(), deck_.begin());
  const int showdown_cards = game.num_hole_cards + num_board_cards_;
  use_evaluate_ = game.num_ranks == kMaxRanks && game.num_suits == kMaxSuits &&
                  showdown_cards >= 5 && showdown_cards <= 7;
  if (!use_evaluate_) build_small_deck_ranks(showdown_cards);
}

void DealSampler::build_small_deck_ranks(int k) {
  for (int n = 0; n <= kMaxCards; ++n) {
    binomial_[n][0] = 1;
    for (int j = 1; j < 8; ++j)
      binomial_[n][j] = n == 0 ? 0 : binomial_[n - 1][j - 1] + binomial_[n - 1][j];
  }
  if (k > 7 || binomial_[deck_size_][k] > (1 << 22)) return;  // rank on the fly instead
  for (int i = 0; i < deck_size_; ++i) deck_position_[deck_[i]] = static_cast<std::int8_t>(i);
  small_deck_rank_.assign(static_cast<std::size_t>(binomial_[deck_size_][k]), 0);
  // Every k-subset of deck positions, in colex order (Gosper's hack on a bit mask).
  if (k == 0) return;
  std::uint64_t subset = (std::uint64_t{1} << k) - 1;
  for (std::size_t index = 0; index < small_deck_rank_.size(); ++index) {
    CardSet cards;
    for (int i = 0; i < deck_size_; ++i)
      if ((subset >> i) & 1U) cards.insert(deck_[i]);
    small_deck_rank_[index] = rank_cards_acpc(cards);
    const std::uint64_t c = subset & (~subset + 1), r = subset + c;
    subset = (((r ^ subset) >> 2) / c) | r;
  }
}

void DealSampler::deal(SplitMix64& rng, SampledDeal& out) const {
  // Partial Fisher-Yates on a copy of the deck: the first cards_per_deal() are the deal.
  std::array<Card, kMaxCards> deck = deck_;
  const int needed = cards_per_deal();
  for (int i = 0; i < needed; ++i) {
    const int j = i + static_cast<int>(rng.below(static_cast<std::uint32_t>(deck_size_ - i)));
    std::swap(deck[i], deck[j]);
  }
  int next = 0;
  for (int p = 0; p < 2; ++p)
    for (int k = 0; k < game_.num_hole_cards; ++k) out.hole[p][k] = deck[next++];
  for (int k = 0; k < num_board_cards_; ++k) out.board[k] = deck[next++];
  evaluate(out);
}

void DealSampler::evaluate(SampledDeal& deal) const {
  for (int p = 0; p < 2; ++p)
    for (int r = 0; r < game_.num_rounds; ++r)
      deal.bucket[p][r] = abstraction_.bucket(r, deal.hole[p].data(), deal.board.data());
  const std::int32_t r0 = showdown_rank(deal, 0);
  const std::int32_t r1 = showdown_rank(deal, 1);
  deal.showdown = (r0 > r1) - (r0 < r1);
}

std::int32_t DealSampler::showdown_rank(const SampledDeal& deal, int position) const {
  CardSet cards;
  for (int k = 0; k < game_.num_hole_cards; ++k) cards.insert(deal.hole[position][k]);
  for (int k = 0; k < num_board_cards_; ++k) cards.insert(deal.board[k]);
  if (use_evaluate_) return static_cast<std::int32_t>(hulhe::evaluate(cards));
  if (small_deck_rank_.empty()) return rank_cards_acpc(cards);
  // Colex rank of the positions: the sum of C(p_j, j + 1) over positions in ascending order.
  std::uint64_t positions = 0;
  for (std::uint64_t m = cards.mask(); m != 0; m &= m - 1)
    positions |= std::uint64_t{1} << deck_position_[std::countr_zero(m)];
  std::size_t index = 0;
  int j = 1;
  for (std::uint64_t m = positions; m != 0; m &= m - 1, ++j)
    index += static_cast<std::size_t>(binomial_[std::countr_zero(m)][j]);
  return small_deck_rank_[index];
}

}  // namespace hulhe
