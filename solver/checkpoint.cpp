#include "solver/checkpoint.h"

#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/bounded_input_archive.h"
#include "util/checksums.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/output_file.h"
#include "util/printable_text.h"

namespace hulhe {

template <typename Archive>
void serialize(Archive& ar, CfrParameters& p) {
  ar(p.algorithm, p.seed, p.dcfr_alpha, p.dcfr_beta, p.dcfr_gamma, p.cfr_plus_delay,
     p.outcome_epsilon, p.discount_interval, p.discount_until, p.average_delay, p.prune_after,
     p.prune_threshold, p.prune_probability, p.regret_floor);
}

namespace {

constexpr char kMagic[8] = {'H', 'U', 'L', 'H', 'E', 'C', 'K', 'P'};
constexpr std::size_t kHeaderSize = 8 + 4 + 8 + 8 + 8 + 8;
constexpr std::uint64_t kMaxCheckpointBytes = std::uint64_t{1} << 40;

template <typename T>
void put(std::string& out, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xffU));
}

template <typename T>
T get(const char* p) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return static_cast<T>(v);
}

// Every string of the body is checked against what it may be (the checksum only shows that
// the body is what some writer wrote).
void check_text_fields(const Checkpoint& c, const std::string& path) {
  auto corrupt = [&](const std::string& what, const std::string& value) {
    throw InputError("checkpoint " + path + " is corrupt: " + what + " '" + printable(value) + "'");
  };
  static constexpr const char* kAlgorithms[] = {"cfr",      "cfr+",    "dcfr", "cfr-br",
                                                "external", "outcome", "pcs"};
  bool known = false;
  for (const char* a : kAlgorithms) known = known || c.params.algorithm == a;
  if (!known) corrupt("unknown algorithm", c.params.algorithm);
  if (c.abstraction_kind != "lossless" && c.abstraction_kind != "buckets")
    corrupt("unknown abstraction kind", c.abstraction_kind);
  if (!is_plain_line(c.game_name, 255))
    corrupt("game name is not a plain line of text", c.game_name);
  if (!is_plain_line(c.bucket_map, 4096)) corrupt("bucket-map path", c.bucket_map);
  if (c.abstraction_kind == "lossless" && !c.bucket_map.empty())
    corrupt("bucket-map path of a lossless abstraction", c.bucket_map);
}

}  // namespace

GameDefinition Checkpoint::game() const {
  GameDefinition g = GameDefinition::from_string(game_text, "<checkpoint game>");
  g.name = game_name;
  return g;
}

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  std::ostringstream body_stream(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(body_stream);
    ar(c.game_text, c.game_name, c.abstraction_kind, c.bucket_map, c.iterations);
    CfrParameters params = c.params;
    ar(params);
    ar(static_cast<std::uint8_t>(c.tables.precision()));
    ar(c.tables);
    ar(c.algorithm_state);
  }
  const std::string body = body_stream.str();
  std::string header(kMagic, sizeof kMagic);
  put<std::uint32_t>(header, kCheckpointVersion);
  put<std::uint64_t>(header, c.game_hash);
  put<std::uint64_t>(header, c.abstraction_hash);
  put<std::uint64_t>(header, body.size());
  put<std::uint64_t>(header, fnv1a(body));

  // Temporary file, fsync, rename, folder fsync (util/output_file.h): a crash, kill -9 or
  // full disk never loses the last good checkpoint.
  write_output_file(path, "checkpoint", {header, body});
}

Checkpoint read_checkpoint(const std::string& path) {
  // Regular files only (a directory, device or fifo is refused by name, never read); the
  // bound only keeps runaway files out, as HULHE checkpoints of fine abstractions take GBs.
  const std::string data = read_input_file(path, "checkpoint", kMaxCheckpointBytes);
  if (data.size() < kHeaderSize || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) {
    if (data.size() >= 8 && std::memcmp(data.data(), kMagic, sizeof kMagic) == 0)
      throw InputError("checkpoint " + path + " is truncated (no complete header)");
    throw InputError(path + " is not a hulhe checkpoint (bad magic)");
  }
  const char* p = data.data() + 8;
  const auto version = get<std::uint32_t>(p);
  if (version < kCheckpointVersionFloat32 || version > kCheckpointVersion)
    throw InputError("checkpoint " + path + " has format version " + std::to_string(version) +
                     "; this hulhe reads versions " + std::to_string(kCheckpointVersionFloat32) +
                     " to " + std::to_string(kCheckpointVersion));
  Checkpoint c;
  c.game_hash = get<std::uint64_t>(p + 4);
  c.abstraction_hash = get<std::uint64_t>(p + 12);
  const auto size = get<std::uint64_t>(p + 20);
  const auto checksum = get<std::uint64_t>(p + 28);
  if (data.size() - kHeaderSize != size)
    throw InputError("checkpoint " + path + " is truncated or has trailing bytes (body of " +
                     std::to_string(data.size() - kHeaderSize) + " bytes, header says " +
                     std::to_string(size) + ")");
  const std::string_view body(data.data() + kHeaderSize, size);
  if (fnv1a(body) != checksum)
    throw InputError("checkpoint " + path + " is corrupt (checksum mismatch)");
  try {
    // Every length prefix is checked against the bytes that remain (a crafted body cannot
    // make the reader allocate more than the file's size).
    BoundedInputArchive ar(body, "checkpoint " + path);
    ar(c.game_text, c.game_name, c.abstraction_kind, c.bucket_map, c.iterations);
    ar(c.params);
    TablePrecision precision = TablePrecision::kFloat32;  // version 2: float32 only
    if (version >= 3) {
      std::uint8_t bits = 0;
      ar(bits);
      if (bits != 32 && bits != 64)
        throw InputError("checkpoint " + path + " is corrupt (table precision of " +
                         std::to_string(bits) + " bits; 32 or 64 expected)");
      precision = static_cast<TablePrecision>(bits);
    }
    c.tables.prepare_load(precision, version);
    ar(c.tables);
    if (version >= 5) ar(c.algorithm_state);
    if (ar.remaining() != 0)
      throw InputError("checkpoint " + path + " is corrupt (" + std::to_string(ar.remaining()) +
                       " bytes after the tables)");
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError("checkpoint " + path + " is corrupt: " + e.what());
  }
  check_text_fields(c, path);
  if (c.game().hash() != c.game_hash)
    throw InputError("checkpoint " + path + " is corrupt (game hash does not match its game)");
  return c;
}

void check_checkpoint_matches(const Checkpoint& c, const std::string& path,
                              const GameDefinition& game, const CardAbstraction& abstraction) {
  if (c.game_hash != game.hash())
    throw InputError("checkpoint " + path + " is of another game (game hash " + hex64(c.game_hash) +
                     ", '" + c.game_name + "'), not of '" + game.name + "' (" + hex64(game.hash()) +
                     ")");
  if (c.abstraction_hash != abstraction.hash())
    throw InputError("checkpoint " + path + " was built with another abstraction (hash " +
                     hex64(c.abstraction_hash) + ", expected " + hex64(abstraction.hash()) + ": " +
                     abstraction.describe() + ")");
  // The checksum only shows the body is what was written, not that a writer (or an editor
  // who recomputed it) wrote tables of the right shape: indexing them would go out of bounds.
  const BettingTree tree(game);
  if (const std::string why = c.tables.shape_mismatch(tree, abstraction); !why.empty())
    throw InputError("checkpoint " + path +
                     " has tables of another shape than its game and "
                     "abstraction: " +
                     why);
}

std::uint64_t file_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return fnv1a(data);
}

}  // namespace hulhe
