#pragma once
// The strategy file (`*.strategy`, DESIGN.md "Files"): what ships to a bot. Self-contained
// for small games, compact, read-only.
//
// Layout (all integers little-endian):
//   header, 44 bytes:  magic "HULHESTR" · u32 format version · u64 game-definition hash ·
//                      u64 hash of the checkpoint it was exported from · u64 body size ·
//                      u64 FNV-1a checksum of the body
//   body (cereal portable binary):
//     the game definition in ACPC text (the reader needs nothing else for small games),
//     the abstraction descriptor (kind, hash, description, bucket-map reference),
//     export metadata (algorithm, iterations),
//     per round the bucket count, then one byte per (information set, action) in the
//     solver tables' order (round, node, bucket, action): the average strategy normalised
//     and quantised to 8 bits, q(a)/255, with Σ_a q(a) = 255 exactly at every information set.
//
// Quantisation (largest-remainder / Hamilton apportionment): q(a) = ⌊255·p(a)⌋, then the
// 255 − Σ⌊·⌋ missing units go to the actions with the largest remainders (ties to the lower
// slot). Each q(a)/255 is within 1/255 of p(a), the sum is exact, and re-quantising q/255
// gives q back, so reading and re-writing a file reproduces it byte for byte.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "solver/policy.h"

namespace hulhe {

inline constexpr std::uint32_t kStrategyFileVersion = 1;

// Which card abstraction the strategy is in. "lossless": every distinct hand is its own
// bucket (small games), rebuilt from the game definition alone. Clustered abstractions will
// name their bucket-map file in `bucket_map` (kind "buckets").
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
};

// Largest-remainder quantisation of a distribution (normalised first) into bytes summing to
// exactly 255. p.size() == out.size() in 1..16 (else std::invalid_argument); an all-zero p
// becomes uniform.
void quantize_probabilities(std::span<const double> p, std::span<std::uint8_t> out);

// Writes `policy`'s strategy at every information set of its tree and abstraction,
// atomically: to `path`.tmp, flushed, then renamed over `path`. Throws InputError if the
// file cannot be written.
void write_strategy_file(const std::string& path, const Policy& policy,
                         const StrategyFileMetadata& metadata);

class StrategyFile final : public Policy {
 public:
  // Reads and checks a strategy file; the abstraction is rebuilt from its descriptor
  // (lossless only, for now). Throws InputError naming the file for a missing, foreign,
  // wrong-version, truncated or corrupt file.
  static StrategyFile read(const std::string& path);
  // Same, with the abstraction supplied by the caller (clustered abstractions); its hash
  // must match the file's.
  static StrategyFile read(const std::string& path,
                           std::shared_ptr<const CardAbstraction> abstraction);

  const BettingTree& tree() const override { return *tree_; }
  const CardAbstraction& abstraction() const override { return *abstraction_; }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override;

  // The quantised strategy at an information set (sums to 255).
  std::span<const std::uint8_t> quantized(int round, std::int32_t node, std::int32_t bucket) const {
    const std::int64_t off = offset(round, node, bucket);
    return {values_.data() + off, static_cast<std::size_t>(num_actions_[round][node])};
  }
  // An action slot drawn with probability q(a)/255 from 32 bits of `rng`.
  template <typename Urbg>
  int sample_action(int round, std::int32_t node, std::int32_t bucket, Urbg& rng) const {
    const auto bits = static_cast<std::uint32_t>(rng());
    return sample_action_from_bits(round, node, bucket, bits);
  }
  // The slot whose cumulative interval of [0, 255) contains ⌊bits·255 / 2^32⌋.
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
  std::vector<std::uint8_t> values_;
};

}  // namespace hulhe
