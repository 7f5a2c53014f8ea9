#pragma once
// A CardAbstraction over a bucket map (HULHE): bucket(round, hole, board) is one hand index
// (HandIndexer::holdem(round), Waugh 2013) and one array lookup, O(1) after load.
#include <cstdint>
#include <memory>
#include <string>

#include "abstraction/bucket_map.h"
#include "abstraction/card_abstraction.h"
#include "game/game_definition.h"

namespace hulhe {

// Bucket maps index hands with HULHE's suit-isomorphic indexer and are built from HULHE's
// features, so a clustered abstraction plays two-player hold'em only (4 rounds, 2 hole cards,
// board 0/3/1/1, 52 cards). Any other game is an InputError naming `path` (a board of 1 card
// a round once made the solver read past the board).
void require_holdem(const GameDefinition& game, const std::string& path);

class ClusteredAbstraction : public CardAbstraction {
 public:
  // The map must have one entry per canonical hand of every round it covers.
  explicit ClusteredAbstraction(std::shared_ptr<const BucketMap> map);
  // Loads `path`, checking it was built for the game with hash `game_hash`.
  static ClusteredAbstraction load(const std::string& path, std::uint64_t game_hash,
                                   const std::string& game_name = "the game");

  int num_rounds() const override { return static_cast<int>(map_->rounds.size()); }
  std::int32_t num_buckets(int round) const override { return map_->rounds[round].num_buckets; }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override;
  std::uint64_t hash() const override { return hash_; }
  std::string describe() const override;

  const BucketMap& map() const { return *map_; }

 private:
  std::shared_ptr<const BucketMap> map_;
  std::uint64_t hash_ = 0;
};

}  // namespace hulhe
