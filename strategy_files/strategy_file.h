#pragma once
// The strategy file (`*.strategy`, DESIGN.md "Files"): what ships to a bot. One
// self-contained file for every game: small games rebuild their lossless abstraction from the
// game definition, HULHE strategies carry their bucket arrays. Compact, read-only.
//
// Layout, format version 2 (all integers little-endian):
//   header, 56 bytes:  magic "HULHESTR" · u32 format version · u64 game-definition hash ·
//                      u64 hash of the checkpoint it was exported from (0: none) ·
//                      u64 body size · u64 checksum of the body (checksum64) ·
//                      u64 abstraction hash · u32 bits per probability B (2 to 8, or 16)
//   body (cereal portable binary):
//     the game definition in ACPC text (the reader needs nothing else for small games) and
//     its name,
//     the abstraction descriptor (kind, hash, description, bucket-map file it came from),
//     export metadata (algorithm, iterations),
//     per round the bucket count, then one value per (information set, action), a byte for
//     B <= 8 and two for 16, in the solver tables' order (round, node, bucket, action): the
//     average strategy normalised and quantised, q(a)/Q with Q = 2^B - 1 (255 at 8 bits,
//     65535 at 16) and Σ_a q(a) = Q exactly at every information set,
//     kind "buckets" only: per round the bit-packed canonical-hand → bucket array
//     (strategy_files/packed_bucket_abstraction.h).
//
// Format version 4, the compact HULHE file (`hulhe export --compact`): the same header and
// body fields, but the abstraction kind is "compact"; each information set stores its values
// but the last (which is Q minus the others), and files of B <= 8 entropy-code them: per
// context 256 frequencies, then one rANS stream (util/static_rans.h), the context of a value
// being (round, actions at the node, slot) and, after a set's first slot, the top min(B, 4)
// bits of the set's previous value; 16-bit files store them plainly. Information sets that
// the strategy itself never reaches store nothing: within a round a player keeps its bucket,
// so a set whose betting needs an earlier action of the same player in the same round that
// the quantised strategy plays with probability 0 has realisation weight 0 against every
// opponent; the reader, which decodes sets in order (a node's earlier own decisions come
// first), knows them from the values it has read and gives them the uniform distribution's
// quantisation. The file plays the full file's actions wherever its own play goes. Instead of
// four bucket arrays it carries the preflop, flop and turn arrays (each hand's bucket rANS-coded
// as two bytes, the low one under its high byte's context), the OCHS river model
// (opponent cluster count, 169 preflop clusters, bucket count, centres as floats) and the
// river exceptions (ascending canonical indices and their buckets), from which the player
// computes river buckets (strategy_files/compact_bucket_abstraction.h). Reading expands
// everything to the same tables as a version 2 file's. Version 3, the compact file before
// version 4, is still read: contexts without the previous value, the arrays bit-packed as in
// version 2, and every information set stored (its writers before commit e223095) or, as in
// version 4, the unreached ones left out (e223095's): read as the first, else as the second.
// Version 2 files are read as before.
//
// Quantisation (largest-remainder / Hamilton apportionment): q(a) = ⌊Q·p(a)⌋, then the
// Q − Σ⌊·⌋ missing units go to the actions with the largest remainders (ties to the lower
// slot). Each q(a)/Q is within 1/Q of p(a), the sum is exact, and re-quantising q/Q gives q
// back, so reading and re-writing a file reproduces it byte for byte.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "abstraction/policy.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"

namespace hulhe {

inline constexpr std::uint32_t kStrategyFileVersion = 2;
inline constexpr std::uint32_t kCompactStrategyFileVersion = 4;
inline constexpr std::uint32_t kCompactStrategyFileVersion3 = 3;  // still read

class CompactBucketAbstraction;

// Which card abstraction the strategy is in. "lossless": every distinct hand is its own
// bucket (small games), rebuilt from the game definition alone. "buckets": a bucket map
// (`hulhe abstract`), whose bucket arrays the file embeds; `bucket_map` names the map file
// it came from, for people (the reader never opens it).
struct AbstractionDescriptor {
  std::string kind = "lossless";
  std::uint64_t hash = 0;   // CardAbstraction::hash()
  std::string description;  // CardAbstraction::describe()
  std::string bucket_map;

  template <typename Archive>
  void serialize(Archive& ar) {
    ar(kind, hash, description, bucket_map);
  }
};

struct StrategyFileMetadata {
  std::uint64_t checkpoint_hash = 0;  // 0: not exported from a checkpoint
  std::string algorithm;              // e.g. "cfr+"
  std::int64_t iterations = 0;
  std::string abstraction_kind = "lossless";
  std::string bucket_map;  // clustered abstractions: the bucket-map file
  int bits = 8;            // bits per probability: 2 to 8 (a byte a value), or 16
  bool compact = false;    // read back: a format version 3 file
};

// The bits per probability a strategy file can have: 2 to 8 (Q = 2^bits - 1, stored as bytes;
// fewer bits make smaller compact files at a cost in exploitability, docs/acpc-play.md) or 16.
inline constexpr bool supported_probability_bits(int bits) {
  return (bits >= 2 && bits <= 8) || bits == 16;
}

// Largest-remainder quantisation of a distribution (normalised first) into bytes summing to
// exactly 255. p.size() == out.size() in 1..16 (else std::invalid_argument); an all-zero p
// becomes uniform.
void quantize_probabilities(std::span<const double> p, std::span<std::uint8_t> out);
// The same into bytes summing to exactly 2^bits - 1 (bits 2 to 8).
void quantize_probabilities(std::span<const double> p, std::span<std::uint8_t> out, int bits);
// The same into 16-bit values summing to exactly 65535.
void quantize_probabilities(std::span<const double> p, std::span<std::uint16_t> out);
// p as a strategy file of `bits` (supported_probability_bits) stores and reads it back:
// quantised as the writer does, scaled as StrategyFile::action_probabilities does, in place.
void quantization_round_trip(std::span<double> p, int bits);

// Writes `policy`'s strategy at every information set of its tree and abstraction,
// atomically: to `path`.tmp, flushed, then renamed over `path`. The abstraction must be
// lossless, a ClusteredAbstraction (its bucket arrays are embedded) or a strategy file's
// PackedBucketAbstraction. Throws InputError if the file cannot be written, for unsupported
// bits, or for an abstraction that cannot be embedded.
// A policy whose abstraction is a CompactBucketAbstraction (a compact file read back) is
// written as a compact file.
void write_strategy_file(const std::string& path, const Policy& policy,
                         const StrategyFileMetadata& metadata);
// Writes `policy` as a compact file (format version 3) carrying `compact`, which must stand
// for policy.abstraction(): the same hash and bucket counts (else InputError). Every action
// the strategy can reach is the one the full file of the same policy and bits plays.
void write_compact_strategy_file(const std::string& path, const Policy& policy,
                                 const CompactBucketAbstraction& compact,
                                 const StrategyFileMetadata& metadata);

class StrategyFile final : public Policy {
 public:
  // Reads and checks a strategy file; the abstraction is rebuilt from the game (lossless) or
  // from the embedded bucket arrays. Throws InputError naming the file for a missing,
  // foreign, wrong-version, truncated or corrupt file.
  static StrategyFile read(const std::string& path);
  // Same, with the abstraction supplied by the caller; its hash must match the file's.
  static StrategyFile read(const std::string& path,
                           std::shared_ptr<const CardAbstraction> abstraction);

  const BettingTree& tree() const override { return *tree_; }
  const CardAbstraction& abstraction() const override { return *abstraction_; }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override;

  int bits() const { return bits_; }
  // Q: what the quantised values of an information set sum to (2^bits - 1).
  std::uint32_t quantum_total() const { return (1U << bits_) - 1; }
  // The quantised strategy at an information set of a file of 8 bits or fewer (sums to Q).
  std::span<const std::uint8_t> quantized(int round, std::int32_t node, std::int32_t bucket) const {
    const std::int64_t off = offset(round, node, bucket);
    return {values8_.data() + off, static_cast<std::size_t>(num_actions_[round][node])};
  }
  // The same of a 16-bit file (sums to 65535).
  std::span<const std::uint16_t> quantized16(int round, std::int32_t node,
                                             std::int32_t bucket) const {
    const std::int64_t off = offset(round, node, bucket);
    return {values16_.data() + off, static_cast<std::size_t>(num_actions_[round][node])};
  }
  // An action slot drawn with probability q(a)/Q from 32 bits of `rng`.
  template <typename Urbg>
  int sample_action(int round, std::int32_t node, std::int32_t bucket, Urbg& rng) const {
    const auto bits = static_cast<std::uint32_t>(rng());
    return sample_action_from_bits(round, node, bucket, bits);
  }
  // The slot whose cumulative interval of [0, Q) contains ⌊bits·Q / 2^32⌋.
  int sample_action_from_bits(int round, std::int32_t node, std::int32_t bucket,
                              std::uint32_t bits) const;

  const GameDefinition& game() const { return game_; }
  const AbstractionDescriptor& abstraction_descriptor() const { return descriptor_; }
  const StrategyFileMetadata& metadata() const { return metadata_; }
  const std::string& path() const { return path_; }

 private:
  StrategyFile() = default;
  static StrategyFile read_impl(const std::string& path,
                                std::shared_ptr<const CardAbstraction> abstraction);
  std::int64_t offset(int round, std::int32_t node, std::int32_t bucket) const {
    return node_offset_[round][node] +
           static_cast<std::int64_t>(bucket) * num_actions_[round][node];
  }

  std::string path_;
  GameDefinition game_;
  std::unique_ptr<BettingTree> tree_;
  std::shared_ptr<const CardAbstraction> abstraction_;
  AbstractionDescriptor descriptor_;
  StrategyFileMetadata metadata_;
  std::vector<std::vector<std::int64_t>> node_offset_;  // [round][node]
  std::vector<std::vector<std::uint8_t>> num_actions_;  // [round][node]
  int bits_ = 8;
  double scale_ = 1.0 / 255.0;           // 1 / Q
  std::vector<std::uint8_t> values8_;    // files of 8 bits or fewer
  std::vector<std::uint16_t> values16_;  // 16-bit files
};

}  // namespace hulhe
