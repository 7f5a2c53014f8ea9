#include "best_response/holdem/suit_symmetry.h"

#include <algorithm>
#include <array>
#include <vector>

#include "util/split_mix64.h"

namespace hulhe {

bool is_suit_symmetric(const CardAbstraction& abstraction, const GameDefinition& game, int samples,
                       std::uint64_t seed) {
  const std::vector<Card> deck = game.deck();
  std::vector<int> suits;
  for (Card c : deck)
    if (std::find(suits.begin(), suits.end(), suit_of(c)) == suits.end())
      suits.push_back(suit_of(c));
  if (suits.size() < 2) return true;
  SplitMix64 rng(seed);
  std::vector<Card> cards = deck;
  for (int r = 0; r < abstraction.num_rounds(); ++r) {
    const int need = game.num_hole_cards + game.total_board_cards(r);
    if (need > static_cast<int>(deck.size())) continue;
    for (int s = 0; s < samples; ++s) {
      for (int i = 0; i < need; ++i) std::swap(cards[i], cards[i + rng.below(cards.size() - i)]);
      std::vector<int> image = suits;
      for (std::size_t i = 0; i + 1 < image.size(); ++i)
        std::swap(image[i], image[i + rng.below(image.size() - i)]);
      std::array<Card, kMaxHoleCards + kMaxBoardCards> p{};
      for (int i = 0; i < need; ++i) {
        const auto k = std::find(suits.begin(), suits.end(), suit_of(cards[i])) - suits.begin();
        p[i] = make_card(rank_of(cards[i]), image[k]);
      }
      const int h = game.num_hole_cards;
      if (abstraction.bucket(r, cards.data(), cards.data() + h) !=
          abstraction.bucket(r, p.data(), p.data() + h))
        return false;
    }
  }
  return true;
}

}  // namespace hulhe
