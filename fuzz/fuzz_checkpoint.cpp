// Solver checkpoints. Odd first byte: the rest is the file as is (the header's size and
// checksum guard the body). Even: the rest is a body, given a header with the right size
// and checksum, so the fuzzer reaches the body's reader and the shape checks (small lossless
// games: the checks every command applies, then a read of every information set).
#include "abstraction/abstraction_factory.h"
#include "fuzz/fuzz_support.h"
#include "game/betting_tree.h"
#include "solver/checkpoint.h"
#include "util/checksums.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  if (size == 0) return 0;
  const std::string file = fuzz::file_from_input(data, size, [](std::string_view body) {
    std::string header = "HULHECKP";
    fuzz::put_le(header, kCheckpointVersion, 4);
    fuzz::put_le(header, 0, 8);
    fuzz::put_le(header, 0, 8);
    fuzz::put_le(header, body.size(), 8);
    fuzz::put_le(header, fnv1a(body), 8);
    return header;
  });
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
