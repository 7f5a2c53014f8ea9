// ACPC dealer logs: whole logs replayed (never throw: bad lines are counted), and single
// STATE lines, in each shipped game (first byte picks it).
#include <sstream>

#include "fuzz/fuzz_support.h"
#include "game/dealer_log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  if (size == 0) return 0;
  const GameDefinition& game = fuzz::game_by_index(data[0]);
  const std::string text(fuzz::as_text(data + 1, size - 1));
  std::istringstream in(text);
  const LogReport r = replay_log(in, game);
  if (r.hands < r.mismatches) __builtin_trap();
  fuzz::expect_input_errors_only([&] { (void)log_state_string(parse_log_state(text, game)); });
  return 0;
}
