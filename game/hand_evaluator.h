#pragma once
// Poker hand ranking. `evaluate` ranks 5, 6 or 7 cards of a 52-card deck by their best five:
// a HandRank in 1..7462 (one per 5-card equivalence class), higher is better, equal ranks tie.
// `rank_cards_acpc` ranks any 0..7 cards of any ACPC deck (Kuhn, Leduc) exactly as the ACPC
// dealer's rankHand does; ranks are comparable between hands with equally many cards.
#include <cstdint>

#include "game/card.h"

namespace hulhe {

using HandRank = std::uint16_t;
inline constexpr int kNumHandRanks = 7462;

enum class HandCategory : std::uint8_t {
  kHighCard,
  kPair,
  kTwoPair,
  kThreeOfAKind,
  kStraight,
  kFlush,
  kFullHouse,
  kFourOfAKind,
  kStraightFlush,
};
inline constexpr int kNumHandCategories = 9;

HandRank evaluate(CardSet cards);
HandCategory category_of(HandRank rank);
const char* category_name(HandCategory c);  // "high card", "pair", ..., "straight flush"

std::int32_t rank_cards_acpc(CardSet cards);

}  // namespace hulhe
