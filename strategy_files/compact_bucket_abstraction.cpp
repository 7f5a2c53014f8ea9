#include "strategy_files/compact_bucket_abstraction.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "abstraction/clustered_abstraction.h"
#include "game/hand_indexer.h"
#include "util/input_error.h"

namespace hulhe {

CompactBucketAbstraction::CompactBucketAbstraction(std::vector<PackedRoundBuckets> tables,
                                                   OchsRiverModel river, RiverExceptions exceptions,
                                                   std::uint64_t hash, std::string description)
    : tables_(std::move(tables)),
      river_(std::move(river)),
      exceptions_(std::move(exceptions)),
      hash_(hash),
      description_(std::move(description)) {
  if (tables_.size() != 3)
    throw std::invalid_argument("a compact abstraction keeps the tables of rounds 0 to 2");
  for (std::size_t r = 0; r < tables_.size(); ++r)
    if (static_cast<std::uint64_t>(tables_[r].num_hands) !=
        HandIndexer::holdem(static_cast<int>(r)).size())
      throw std::invalid_argument("round " + std::to_string(r) +
                                  " does not cover every canonical hold'em hand");
  const std::uint64_t river_hands = HandIndexer::holdem(3).size();
  if (exceptions_.index.size() != exceptions_.bucket.size())
    throw std::invalid_argument("river exceptions: as many buckets as indices");
  for (std::size_t i = 0; i < exceptions_.index.size(); ++i) {
    if (exceptions_.index[i] >= river_hands ||
        (i > 0 && exceptions_.index[i] <= exceptions_.index[i - 1]))
      throw std::invalid_argument("river exceptions: indices ascending, unique, in range");
    if (exceptions_.bucket[i] >= static_cast<std::uint32_t>(river_.num_buckets()))
      throw std::invalid_argument("river exceptions: a bucket is out of range");
  }
}

CompactBucketAbstraction CompactBucketAbstraction::from(const ClusteredAbstraction& clustered,
                                                        const std::string& path, int threads,
                                                        const ProgressCallback& progress) {
  const BucketMap& map = clustered.map();
  if (map.rounds.size() != 4)
    throw InputError("bucket map " + path + ": a compact strategy file needs all four rounds");
  OchsRiverModel model = OchsRiverModel::from(map.rounds[3], path);
  std::vector<PackedRoundBuckets> tables;
  for (int r = 0; r < 3; ++r) {
    const RoundBuckets& rb = map.rounds[r];
    tables.push_back(
        PackedRoundBuckets::pack(rb.size(), rb.num_buckets, [&](std::int64_t i) { return rb[i]; }));
  }
  const OchsRiverBucketer bucketer(model);
  const RoundBuckets& table = map.rounds[3];
  RiverExceptions exceptions = river_exceptions(
      bucketer, [&](std::uint64_t i) { return table[static_cast<std::int64_t>(i)]; }, threads,
      progress);
  return CompactBucketAbstraction(std::move(tables), std::move(model), std::move(exceptions),
                                  clustered.hash(), clustered.describe());
}

std::int32_t CompactBucketAbstraction::bucket(int round, const Card* hole,
                                              const Card* board) const {
  if (round < 3)
    return tables_[round][static_cast<std::int64_t>(HandIndexer::holdem_index(round, hole, board))];
  if (!exceptions_.index.empty()) {
    const auto index = static_cast<std::uint32_t>(HandIndexer::holdem_index(round, hole, board));
    const auto it = std::lower_bound(exceptions_.index.begin(), exceptions_.index.end(), index);
    if (it != exceptions_.index.end() && *it == index)
      return static_cast<std::int32_t>(exceptions_.bucket[it - exceptions_.index.begin()]);
  }
  return river_.bucket(hole, board);
}

}  // namespace hulhe
