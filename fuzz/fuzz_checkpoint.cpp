// Solver checkpoints. Odd first byte: the rest is the file as is (the header's size and
// checksum guard the body). Even: the rest is a body, given a header with the right size
// and checksum, so the fuzzer reaches the body's reader and the shape checks (small lossless
// games: the checks every command applies, then a read of every information set).
#include "abstraction/abstraction_factory.h"
#include "fuzz/fuzz_support.h"
#include "game/betting_tree.h"
#include "solver/checkpoint.h"

namespace {

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  if (size == 0) return 0;
  const std::string_view rest = fuzz::as_text(data + 1, size - 1);
  std::string file;
  if (data[0] & 1) {
    file = rest;
  } else {
    file = "HULHECKP";
    fuzz::put_le(file, kCheckpointVersion, 4);
    fuzz::put_le(file, 0, 8);
    fuzz::put_le(file, 0, 8);
    fuzz::put_le(file, rest.size(), 8);
    fuzz::put_le(file, fnv1a(rest), 8);
    file += rest;
  }
  const std::string path = fuzz::write_temp("fuzz.ckpt", file);
  fuzz::expect_input_errors_only([&] {
    const Checkpoint c = read_checkpoint(path);
    const GameDefinition game = c.game();
    // Small lossless games: the shape checks every command applies before using the tables,
    // then a read of every information set (out of bounds would be a finding).
    if (c.abstraction_kind != "lossless" || game.deck_size() > 16 || game.num_players != 2 ||
        betting_tree_size(game) > 4096)
      return;
    const BettingTree tree(game);
    const auto abstraction = make_abstraction("lossless", game, "");
    // The header's abstraction hash is 0 here, so check the shapes themselves (the part of
    // check_checkpoint_matches that guards the indexing).
    if (!c.tables.shape_mismatch(tree, *abstraction).empty()) return;
    double out[16];
    c.tables.for_each_information_set([&](std::int64_t offset, int actions) {
      if (actions <= 16) c.tables.average_strategy(offset, actions, out);
    });
  });
  return 0;
}
