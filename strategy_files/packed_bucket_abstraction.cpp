#include "strategy_files/packed_bucket_abstraction.h"

#include <bit>
#include <stdexcept>

#include "abstraction/clustered_abstraction.h"
#include "game/hand_indexer.h"

namespace hulhe {

static_assert(std::endian::native == std::endian::little, "packed buckets assume little-endian");

std::uint8_t PackedRoundBuckets::width_for(std::int32_t num_buckets) {
  if (num_buckets <= 2) return 1;
  return static_cast<std::uint8_t>(std::bit_width(static_cast<std::uint32_t>(num_buckets - 1)));
}

std::string PackedRoundBuckets::check() const {
  if (num_buckets <= 0 || num_hands < 0) return "bad bucket or hand count";
  if (width != width_for(num_buckets)) return "entry width does not fit the bucket count";
  const std::uint64_t bits = static_cast<std::uint64_t>(num_hands) * width;
  if (bytes.size() != (bits + 7) / 8 + 8) return "bucket array size does not fit the hand count";
  for (std::int64_t i = 0; i < num_hands; ++i)
    if ((*this)[i] >= num_buckets) return "a bucket is out of range";
  return "";
}

PackedBucketAbstraction::PackedBucketAbstraction(std::vector<PackedRoundBuckets> rounds,
                                                 std::uint64_t hash, std::string description)
    : rounds_(std::move(rounds)), hash_(hash), description_(std::move(description)) {
  if (rounds_.empty() || rounds_.size() > 4)
    throw std::invalid_argument("a hold'em bucket table needs 1 to 4 rounds");
  for (std::size_t r = 0; r < rounds_.size(); ++r)
    if (static_cast<std::uint64_t>(rounds_[r].num_hands) !=
        HandIndexer::holdem(static_cast<int>(r)).size())
      throw std::invalid_argument("round " + std::to_string(r) +
                                  " does not cover every canonical hold'em hand");
}

PackedBucketAbstraction PackedBucketAbstraction::from(const ClusteredAbstraction& clustered) {
  std::vector<PackedRoundBuckets> rounds;
  for (const RoundBuckets& r : clustered.map().rounds)
    rounds.push_back(
        PackedRoundBuckets::pack(r.size(), r.num_buckets, [&](std::int64_t i) { return r[i]; }));
  return PackedBucketAbstraction(std::move(rounds), clustered.hash(), clustered.describe());
}

std::int32_t PackedBucketAbstraction::bucket(int round, const Card* hole, const Card* board) const {
  return rounds_[round][static_cast<std::int64_t>(HandIndexer::holdem_index(round, hole, board))];
}

}  // namespace hulhe
