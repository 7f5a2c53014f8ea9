#pragma once
// Cards and card sets, in the ACPC encoding: card = rank * 4 + suit, ranks 0..12 are
// "23456789TJQKA", suits 0..3 are "cdhs" (ACPC game.h: makeCard, rankOfCard, suitOfCard).
// Small decks (Kuhn, Leduc) use the same encoding with fewer ranks or suits.
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hulhe {

using Card = std::uint8_t;

inline constexpr int kMaxRanks = 13;
inline constexpr int kMaxSuits = 4;
inline constexpr int kMaxCards = kMaxRanks * kMaxSuits;
inline constexpr char kRankChars[] = "23456789TJQKA";
inline constexpr char kSuitChars[] = "cdhs";

constexpr Card make_card(int rank, int suit) {
  return static_cast<Card>(rank * kMaxSuits + suit);
}
constexpr int rank_of(Card c) {
  return c / kMaxSuits;
}
constexpr int suit_of(Card c) {
  return c % kMaxSuits;
}

// "As", "Td", "2c". Throws InputError naming the text on anything else.
Card parse_card(std::string_view text);
std::string card_to_string(Card c);
// A run of cards with no separators, e.g. "AhKh" or "Td9c2s"; spaces are not allowed.
std::vector<Card> parse_cards(std::string_view text);
std::string cards_to_string(const std::vector<Card>& cards);

// A set of cards as a 64-bit mask (bit = card id).
class CardSet {
 public:
  constexpr CardSet() = default;
  constexpr explicit CardSet(std::uint64_t mask) : mask_(mask) {}
  template <typename Range>
  static CardSet of(const Range& cards) {
    CardSet s;
    for (Card c : cards) s.insert(c);
    return s;
  }

  constexpr std::uint64_t mask() const { return mask_; }
  constexpr int size() const { return std::popcount(mask_); }
  constexpr bool empty() const { return mask_ == 0; }
  constexpr bool contains(Card c) const { return (mask_ >> c) & 1U; }
  constexpr bool intersects(CardSet o) const { return (mask_ & o.mask_) != 0; }
  constexpr void insert(Card c) { mask_ |= std::uint64_t{1} << c; }
  constexpr void erase(Card c) { mask_ &= ~(std::uint64_t{1} << c); }
  constexpr CardSet operator|(CardSet o) const { return CardSet(mask_ | o.mask_); }
  constexpr CardSet operator&(CardSet o) const { return CardSet(mask_ & o.mask_); }
  constexpr bool operator==(const CardSet&) const = default;
  // 13-bit rank mask of one suit.
  constexpr unsigned suit_ranks(int suit) const {
    unsigned r = 0;
    for (int rank = 0; rank < kMaxRanks; ++rank)
      if (contains(make_card(rank, suit))) r |= 1U << rank;
    return r;
  }
  std::vector<Card> cards() const;  // ascending card id
  std::string to_string() const;

 private:
  std::uint64_t mask_ = 0;
};

}  // namespace hulhe
