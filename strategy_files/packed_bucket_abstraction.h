#pragma once
// The card abstraction a HULHE strategy file carries inside itself: per round, canonical hand
// index (HandIndexer::holdem(round), Waugh 2013) → bucket, bit-packed at ⌈log2 buckets⌉ bits
// an entry (50 buckets: 6 bits, 123,156,254 river hands in 92 MB instead of 246 MB at 16
// bits). Playing a hand costs one hand index and one unaligned 8-byte load per round.
//
// It is the bucket arrays of a bucket map (`hulhe abstract`) without the cluster centres and
// feature definitions, which only building needs; it keeps the map's hash and description, so
// a strategy file read back matches the checkpoint and bucket map it came from.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "abstraction/card_abstraction.h"

namespace hulhe {

class ClusteredAbstraction;

// One round's bucket array, `width` bits an entry, little-endian bit order, followed by
// 8 zero bytes so that every entry can be read with one 8-byte load.
struct PackedRoundBuckets {
  std::int32_t num_buckets = 0;
  std::int64_t num_hands = 0;
  std::uint8_t width = 0;
  std::vector<std::uint8_t> bytes;

  // Bits an entry for `num_buckets` buckets: ⌈log2 num_buckets⌉, at least 1.
  static std::uint8_t width_for(std::int32_t num_buckets);
  // Packs bucket_of(0..num_hands-1), each in [0, num_buckets) (else std::invalid_argument).
  template <typename F>
  static PackedRoundBuckets pack(std::int64_t num_hands, std::int32_t num_buckets, F&& bucket_of);
  // Checks sizes and that every entry is below num_buckets; returns a reason or "".
  std::string check() const;

  std::int32_t operator[](std::int64_t index) const {
    const std::uint64_t bit = static_cast<std::uint64_t>(index) * width;
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + (bit >> 3), sizeof word);  // little-endian host
    return static_cast<std::int32_t>((word >> (bit & 7)) & ((std::uint64_t{1} << width) - 1));
  }
};

class PackedBucketAbstraction final : public CardAbstraction {
 public:
  // Rounds must match the hold'em hand indexer's sizes (std::invalid_argument otherwise).
  PackedBucketAbstraction(std::vector<PackedRoundBuckets> rounds, std::uint64_t hash,
                          std::string description);
  // The bucket arrays of a loaded bucket map, with its hash and description.
  static PackedBucketAbstraction from(const ClusteredAbstraction& clustered);

  int num_rounds() const override { return static_cast<int>(rounds_.size()); }
  std::int32_t num_buckets(int round) const override { return rounds_[round].num_buckets; }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override;
  std::uint64_t hash() const override { return hash_; }
  std::string describe() const override { return description_; }

  const std::vector<PackedRoundBuckets>& rounds() const { return rounds_; }

 private:
  std::vector<PackedRoundBuckets> rounds_;
  std::uint64_t hash_ = 0;
  std::string description_;
};

template <typename F>
PackedRoundBuckets PackedRoundBuckets::pack(std::int64_t num_hands, std::int32_t num_buckets,
                                            F&& bucket_of) {
  PackedRoundBuckets r;
  r.num_buckets = num_buckets;
  r.num_hands = num_hands;
  r.width = width_for(num_buckets);
  const std::uint64_t bits = static_cast<std::uint64_t>(num_hands) * r.width;
  r.bytes.assign((bits + 7) / 8 + 8, 0);
  std::uint8_t* out = r.bytes.data();
  for (std::int64_t i = 0; i < num_hands; ++i) {
    const std::int64_t b = bucket_of(i);
    if (b < 0 || b >= num_buckets) throw std::invalid_argument("bucket out of range");
    const std::uint64_t bit = static_cast<std::uint64_t>(i) * r.width;
    std::uint64_t word;
    std::memcpy(&word, out + (bit >> 3), sizeof word);
    word |= static_cast<std::uint64_t>(b) << (bit & 7);
    std::memcpy(out + (bit >> 3), &word, sizeof word);
  }
  return r;
}

}  // namespace hulhe
