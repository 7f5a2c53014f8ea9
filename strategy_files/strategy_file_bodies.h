#pragma once
// The format-specific part of a strategy file's body (strategy_file.h), after the fields
// every version shares (game, abstraction descriptor, export metadata, bucket counts):
// format version 2 (strategy_file_plain.cpp) and the compact versions 3 and 4
// (strategy_file_compact.cpp). strategy_file.cpp writes and checks the header and the shared
// fields. Internal to strategy_files/.
#include <cereal/archives/portable_binary.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "abstraction/policy.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "strategy_files/compact_bucket_abstraction.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "strategy_files/strategy_file_layout.h"
#include "util/bounded_input_archive.h"

namespace hulhe::strategy_file_internal {

// ---- Format version 2: every value, and for kind "buckets" the bit-packed arrays.

// `packed`: the abstraction's arrays (kind "buckets"), or empty (lossless).
void write_plain_body(cereal::PortableBinaryOutputArchive& ar, const Policy& policy,
                      const Layout& layout, int bits, const std::string& kind,
                      std::vector<PackedRoundBuckets>& packed);

struct PlainBody {
  std::vector<PackedRoundBuckets> packed;

  // Reads the values (into values8 for bits <= 8, else values16) and the arrays.
  void read(BoundedInputArchive& ar, const std::string& path, int bits, const std::string& kind,
            std::vector<std::uint8_t>& values8, std::vector<std::uint16_t>& values16);
  // The abstraction of a "buckets" file from its arrays.
  std::shared_ptr<const CardAbstraction> abstraction(const GameDefinition& game,
                                                     const AbstractionDescriptor& descriptor,
                                                     const std::string& path);
};

// ---- Compact versions 4 (written) and 3 (still read): the values without each set's last
// (entropy-coded at 8 bits or fewer), the preflop, flop and turn arrays, the OCHS river model.

void write_compact_body(cereal::PortableBinaryOutputArchive& ar, const Policy& policy,
                        const Layout& layout, int bits, const CompactBucketAbstraction& compact);

struct CompactBody {
  // Version 4 (else 3): unreached sets left out, values coded under the previous value's
  // bin, the arrays rANS-coded.
  bool version4 = true;
  std::vector<std::uint16_t> frequencies;  // 8-bit: the entropy coder's model and stream
  std::vector<std::uint8_t> coded;
  std::vector<std::uint16_t> stored16;  // 16-bit: the values as stored
  std::vector<PackedRoundBuckets> packed;
  OchsRiverModel river;
  RiverExceptions exceptions;

  void read(BoundedInputArchive& ar, const std::string& path, int bits);
  std::shared_ptr<const CardAbstraction> abstraction(const GameDefinition& game,
                                                     const AbstractionDescriptor& descriptor,
                                                     const std::string& path);
  // Expands the stored values to every value of `layout` (values8 for bits <= 8, else
  // values16); `buckets` are the body's bucket counts, `body_size` its bytes.
  void expand(const Layout& layout, const BettingTree& tree,
              const std::vector<std::int32_t>& buckets, int bits, std::uint64_t body_size,
              const std::string& path, std::vector<std::uint8_t>& values8,
              std::vector<std::uint16_t>& values16) const;
};

}  // namespace hulhe::strategy_file_internal
