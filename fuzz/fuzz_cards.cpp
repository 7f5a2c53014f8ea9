// Cards ("As", "AsKs7h"): parsed cards print back to the same text.
#include "fuzz/fuzz_support.h"
#include "game/card.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::expect_input_errors_only([&] {
    const std::vector<Card> cards = parse_cards(text);
    if (parse_cards(cards_to_string(cards)) != cards) __builtin_trap();
  });
  fuzz::expect_input_errors_only([&] {
    const Card c = parse_card(text);
    if (parse_card(card_to_string(c)) != c) __builtin_trap();
  });
  return 0;
}
