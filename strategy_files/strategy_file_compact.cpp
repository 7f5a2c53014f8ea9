// The compact strategy file (strategy_file.h): format version 4, written and read, and
// version 3, read only. Version 3 differs in three ways, each a `version4` test below: every
// information set is stored (none left out as unreached), a value's context is (round,
// actions, slot) alone, and the bucket arrays are bit-packed as in version 2.
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include "game/hand_indexer.h"
#include "strategy_files/strategy_file_bodies.h"
#include "strategy_files/strategy_value_coding.h"

namespace hulhe::strategy_file_internal {
namespace {

void serialize_compact(cereal::PortableBinaryOutputArchive& ar,
                       const CompactBucketAbstraction& compact) {
  ar(static_cast<std::uint32_t>(compact.tables().size()));
  for (const PackedRoundBuckets& r : compact.tables()) write_coded_table(ar, r);
  const OchsRiverModel& m = compact.river().model();
  ar(m.clusters, m.preflop_cluster, m.num_buckets, m.centres);
  ar(compact.exceptions().index, compact.exceptions().bucket);
}

}  // namespace

void write_compact_body(cereal::PortableBinaryOutputArchive& ar, const Policy& policy,
                        const Layout& layout, int bits, const CompactBucketAbstraction& compact) {
  const BettingTree& tree = policy.tree();
  const int total = (1 << bits) - 1;
  if (bits <= 8)
    write_coded_values(ar, quantize_policy<std::uint8_t>(policy, layout, total), layout,
                       own_predecessors(tree), tree.game().num_rounds, bits);
  else
    ar(reached_values_without_last(quantize_policy<std::uint16_t>(policy, layout, total), layout,
                                   own_predecessors(tree)));
  serialize_compact(ar, compact);
}

void CompactBody::read(BoundedInputArchive& ar, const std::string& path, int bits) {
  if (bits <= 8)
    ar(frequencies, coded);
  else
    ar(stored16);
  std::uint32_t tables = 0;
  ar(tables);
  if (tables != 3) fail(path, "corrupt (a compact file keeps 3 bucket arrays)");
  packed.resize(tables);
  for (std::uint32_t r = 0; r < tables; ++r) {
    if (version4)
      packed[r] = read_coded_table(ar, static_cast<std::int64_t>(HandIndexer::holdem(r).size()));
    else
      serialize_packed(ar, packed[r]);
  }
  ar(river.clusters, river.preflop_cluster, river.num_buckets, river.centres);
  ar(exceptions.index, exceptions.bucket);
}

std::shared_ptr<const CardAbstraction> CompactBody::abstraction(
    const GameDefinition& game, const AbstractionDescriptor& descriptor, const std::string& path) {
  if (game.num_rounds != 4)
    fail(path,
         "corrupt (a compact file of a game with " + std::to_string(game.num_rounds) + " rounds)");
  for (const PackedRoundBuckets& r : packed)
    if (const std::string why = r.check(); !why.empty())
      fail(path, "corrupt embedded bucket array: " + why);
  if (const std::string why = river.check(); !why.empty())
    fail(path, "corrupt river model: " + why);
  try {
    return std::make_shared<CompactBucketAbstraction>(std::move(packed), std::move(river),
                                                      std::move(exceptions), descriptor.hash,
                                                      descriptor.description);
  } catch (const std::invalid_argument& e) {
    fail(path, std::string("corrupt compact abstraction: ") + e.what());
  }
}

void CompactBody::expand(const Layout& layout, const BettingTree& tree,
                         const std::vector<std::int32_t>& buckets, int bits,
                         std::uint64_t body_size, const std::string& path,
                         std::vector<std::uint8_t>& values8,
                         std::vector<std::uint16_t>& values16) const {
  // Entropy-coded values can be far fewer bytes than values (a one-symbol context costs
  // nothing), so the layout, which the reader allocates, is bounded here instead: at most
  // 64 values a byte of body beyond 2^26 (a purified 169-9000^3 file holds about 4).
  const std::int64_t limit = 64 * static_cast<std::int64_t>(body_size) + (std::int64_t{1} << 26);
  if (layout.size > limit)
    fail(path, "corrupt (" + std::to_string(layout.size) + " probabilities in a body of " +
                   std::to_string(body_size) + " bytes)");
  const OwnPredecessors predecessors = own_predecessors(tree);
  const std::uint32_t total = (1U << bits) - 1;
  // Version 4 leaves out the sets its own play never reaches. Version 3 files come in two
  // shapes the header does not tell apart: every set stored (the writers before commit
  // e223095) or, as version 4, the unreached ones left out (e223095's): read as the first,
  // else as the second.
  const auto expand_as = [&](bool prune) -> std::string {
    if (bits <= 8)
      return decode_coded_values(frequencies, coded, layout, predecessors, tree.game().num_rounds,
                                 bits, version4, prune, values8);
    return with_unreached_and_last_values(stored16, layout, predecessors, prune, total, values16)
               ? ""
               : "16-bit values";
  };
  std::string why = expand_as(version4);
  if (!why.empty() && !version4 && expand_as(true).empty()) why.clear();
  if (!why.empty() && bits <= 8) fail(path, why);
  const bool ok = why.empty();
  if (layout.buckets != buckets || !ok)
    fail(path,
         "corrupt (strategy size does not match the game and abstraction, or an "
         "information set's stored probabilities exceed " +
             std::to_string(total) + "/" + std::to_string(total) + ")");
}

}  // namespace hulhe::strategy_file_internal
