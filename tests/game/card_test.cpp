#include "game/card.h"

#include <gtest/gtest.h>

#include "util/input_error.h"

namespace hulhe {
namespace {

TEST(Card, ParsesAndPrintsEveryCard) {
  for (int c = 0; c < kMaxCards; ++c) {
    const Card card = static_cast<Card>(c);
    EXPECT_EQ(parse_card(card_to_string(card)), card);
  }
  EXPECT_EQ(parse_card("2c"), 0);
  EXPECT_EQ(parse_card("As"), 51);
  EXPECT_EQ(parse_card("Td"), make_card(8, 1));
}

TEST(Card, RejectsMalformedCards) {
  for (const char* bad : {"", "A", "Ax", "1s", "as", "AsK", "10s"}) {
    EXPECT_THROW(parse_card(bad), InputError) << bad;
  }
  EXPECT_THROW(parse_cards("AhAh"), InputError);
  EXPECT_THROW(parse_cards("AhK"), InputError);
}

TEST(CardSet, HoldsCards) {
  CardSet s = CardSet::of(parse_cards("AhKhTd"));
  EXPECT_EQ(s.size(), 3);
  EXPECT_TRUE(s.contains(parse_card("Kh")));
  EXPECT_FALSE(s.contains(parse_card("Ks")));
  EXPECT_EQ(s.to_string(), "TdKhAh");
  EXPECT_EQ(s.suit_ranks(2), (1U << 11) | (1U << 12));
}

}  // namespace
}  // namespace hulhe
