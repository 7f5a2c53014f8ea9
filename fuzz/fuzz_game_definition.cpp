// .game files: parse; a parsed game prints back to an equal one; a 2-player limit game's
// tree is sized before it is built, and refused or built.
#include "fuzz/fuzz_support.h"
#include "game/betting_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  fuzz::expect_input_errors_only([&] {
    const GameDefinition g = GameDefinition::from_string(fuzz::as_text(data, size), "<fuzz>");
    if (!(GameDefinition::from_string(g.to_acpc_string()) == g)) __builtin_trap();
    if (g.num_players == 2 && g.betting_type == BettingType::kLimit && g.stack[0] == INT32_MAX &&
        betting_tree_size(g) <= 200000) {
      const BettingTree tree(g);
      if (static_cast<std::int64_t>(tree.nodes().size()) != betting_tree_size(g)) __builtin_trap();
    }
  });
  return 0;
}
