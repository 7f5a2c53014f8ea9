#pragma once
// Hand ranges in the usual poker notation, as a list of weighted two-card combinations.
//
//   AhKh            one combination
//   AKs AKo AK QQ   a class: 4 suited, 12 offsuit, all 16, or the 6 pairs
//   QQ+ KTo+        a pair and every higher pair; a class and every higher kicker (KTo..KQo)
//   A5s-A2s 22-55   a run of kickers (same top card and kind) or of pairs, either order
//   random          all 1,326 combinations
//   AKs:0.5         any of the above with a weight in (0, 1]
// Items are separated by commas. A combination listed twice with different weights, and any
// malformed item, is an InputError naming the item.
#include <string>
#include <string_view>
#include <vector>

#include "game/card.h"

namespace hulhe {

struct WeightedCombo {
  Card high;  // the higher card id of the two
  Card low;
  double weight;
  CardSet cards() const { return CardSet((std::uint64_t{1} << high) | (std::uint64_t{1} << low)); }
};

class Range {
 public:
  static constexpr int kNumCombos = 1326;  // C(52, 2)

  // Throws InputError naming the offending item.
  static Range parse(std::string_view text);

  // Combinations in ascending order of (high, low) card id; each appears once.
  const std::vector<WeightedCombo>& combos() const { return combos_; }
  // The text the range was parsed from, for reports.
  const std::string& text() const { return text_; }
  // True when the range is exactly one combination (weights do not matter then).
  bool is_single_hand() const { return combos_.size() == 1; }

  // The combinations that use none of `blocked` (board and dead cards).
  Range without(CardSet blocked) const;

 private:
  std::vector<WeightedCombo> combos_;
  std::string text_;
};

}  // namespace hulhe
