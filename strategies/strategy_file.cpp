#include "strategies/strategy_file.h"

#include <unistd.h>

#include <algorithm>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "abstraction/lossless_abstraction.h"
#include "game/input_error.h"
#include "game/output_file.h"

namespace hulhe {
namespace {

constexpr char kMagic[8] = {'H', 'U', 'L', 'H', 'E', 'S', 'T', 'R'};
constexpr std::size_t kHeaderSize = 8 + 4 + 8 + 8 + 8 + 8;
constexpr std::size_t kMaxQuantizedActions = 16;

struct Header {
  std::uint32_t version = kStrategyFileVersion;
  std::uint64_t game_hash = 0;
  std::uint64_t checkpoint_hash = 0;
  std::uint64_t body_size = 0;
  std::uint64_t body_checksum = 0;
};

// FNV-1a, 64 bit: catches flipped or lost bytes in the body (not meant against malice).
std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(const std::string& in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

// Offsets of information sets in the tables' order: round, node, bucket, action.
struct Layout {
  std::vector<std::vector<std::int64_t>> node_offset;
  std::vector<std::vector<std::uint8_t>> num_actions;
  std::vector<std::int32_t> buckets;
  std::int64_t size = 0;
};

Layout make_layout(const BettingTree& tree, const CardAbstraction& abstraction) {
  Layout layout;
  const int rounds = tree.game().num_rounds;
  layout.node_offset.resize(rounds);
  layout.num_actions.resize(rounds);
  for (int r = 0; r < rounds; ++r) {
    layout.buckets.push_back(abstraction.num_buckets(r));
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
      const int actions = tree.node(tree.decision_node(r, n)).num_actions;
      layout.node_offset[r].push_back(layout.size);
      layout.num_actions[r].push_back(static_cast<std::uint8_t>(actions));
      layout.size += static_cast<std::int64_t>(abstraction.num_buckets(r)) * actions;
    }
  }
  return layout;
}

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw InputError("strategy file " + path + ": " + why);
}

}  // namespace

void quantize_probabilities(std::span<const double> p, std::span<std::uint8_t> out) {
  const std::size_t n = p.size();
  if (n == 0 || n > kMaxQuantizedActions || out.size() != n)
    throw std::invalid_argument("quantize_probabilities: 1 to 16 actions, matching sizes");
  double total = 0.0;
  for (double x : p) total += x > 0.0 ? x : 0.0;
  double scaled[kMaxQuantizedActions];
  std::size_t order[kMaxQuantizedActions];
  int assigned = 0;
  for (std::size_t a = 0; a < n; ++a) {
    const double share = total > 0.0 ? std::max(p[a], 0.0) / total : 1.0 / static_cast<double>(n);
    scaled[a] = share * 255.0;
    const double whole = std::min(std::floor(scaled[a]), 255.0);
    out[a] = static_cast<std::uint8_t>(whole);
    scaled[a] -= whole;  // the remainder
    assigned += out[a];
    order[a] = a;
  }
  // Hand the missing units to the largest remainders; stable sort breaks ties by slot.
  std::stable_sort(order, order + n,
                   [&](std::size_t x, std::size_t y) { return scaled[x] > scaled[y]; });
  for (std::size_t k = 0; assigned < 255; k = (k + 1) % n, ++assigned) ++out[order[k]];
}

void write_strategy_file(const std::string& path, const Policy& policy,
                         const StrategyFileMetadata& metadata) {
  const BettingTree& tree = policy.tree();
  const CardAbstraction& abstraction = policy.abstraction();
  const Layout layout = make_layout(tree, abstraction);

  std::vector<std::uint8_t> values(static_cast<std::size_t>(layout.size));
  double probabilities[kNumActionKinds];
  for (int r = 0; r < tree.game().num_rounds; ++r)
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
      const int actions = layout.num_actions[r][n];
      for (std::int32_t b = 0; b < layout.buckets[r]; ++b) {
        policy.action_probabilities(r, n, b, std::span<double>(probabilities, actions));
        const std::int64_t off = layout.node_offset[r][n] + static_cast<std::int64_t>(b) * actions;
        quantize_probabilities(std::span<const double>(probabilities, actions),
                               std::span<std::uint8_t>(values.data() + off, actions));
      }
    }

  AbstractionDescriptor descriptor{metadata.abstraction_kind, abstraction.hash(),
                                   abstraction.describe(), metadata.bucket_map};
  std::ostringstream body_stream;
  {
    cereal::PortableBinaryOutputArchive ar(body_stream);
    ar(tree.game().to_acpc_string(), descriptor, metadata.algorithm, metadata.iterations,
       layout.buckets, values);
  }
  const std::string body = body_stream.str();

  std::string bytes(kMagic, sizeof kMagic);
  put_le(bytes, kStrategyFileVersion, 4);
  put_le(bytes, tree.game().hash(), 8);
  put_le(bytes, metadata.checkpoint_hash, 8);
  put_le(bytes, body.size(), 8);
  put_le(bytes, fnv1a(body), 8);
  bytes += body;

  // Temporary file, fsync, rename, folder fsync (game/output_file.h): a crash never leaves
  // a half-written file under `path`.
  write_output_file(path, "strategy file", {bytes});
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
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open it");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    fail(path, "not a hulhe strategy file (bad magic)");
  if (bytes.size() < kHeaderSize) fail(path, "truncated header");
  Header header;
  header.version = static_cast<std::uint32_t>(get_le(bytes, 8, 4));
  header.game_hash = get_le(bytes, 12, 8);
  header.checkpoint_hash = get_le(bytes, 20, 8);
  header.body_size = get_le(bytes, 28, 8);
  header.body_checksum = get_le(bytes, 36, 8);
  if (header.version != kStrategyFileVersion)
    fail(path, "format version " + std::to_string(header.version) + ", this hulhe reads version " +
                   std::to_string(kStrategyFileVersion));
  if (bytes.size() - kHeaderSize < header.body_size)
    fail(path, "truncated (" + std::to_string(bytes.size()) + " bytes, header promises " +
                   std::to_string(kHeaderSize + header.body_size) + ")");
  if (bytes.size() - kHeaderSize > header.body_size)
    fail(path, "corrupt (trailing bytes after the body)");
  const std::string_view body(bytes.data() + kHeaderSize, header.body_size);
  if (fnv1a(body) != header.body_checksum) fail(path, "corrupt (body checksum mismatch)");

  StrategyFile file;
  file.path_ = path;
  file.metadata_.checkpoint_hash = header.checkpoint_hash;
  std::string game_text;
  std::vector<std::int32_t> buckets;
  try {
    std::istringstream body_stream{std::string(body)};
    cereal::PortableBinaryInputArchive ar(body_stream);
    ar(game_text, file.descriptor_, file.metadata_.algorithm, file.metadata_.iterations, buckets,
       file.values_);
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt body: ") + e.what());
  }
  file.metadata_.abstraction_kind = file.descriptor_.kind;
  file.metadata_.bucket_map = file.descriptor_.bucket_map;

  try {
    file.game_ = GameDefinition::from_string(game_text, path);
  } catch (const InputError& e) {
    fail(path, std::string("bad game definition: ") + e.what());
  }
  if (file.game_.hash() != header.game_hash)
    fail(path, "corrupt (game definition does not match the header's game hash)");
  file.tree_ = std::make_unique<BettingTree>(file.game_);

  if (abstraction == nullptr) {
    if (file.descriptor_.kind != "lossless")
      fail(path, "abstraction '" + file.descriptor_.kind + "' (" + file.descriptor_.description +
                     ") must be supplied by the caller");
    abstraction = std::make_shared<LosslessAbstraction>(file.game_);
  }
  if (abstraction->hash() != file.descriptor_.hash)
    fail(path, "made with abstraction " + file.descriptor_.description + ", which does not match " +
                   abstraction->describe());
  file.abstraction_ = std::move(abstraction);

  Layout layout = make_layout(*file.tree_, *file.abstraction_);
  if (layout.buckets != buckets || static_cast<std::int64_t>(file.values_.size()) != layout.size)
    fail(path, "corrupt (strategy size does not match the game and abstraction)");
  for (int r = 0; r < file.game_.num_rounds; ++r)
    for (std::size_t n = 0; n < layout.node_offset[r].size(); ++n) {
      const int actions = layout.num_actions[r][n];
      for (std::int32_t b = 0; b < layout.buckets[r]; ++b) {
        const std::uint8_t* q =
            file.values_.data() + layout.node_offset[r][n] + static_cast<std::int64_t>(b) * actions;
        if (std::accumulate(q, q + actions, 0) != 255)
          fail(path, "corrupt (an information set's probabilities do not sum to 255/255)");
      }
    }
  file.node_offset_ = std::move(layout.node_offset);
  file.num_actions_ = std::move(layout.num_actions);
  return file;
}

void StrategyFile::action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                                        std::span<double> out) const {
  const std::uint8_t* q = values_.data() + offset(round, node, bucket);
  for (std::size_t a = 0; a < out.size(); ++a) out[a] = q[a] * (1.0 / 255.0);
}

int StrategyFile::sample_action_from_bits(int round, std::int32_t node, std::int32_t bucket,
                                          std::uint32_t bits) const {
  const std::uint8_t* q = values_.data() + offset(round, node, bucket);
  const int actions = num_actions_[round][node];
  // Uniform in [0, 255) by multiply-shift (Lemire 2019).
  int r = static_cast<int>((static_cast<std::uint64_t>(bits) * 255) >> 32);
  for (int a = 0; a < actions - 1; ++a) {
    if (r < q[a]) return a;
    r -= q[a];
  }
  return actions - 1;
}

}  // namespace hulhe
