#include "game/equity/range.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "util/input_error.h"

namespace hulhe {
namespace {

std::size_t count(const char* text) {
  return Range::parse(text).combos().size();
}

TEST(Range, CountsCombinationsOfEachForm) {
  EXPECT_EQ(count("AhKh"), 1U);
  EXPECT_EQ(count("AKs"), 4U);
  EXPECT_EQ(count("AKo"), 12U);
  EXPECT_EQ(count("AK"), 16U);
  EXPECT_EQ(count("QQ"), 6U);
  EXPECT_EQ(count("QQ+"), 18U);      // QQ, KK, AA
  EXPECT_EQ(count("22+"), 78U);      // all 13 pairs
  EXPECT_EQ(count("A5s-A2s"), 16U);  // A5s A4s A3s A2s
  EXPECT_EQ(count("A2s-A5s"), 16U);
  EXPECT_EQ(count("KTo+"), 36U);  // KTo KJo KQo
  EXPECT_EQ(count("22-55"), 24U);
  EXPECT_EQ(count("random"), 1326U);
  EXPECT_EQ(count("QQ+, AKs, AhKh"), 22U);  // AhKh is one of AKs: listed twice, same weight
  EXPECT_EQ(count("KA"), 16U);              // rank order does not matter
}

TEST(Range, ExpandsToTheRightCards) {
  const Range r = Range::parse("AKs");
  std::set<std::string> hands;
  for (const WeightedCombo& c : r.combos()) {
    EXPECT_GT(c.high, c.low);
    hands.insert(card_to_string(c.high) + card_to_string(c.low));
  }
  EXPECT_EQ(hands, (std::set<std::string>{"AcKc", "AdKd", "AhKh", "AsKs"}));
  const Range single = Range::parse("KhAh");
  ASSERT_TRUE(single.is_single_hand());
  EXPECT_EQ(single.combos()[0].high, parse_card("Ah"));
  EXPECT_EQ(single.combos()[0].low, parse_card("Kh"));
  const Range kto = Range::parse("KTo+");
  for (const WeightedCombo& c : kto.combos()) {
    EXPECT_EQ(rank_of(c.high), 11);
    EXPECT_GE(rank_of(c.low), 8);
    EXPECT_NE(suit_of(c.high), suit_of(c.low));
  }
}

TEST(Range, CarriesWeights) {
  const Range r = Range::parse("AKs:0.5, QQ");
  ASSERT_EQ(r.combos().size(), 10U);
  double total = 0;
  for (const WeightedCombo& c : r.combos()) total += c.weight;
  EXPECT_DOUBLE_EQ(total, 4 * 0.5 + 6);
}

TEST(Range, DropsBlockedCombinations) {
  const Range r = Range::parse("AA").without(CardSet::of(parse_cards("AsKd")));
  EXPECT_EQ(r.combos().size(), 3U);
  EXPECT_EQ(Range::parse("random").without(CardSet::of(parse_cards("2c3c4c"))).combos().size(),
            1176U);
}

TEST(Range, RejectsBadItemsNamingThem) {
  for (const char* bad : {"AKx", "AAs", "ZZ", "A5s-K2s", "AKs-AQo", "AhAh", "AKs:2", "AKs:0",
                          "AKs:x", "AhKz", "AKs,,QQ", "", "A", "AKs+-", "QQ-AKs"}) {
    try {
      Range::parse(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      const std::string what = e.what();
      if (std::string(bad).find(',') == std::string::npos && *bad != '\0') {
        EXPECT_NE(what.find(bad), std::string::npos) << what;
      }
    }
  }
}

TEST(Range, RejectsContradictoryWeights) {
  try {
    Range::parse("AKs, AhKh:0.5");
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("AhKh:0.5"), std::string::npos) << what;
    EXPECT_NE(what.find("AKs"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace hulhe
