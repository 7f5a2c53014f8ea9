// Format version 2 of the strategy file (strategy_file.h): the body's values and arrays.
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include "strategy_files/strategy_file_bodies.h"

namespace hulhe::strategy_file_internal {

void write_plain_body(cereal::PortableBinaryOutputArchive& ar, const Policy& policy,
                      const Layout& layout, int bits, const std::string& kind,
                      std::vector<PackedRoundBuckets>& packed) {
  const int total = (1 << bits) - 1;
  if (bits <= 8)
    ar(quantize_policy<std::uint8_t>(policy, layout, total));
  else
    ar(quantize_policy<std::uint16_t>(policy, layout, total));
  if (kind == "buckets") {
    ar(static_cast<std::uint32_t>(packed.size()));
    for (PackedRoundBuckets& r : packed) serialize_packed(ar, r);
  }
}

void PlainBody::read(BoundedInputArchive& ar, const std::string& path, int bits,
                     const std::string& kind, std::vector<std::uint8_t>& values8,
                     std::vector<std::uint16_t>& values16) {
  if (bits <= 8)
    ar(values8);
  else
    ar(values16);
  if (kind == "buckets") {
    std::uint32_t rounds = 0;
    ar(rounds);
    if (rounds > kMaxRounds) fail(path, "corrupt (embedded bucket arrays)");
    packed.resize(rounds);
    for (PackedRoundBuckets& r : packed) serialize_packed(ar, r);
  }
}

std::shared_ptr<const CardAbstraction> PlainBody::abstraction(
    const GameDefinition& game, const AbstractionDescriptor& descriptor, const std::string& path) {
  if (static_cast<int>(packed.size()) != game.num_rounds)
    fail(path, "corrupt (embedded bucket arrays for " + std::to_string(packed.size()) +
                   " rounds, the game has " + std::to_string(game.num_rounds) + ")");
  for (const PackedRoundBuckets& r : packed)
    if (const std::string why = r.check(); !why.empty())
      fail(path, "corrupt embedded bucket array: " + why);
  try {
    return std::make_shared<PackedBucketAbstraction>(std::move(packed), descriptor.hash,
                                                     descriptor.description);
  } catch (const std::invalid_argument& e) {
    fail(path, std::string("corrupt embedded bucket arrays: ") + e.what());
  }
}

}  // namespace hulhe::strategy_file_internal
