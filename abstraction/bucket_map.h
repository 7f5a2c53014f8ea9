#pragma once
// Bucket maps (`*.buckets`): per round, canonical hand index (HandIndexer::holdem(round)) →
// bucket, with the cluster centres and the feature definition that produced them.
//
// File (cereal portable binary): magic "HULHEBKT", format version, the game definition's
// hash, the hash of the configuration it was built from, a checksum of the payload, then the
// payload. Written to a temporary file and renamed over the target, so a crash never leaves
// a half-written map. Any unreadable, truncated, corrupt or mismatched file is an InputError
// naming the file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "abstraction/features/hand_features.h"
#include "util/checksums.h"

namespace hulhe {

struct RoundBuckets {
  int round = 0;
  std::string method;  // lossless, ehs, distribution, potential, ochs
  std::int32_t num_buckets = 0;
  // One of the two holds the map: 16-bit entries when num_buckets <= 65536.
  std::vector<std::uint16_t> bucket16;
  std::vector<std::uint32_t> bucket32;
  FeatureMatrix centres;  // num_buckets x feature dims; empty for lossless
  std::string feature;    // human-readable feature definition (method and parameters)
  double cost = 0.0;      // within-cluster cost of the fit (0 for lossless)

  std::int64_t size() const {
    return static_cast<std::int64_t>(bucket16.empty() ? bucket32.size() : bucket16.size());
  }
  std::int32_t operator[](std::int64_t index) const {
    return bucket16.empty() ? static_cast<std::int32_t>(bucket32[index])
                            : static_cast<std::int32_t>(bucket16[index]);
  }
  // Stores `buckets` (values in [0, num_buckets)) in the narrowest width.
  void set_buckets(const std::vector<std::int32_t>& buckets);
  // Hands per bucket.
  std::vector<std::int64_t> counts() const;
};

struct BucketMap {
  static constexpr char kMagic[9] = "HULHEBKT";
  static constexpr std::uint32_t kFormatVersion = 1;

  std::uint64_t game_hash = 0;
  std::uint64_t source_hash = 0;  // of the configuration that built it
  std::string source;             // that configuration, as text
  std::vector<RoundBuckets> rounds;

  // Identifies this abstraction (checkpoint headers): game hash mixed with a checksum of
  // the whole content.
  std::uint64_t hash() const;

  void save(const std::string& path) const;
  // expected_game_hash: the game the caller plays; a map of another game is an InputError
  // naming `path` and `game_name`.
  static BucketMap load(const std::string& path,
                        std::optional<std::uint64_t> expected_game_hash = std::nullopt,
                        const std::string& game_name = "the game");
};

}  // namespace hulhe
