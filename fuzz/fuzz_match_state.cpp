// ACPC MATCHSTATE messages and client responses, in each shipped game (first byte picks it);
// a parsed message prints back to itself.
#include "fuzz/fuzz_support.h"
#include "game/match_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  if (size == 0) return 0;
  const GameDefinition& game = fuzz::game_by_index(data[0]);
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  fuzz::expect_input_errors_only([&] {
    const MatchState m = MatchState::parse(text, game);
    const std::string printed = m.to_string();
    if (MatchState::parse(printed, game).to_string() != printed) __builtin_trap();
  });
  fuzz::expect_input_errors_only([&] { (void)MatchResponse::parse(text, game).to_string(); });
  return 0;
}
