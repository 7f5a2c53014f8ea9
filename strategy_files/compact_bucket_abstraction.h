#pragma once
// The card abstraction of a compact HULHE strategy file (format version 3, docs/acpc-play.md):
// the preflop, flop and turn bucket arrays packed as in a full file
// (packed_bucket_abstraction.h), and for the river the OCHS model (169 preflop opponent
// clusters and the k centres) from which OchsRiverBucketer computes a hand's bucket at play
// time, plus the canonical river hands where that computation and the bucket map's table
// disagree (rare float near-ties of the builder's arg-min; ascending index, stored bucket).
// bucket() therefore equals the bucket map's for every hand, and a compact file plays
// exactly the actions of the full file of the same strategy.
//
// Cost: on the river one OCHS feature (990 evaluations) and one scan of the k centres per
// hand (docs/acpc-play.md, "Time per action"); preflop to turn one packed read, as before.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "strategy_files/ochs_river_bucketer.h"
#include "strategy_files/packed_bucket_abstraction.h"

namespace hulhe {

class ClusteredAbstraction;

class CompactBucketAbstraction final : public CardAbstraction {
 public:
  // `tables`: rounds 0..2 (sizes of the hold'em indexer's rounds); the river from `river`;
  // `exceptions` ascending, unique, indices below the river's hand count, buckets below
  // river.num_buckets. std::invalid_argument otherwise.
  CompactBucketAbstraction(std::vector<PackedRoundBuckets> tables, OchsRiverModel river,
                           RiverExceptions exceptions, std::uint64_t hash, std::string description);
  // From a loaded bucket map whose river is OCHS: the first three tables packed, the river
  // model read from the map, and every canonical river hand checked against the map's table
  // (river_exceptions; minutes at thousands of buckets). Keeps the map's hash and
  // description. InputError naming `path` for a map this cannot represent.
  static CompactBucketAbstraction from(const ClusteredAbstraction& clustered,
                                       const std::string& path, int threads,
                                       const ProgressCallback& progress = {});

  int num_rounds() const override { return 4; }
  std::int32_t num_buckets(int round) const override {
    return round < 3 ? tables_[round].num_buckets : river_.num_buckets();
  }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override;
  std::uint64_t hash() const override { return hash_; }
  std::string describe() const override { return description_; }

  const std::vector<PackedRoundBuckets>& tables() const { return tables_; }
  const OchsRiverBucketer& river() const { return river_; }
  const RiverExceptions& exceptions() const { return exceptions_; }

 private:
  std::vector<PackedRoundBuckets> tables_;
  OchsRiverBucketer river_;
  RiverExceptions exceptions_;
  std::uint64_t hash_ = 0;
  std::string description_;
};

}  // namespace hulhe
