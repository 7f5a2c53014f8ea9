#pragma once
// Crafted Kuhn strategy files (lossless abstraction, 8-bit values) with a matching header:
// the bytes a test needs to reach the strategy-file reader's body checks. Shared by the
// reader's crafted-input tests and the CLI robustness tests.
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "abstraction/bucket_map.h"
#include "abstraction/lossless_abstraction.h"
#include "game/game_definition.h"
#include "strategy_files/strategy_file.h"

namespace hulhe::testing {

// `bytes` little-endian bytes of v.
inline void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

class CraftedKuhnStrategy {
 public:
  explicit CraftedKuhnStrategy(const GameDefinition& kuhn) : kuhn_(kuhn), abstraction_(kuhn) {}

  // The file around `body`: header hashes, size and checksum all match.
  std::string file_around(const std::string& body) const {
    std::string file = "HULHESTR";
    put_le(file, kStrategyFileVersion, 4);
    put_le(file, kuhn_.hash(), 8);
    put_le(file, 0, 8);
    put_le(file, body.size(), 8);
    put_le(file, checksum64(body.data(), body.size()), 8);
    put_le(file, abstraction_.hash(), 8);
    put_le(file, 8, 4);
    return file + body;
  }
  // The body's text fields, as the writer writes them unless a test edits them.
  struct TextFields {
    std::string game_name;
    std::string kind = "lossless";
    std::string algorithm = "cfr+";
    std::string bucket_map;
  };
  TextFields text_fields() const {
    TextFields t;
    t.game_name = kuhn_.name;
    return t;
  }
  // The body's fields as the writer writes them, up to the bucket counts.
  std::string body_head(const std::vector<std::int32_t>& buckets) const {
    return body_head(buckets, text_fields());
  }
  std::string body_head(const std::vector<std::int32_t>& buckets, const TextFields& text) const {
    std::ostringstream os(std::ios::binary);
    {
      cereal::PortableBinaryOutputArchive ar(os);
      AbstractionDescriptor descriptor{text.kind, abstraction_.hash(), abstraction_.describe(),
                                       text.bucket_map};
      ar(kuhn_.to_acpc_string(), text.game_name, descriptor, text.algorithm, std::int64_t{5},
         buckets);
    }
    return os.str();
  }
  // A whole body: head, the announced value count, then `values` values (pairs summing to
  // 255).
  std::string body(const std::vector<std::int32_t>& buckets, std::size_t values,
                   std::uint64_t announced) const {
    std::string b = body_head(buckets);
    put_le(b, announced, 8);
    for (std::size_t i = 0; i < values; ++i) b.push_back(static_cast<char>(i % 2 == 0 ? 200 : 55));
    return b;
  }

 private:
  const GameDefinition& kuhn_;
  LosslessAbstraction abstraction_;
};

}  // namespace hulhe::testing
