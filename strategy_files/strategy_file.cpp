#include "strategy_files/strategy_file.h"

#include <unistd.h>

#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "abstraction/clustered_abstraction.h"
#include "abstraction/lossless_abstraction.h"
#include "strategy_files/compact_bucket_abstraction.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "strategy_files/strategy_file_bodies.h"
#include "strategy_files/strategy_file_layout.h"
#include "util/bounded_input_archive.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/output_file.h"
#include "util/printable_text.h"

// The header, the fields every format version shares, and the choice of the body's format:
// version 2 in strategy_file_plain.cpp, the compact versions 3 and 4 in
// strategy_file_compact.cpp, their value coding in strategy_value_coding.cpp.

namespace hulhe {

using namespace strategy_file_internal;

namespace {

constexpr char kMagic[8] = {'H', 'U', 'L', 'H', 'E', 'S', 'T', 'R'};
constexpr std::size_t kHeaderSize = 8 + 4 + 8 + 8 + 8 + 8 + 8 + 4;

struct Header {
  std::uint32_t version = kStrategyFileVersion;
  std::uint64_t game_hash = 0;
  std::uint64_t checkpoint_hash = 0;
  std::uint64_t body_size = 0;
  std::uint64_t body_checksum = 0;
  std::uint64_t abstraction_hash = 0;
  std::uint32_t bits = 8;
};

void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(const std::string& in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

// The writer of both formats: `compact` null writes version 2 (the abstraction lossless or
// embedded as four packed arrays, strategy_file_plain.cpp), else version 4 carrying `compact`
// (strategy_file_compact.cpp).
void write_file(const std::string& path, const Policy& policy,
                const CompactBucketAbstraction* compact, const StrategyFileMetadata& metadata) {
  const BettingTree& tree = policy.tree();
  const CardAbstraction& abstraction = policy.abstraction();
  if (!supported_probability_bits(metadata.bits))
    fail(path, "bits per probability must be 2 to 8 or 16, not " + std::to_string(metadata.bits));
  const Layout layout = make_layout(tree, abstraction);
  const int rounds = tree.game().num_rounds;

  // The abstraction travels with the strategy: lossless ones are rebuilt from the game,
  // bucket maps are embedded as packed arrays, or as a compact abstraction.
  AbstractionDescriptor descriptor{"lossless", abstraction.hash(), abstraction.describe(),
                                   metadata.bucket_map};
  std::vector<PackedRoundBuckets> packed;
  if (compact != nullptr) {
    descriptor.kind = "compact";
    if (compact->hash() != abstraction.hash() || rounds != compact->num_rounds() ||
        abstraction.num_rounds() != compact->num_rounds())
      fail(path, "the compact abstraction " + compact->describe() + " does not stand for " +
                     abstraction.describe());
    for (int r = 0; r < rounds; ++r)
      if (compact->num_buckets(r) != abstraction.num_buckets(r))
        fail(path, "the compact abstraction's round " + std::to_string(r) + " has " +
                       std::to_string(compact->num_buckets(r)) + " buckets, the strategy's " +
                       std::to_string(abstraction.num_buckets(r)));
  } else if (const auto* p = dynamic_cast<const PackedBucketAbstraction*>(&abstraction)) {
    descriptor.kind = "buckets";
    packed = p->rounds();
  } else if (const auto* c = dynamic_cast<const ClusteredAbstraction*>(&abstraction)) {
    descriptor.kind = "buckets";
    packed = PackedBucketAbstraction::from(*c).rounds();
  } else if (dynamic_cast<const LosslessAbstraction*>(&abstraction) == nullptr) {
    fail(path, "cannot embed abstraction " + abstraction.describe() +
                   " (neither lossless nor a bucket map)");
  }

  std::ostringstream body_stream;
  {
    cereal::PortableBinaryOutputArchive ar(body_stream);
    ar(tree.game().to_acpc_string(), tree.game().name, descriptor, metadata.algorithm,
       metadata.iterations, layout.buckets);
    if (compact != nullptr)
      write_compact_body(ar, policy, layout, metadata.bits, *compact);
    else
      write_plain_body(ar, policy, layout, metadata.bits, descriptor.kind, packed);
  }
  const std::string body = std::move(body_stream).str();

  std::string bytes(kMagic, sizeof kMagic);
  put_le(bytes, compact != nullptr ? kCompactStrategyFileVersion : kStrategyFileVersion, 4);
  put_le(bytes, tree.game().hash(), 8);
  put_le(bytes, metadata.checkpoint_hash, 8);
  put_le(bytes, body.size(), 8);
  put_le(bytes, checksum64(body.data(), body.size()), 8);
  put_le(bytes, abstraction.hash(), 8);
  put_le(bytes, static_cast<std::uint64_t>(metadata.bits), 4);

  // Temporary file, fsync, rename, folder fsync (util/output_file.h): a crash never leaves
  // a half-written file under `path`.
  write_output_file(path, "strategy file", {bytes, body});
}

}  // namespace

void write_strategy_file(const std::string& path, const Policy& policy,
                         const StrategyFileMetadata& metadata) {
  write_file(path, policy, dynamic_cast<const CompactBucketAbstraction*>(&policy.abstraction()),
             metadata);
}

void write_compact_strategy_file(const std::string& path, const Policy& policy,
                                 const CompactBucketAbstraction& compact,
                                 const StrategyFileMetadata& metadata) {
  write_file(path, policy, &compact, metadata);
}

StrategyFile StrategyFile::read(const std::string& path) {
  return read_impl(path, nullptr);
}

StrategyFile StrategyFile::read(const std::string& path,
                                std::shared_ptr<const CardAbstraction> abstraction) {
  if (abstraction == nullptr) fail(path, "no card abstraction given");
  return read_impl(path, std::move(abstraction));
}

StrategyFile StrategyFile::read_impl(const std::string& path,
                                     std::shared_ptr<const CardAbstraction> abstraction) {
  // Regular files only (a directory, device or fifo is refused by name, never read).
  const std::string bytes = read_input_file(path, "strategy file", std::uint64_t{1} << 40);
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    fail(path, "not a hulhe strategy file (bad magic)");
  if (bytes.size() < 12) fail(path, "truncated header");
  Header header;
  header.version = static_cast<std::uint32_t>(get_le(bytes, 8, 4));
  if (header.version != kStrategyFileVersion && header.version != kCompactStrategyFileVersion3 &&
      header.version != kCompactStrategyFileVersion)
    fail(path, "format version " + std::to_string(header.version) + ", this hulhe reads versions " +
                   std::to_string(kStrategyFileVersion) + " to " +
                   std::to_string(kCompactStrategyFileVersion) +
                   " (export it again with this hulhe)");
  const bool compact = header.version != kStrategyFileVersion;
  // Version 3 (the compact files before version 4) stores every information set, each value
  // under its (round, actions, slot) context alone.
  const bool version4 = header.version == kCompactStrategyFileVersion;
  if (bytes.size() < kHeaderSize) fail(path, "truncated header");
  header.game_hash = get_le(bytes, 12, 8);
  header.checkpoint_hash = get_le(bytes, 20, 8);
  header.body_size = get_le(bytes, 28, 8);
  header.body_checksum = get_le(bytes, 36, 8);
  header.abstraction_hash = get_le(bytes, 44, 8);
  header.bits = static_cast<std::uint32_t>(get_le(bytes, 52, 4));
  if (!supported_probability_bits(static_cast<int>(header.bits)))
    fail(path, "corrupt header (" + std::to_string(header.bits) + " bits per probability)");
  if (bytes.size() - kHeaderSize < header.body_size)
    fail(path, "truncated (" + std::to_string(bytes.size()) + " bytes, header promises " +
                   std::to_string(kHeaderSize + header.body_size) + ")");
  if (bytes.size() - kHeaderSize > header.body_size)
    fail(path, "corrupt (trailing bytes after the body)");
  const char* body = bytes.data() + kHeaderSize;
  if (checksum64(body, header.body_size) != header.body_checksum)
    fail(path, "corrupt (body checksum mismatch)");

  StrategyFile file;
  file.path_ = path;
  file.bits_ = static_cast<int>(header.bits);
  file.scale_ = 1.0 / static_cast<double>(file.quantum_total());
  file.metadata_.checkpoint_hash = header.checkpoint_hash;
  file.metadata_.bits = file.bits_;
  file.metadata_.compact = compact;
  std::string game_text, game_name;
  std::vector<std::int32_t> buckets;
  PlainBody plain;
  CompactBody compact_body;
  compact_body.version4 = version4;
  try {
    // Every length prefix is checked against the bytes that remain: a crafted body cannot
    // make the reader allocate more than the file's size.
    BoundedInputArchive ar(std::string_view(body, header.body_size), "strategy file " + path);
    ar(game_text, game_name, file.descriptor_, file.metadata_.algorithm, file.metadata_.iterations,
       buckets);
    if ((file.descriptor_.kind == "compact") != compact)
      fail(path, "corrupt (abstraction kind '" + printable(file.descriptor_.kind) +
                     "' in a format version " + std::to_string(header.version) + " file)");
    if (compact)
      compact_body.read(ar, path, file.bits_);
    else
      plain.read(ar, path, file.bits_, file.descriptor_.kind, file.values8_, file.values16_);
    if (ar.remaining() != 0) fail(path, "corrupt (bytes after the strategy)");
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt body: ") + e.what());
  }
  // Every string of the body is checked against what it may be (the checksum only shows that
  // the body is what some writer wrote); messages show the offending bytes escaped.
  if (file.descriptor_.kind != "lossless" && file.descriptor_.kind != "buckets" &&
      file.descriptor_.kind != "compact")
    fail(path, "unknown abstraction kind '" + printable(file.descriptor_.kind) + "'");
  const std::pair<const char*, const std::string*> fields[] = {
      {"game name", &game_name},
      {"algorithm", &file.metadata_.algorithm},
      {"abstraction description", &file.descriptor_.description},
      {"bucket-map path", &file.descriptor_.bucket_map}};
  for (const auto& [what, text] : fields)
    if (!is_plain_line(*text, 4096))
      fail(path, std::string("corrupt: ") + what + " is not a plain line of text '" +
                     printable(*text) + "'");
  file.metadata_.abstraction_kind = file.descriptor_.kind;
  file.metadata_.bucket_map = file.descriptor_.bucket_map;
  if (file.descriptor_.hash != header.abstraction_hash)
    fail(path, "corrupt (abstraction hash differs between header and body)");

  try {
    file.game_ = GameDefinition::from_string(game_text, path);
    file.game_.name = game_name;
  } catch (const InputError& e) {
    fail(path, std::string("bad game definition: ") + e.what());
  }
  if (file.game_.hash() != header.game_hash)
    fail(path, "corrupt (game definition does not match the header's game hash)");
  file.tree_ = std::make_unique<BettingTree>(file.game_);

  if (abstraction == nullptr) {
    if (file.descriptor_.kind == "lossless") {
      abstraction = std::make_shared<LosslessAbstraction>(file.game_);
    } else if (file.descriptor_.kind == "compact") {
      abstraction = compact_body.abstraction(file.game_, file.descriptor_, path);
    } else if (file.descriptor_.kind == "buckets") {
      abstraction = plain.abstraction(file.game_, file.descriptor_, path);
    } else {
      fail(path, "unknown abstraction kind '" + file.descriptor_.kind + "'");
    }
  }
  if (abstraction->hash() != file.descriptor_.hash)
    fail(path, "made with abstraction " + file.descriptor_.description + ", which does not match " +
                   abstraction->describe());
  file.abstraction_ = std::move(abstraction);

  Layout layout = make_layout(*file.tree_, *file.abstraction_);
  if (compact)
    compact_body.expand(layout, *file.tree_, buckets, file.bits_, header.body_size, path,
                        file.values8_, file.values16_);
  const std::size_t stored = file.bits_ <= 8 ? file.values8_.size() : file.values16_.size();
  if (layout.buckets != buckets || static_cast<std::int64_t>(stored) != layout.size)
    fail(path, "corrupt (strategy size does not match the game and abstraction)");
  const bool exact = file.bits_ <= 8 ? sums_are_exact(file.values8_, layout, file.quantum_total())
                                     : sums_are_exact(file.values16_, layout, file.quantum_total());
  if (!exact)
    fail(path, "corrupt (an information set's probabilities do not sum to " +
                   std::to_string(file.quantum_total()) + "/" +
                   std::to_string(file.quantum_total()) + ")");
  file.node_offset_ = std::move(layout.node_offset);
  file.num_actions_ = std::move(layout.num_actions);
  return file;
}

void StrategyFile::action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                                        std::span<double> out) const {
  const std::int64_t off = offset(round, node, bucket);
  if (bits_ <= 8) {
    for (std::size_t a = 0; a < out.size(); ++a) out[a] = values8_[off + a] * scale_;
  } else {
    for (std::size_t a = 0; a < out.size(); ++a) out[a] = values16_[off + a] * scale_;
  }
}

int StrategyFile::sample_action_from_bits(int round, std::int32_t node, std::int32_t bucket,
                                          std::uint32_t bits) const {
  const std::int64_t off = offset(round, node, bucket);
  const int actions = num_actions_[round][node];
  // Uniform in [0, Q) by multiply-shift (Lemire 2019).
  std::uint32_t r =
      static_cast<std::uint32_t>((static_cast<std::uint64_t>(bits) * quantum_total()) >> 32);
  for (int a = 0; a < actions - 1; ++a) {
    const std::uint32_t q = bits_ <= 8 ? values8_[off + a] : values16_[off + a];
    if (r < q) return a;
    r -= q;
  }
  return actions - 1;
}

}  // namespace hulhe
