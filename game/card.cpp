#include "game/card.h"

#include <cstring>

#include "util/input_error.h"

namespace hulhe {

Card parse_card(std::string_view text) {
  if (text.size() == 2) {
    const char* r = std::strchr(kRankChars, text[0]);
    const char* s = std::strchr(kSuitChars, text[1]);
    if (r != nullptr && s != nullptr && text[0] != '\0' && text[1] != '\0')
      return make_card(static_cast<int>(r - kRankChars), static_cast<int>(s - kSuitChars));
  }
  throw InputError("bad card '" + std::string(text) +
                   "': expected a rank of 23456789TJQKA then a suit of cdhs, e.g. As or Td");
}

std::string card_to_string(Card c) {
  return {kRankChars[rank_of(c)], kSuitChars[suit_of(c)]};
}

std::vector<Card> parse_cards(std::string_view text) {
  if (text.size() % 2 != 0)
    throw InputError("bad cards '" + std::string(text) + "': expected pairs like AhKh");
  std::vector<Card> out;
  CardSet seen;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    Card c = parse_card(text.substr(i, 2));
    if (seen.contains(c))
      throw InputError("bad cards '" + std::string(text) + "': " + card_to_string(c) +
                       " appears twice");
    seen.insert(c);
    out.push_back(c);
  }
  return out;
}

std::string cards_to_string(const std::vector<Card>& cards) {
  std::string s;
  for (Card c : cards) s += card_to_string(c);
  return s;
}

std::vector<Card> CardSet::cards() const {
  std::vector<Card> out;
  for (std::uint64_t m = mask_; m != 0; m &= m - 1)
    out.push_back(static_cast<Card>(std::countr_zero(m)));
  return out;
}

std::string CardSet::to_string() const {
  return cards_to_string(cards());
}

}  // namespace hulhe
