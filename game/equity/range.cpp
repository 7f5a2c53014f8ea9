#include "game/equity/range.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

#include "util/input_error.h"
#include "util/printable_text.h"

namespace hulhe {
namespace {

// Combination id 0..1325 from an ordered pair of distinct cards.
int combo_slot(Card a, Card b) {
  return std::max(a, b) * kMaxCards + std::min(a, b);
}

[[noreturn]] void bad_item(std::string_view item, const std::string& why) {
  throw InputError("bad range item '" + std::string(item) + "': " + why);
}

int parse_rank(char c) {
  const char* r = std::strchr(kRankChars, c);
  return (r == nullptr || c == '\0') ? -1 : static_cast<int>(r - kRankChars);
}

enum class Kind { kPair, kSuited, kOffsuit, kAny };

// A hand class such as "AKs", "QQ", "T9": ranks high >= low and a kind.
struct HandClass {
  int high = 0;
  int low = 0;
  Kind kind = Kind::kAny;
};

HandClass parse_class(std::string_view item, std::string_view text) {
  if (text.size() != 2 && text.size() != 3)
    bad_item(item, "expected a class like AKs, AKo, AK or QQ");
  int a = parse_rank(text[0]);
  int b = parse_rank(text[1]);
  if (a < 0 || b < 0) bad_item(item, "unknown rank (ranks are 23456789TJQKA)");
  HandClass c{std::max(a, b), std::min(a, b), Kind::kAny};
  if (a == b) {
    if (text.size() == 3) bad_item(item, "a pair cannot be suited or offsuit");
    c.kind = Kind::kPair;
  } else if (text.size() == 3) {
    if (text[2] == 's') {
      c.kind = Kind::kSuited;
    } else if (text[2] == 'o') {
      c.kind = Kind::kOffsuit;
    } else {
      bad_item(item, "the third letter of a class must be s (suited) or o (offsuit)");
    }
  }
  return c;
}

template <typename Add>
void add_class(const HandClass& c, Add&& add) {
  for (int s1 = 0; s1 < kMaxSuits; ++s1) {
    for (int s2 = 0; s2 < kMaxSuits; ++s2) {
      if (c.kind == Kind::kPair) {
        if (s1 < s2) add(make_card(c.high, s1), make_card(c.low, s2));
      } else if ((c.kind != Kind::kSuited || s1 == s2) && (c.kind != Kind::kOffsuit || s1 != s2)) {
        add(make_card(c.high, s1), make_card(c.low, s2));
      }
    }
  }
}

double parse_weight(std::string_view item, std::string_view text) {
  double w = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), w);
  if (ec != std::errc() || end != text.data() + text.size() || !(w > 0) || w > 1)
    bad_item(item, "the weight after ':' must be a number in (0, 1]");
  return w;
}

}  // namespace

Range Range::parse(std::string_view text) {
  // weight per combination slot; 0 = absent.
  std::vector<double> weight(static_cast<std::size_t>(kMaxCards * kMaxCards), 0.0);
  std::vector<std::string> owner(weight.size());
  Range range;
  range.text_ = std::string(trim(text, " \t"));
  if (range.text_.empty()) throw InputError("empty range: expected e.g. AhKh, QQ+ or random");

  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = trim(text.substr(start, comma - start), " \t");
    start = comma + 1;
    if (item.empty())
      throw InputError("bad range '" + std::string(text) + "': empty item between commas");

    std::string_view body = item;
    double w = 1.0;
    if (auto colon = item.find(':'); colon != std::string_view::npos) {
      w = parse_weight(item, item.substr(colon + 1));
      body = item.substr(0, colon);
    }
    auto add = [&](Card a, Card b) {
      const auto slot = static_cast<std::size_t>(combo_slot(a, b));
      if (weight[slot] != 0 && weight[slot] != w)
        throw InputError("bad range item '" + std::string(item) +
                         "': " + card_to_string(std::max(a, b)) + card_to_string(std::min(a, b)) +
                         " already has weight " + std::to_string(weight[slot]) + " from '" +
                         owner[slot] + "'");
      weight[slot] = w;
      owner[slot] = std::string(item);
    };

    if (body == "random") {
      for (int a = 0; a < kMaxCards; ++a)
        for (int b = 0; b < a; ++b) add(static_cast<Card>(a), static_cast<Card>(b));
    } else if (body.size() == 4 && parse_rank(body[1]) < 0 &&
               std::strchr(kSuitChars, body[1]) != nullptr) {
      // A specific hand such as AhKh (second letter is a suit, not a rank).
      std::vector<Card> cards;
      try {
        cards = parse_cards(body);
      } catch (const InputError& e) {
        bad_item(item, e.what());
      }
      add(cards[0], cards[1]);
    } else if (auto dash = body.find('-'); dash != std::string_view::npos) {
      const HandClass from = parse_class(item, body.substr(0, dash));
      const HandClass to = parse_class(item, body.substr(dash + 1));
      if (from.kind != to.kind)
        bad_item(item, "both ends of a dash range must be the same kind (pairs, suited, offsuit)");
      if (from.kind == Kind::kPair) {
        for (int r = std::min(from.high, to.high); r <= std::max(from.high, to.high); ++r)
          add_class({r, r, Kind::kPair}, add);
      } else {
        if (from.high != to.high)
          bad_item(item, "both ends of a dash range must share their top card, e.g. A5s-A2s");
        for (int r = std::min(from.low, to.low); r <= std::max(from.low, to.low); ++r)
          add_class({from.high, r, from.kind}, add);
      }
    } else if (!body.empty() && body.back() == '+') {
      const HandClass c = parse_class(item, body.substr(0, body.size() - 1));
      if (c.kind == Kind::kPair) {
        for (int r = c.high; r < kMaxRanks; ++r) add_class({r, r, Kind::kPair}, add);
      } else {
        for (int r = c.low; r < c.high; ++r) add_class({c.high, r, c.kind}, add);
      }
    } else {
      add_class(parse_class(item, body), add);
    }
    if (comma == text.size()) break;
  }

  for (int a = 0; a < kMaxCards; ++a)
    for (int b = 0; b < a; ++b) {
      const double w =
          weight[static_cast<std::size_t>(combo_slot(static_cast<Card>(a), static_cast<Card>(b)))];
      if (w > 0) range.combos_.push_back({static_cast<Card>(a), static_cast<Card>(b), w});
    }
  return range;
}

Range Range::without(CardSet blocked) const {
  Range r;
  r.text_ = text_;
  for (const WeightedCombo& c : combos_)
    if (!c.cards().intersects(blocked)) r.combos_.push_back(c);
  return r;
}

}  // namespace hulhe
