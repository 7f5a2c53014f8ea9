#pragma once
// HULHE set-ups for tests and benchmarks that need the real game's size but no built
// abstraction: the shipped game definition, and abstractions computed from the suit-isomorphic
// hand index alone (lossless where a round asks for one bucket per canonical hand, else a
// multiplicative hash of the index). Cheap, deterministic, and as big as the real thing.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "abstraction/bucket_map.h"
#include "abstraction/card_abstraction.h"
#include "game/card.h"
#include "game/game_definition.h"
#include "game/hand_indexer.h"
#include "strategy_files/packed_bucket_abstraction.h"

namespace hulhe::testing {

inline GameDefinition hulhe_game() {
  GameDefinition g = GameDefinition::from_file(
      std::string(HULHE_SOURCE_DIR) + "/configs/games/holdem.limit.2p.reverse_blinds.game");
  g.name = "holdem.limit.2p.reverse_blinds";
  return g;
}

// Fibonacci hashing of a hand index into k buckets.
inline std::int32_t index_hash_bucket(std::uint64_t index, std::int32_t k) {
  return static_cast<std::int32_t>((index * 0x9e3779b97f4a7c15ULL >> 32) %
                                   static_cast<std::uint64_t>(k));
}

// A bucket map of HULHE with `buckets[r]` buckets in round r.
inline std::shared_ptr<const BucketMap> index_hash_bucket_map(
    const GameDefinition& game, const std::array<std::int32_t, 4>& buckets) {
  auto map = std::make_shared<BucketMap>();
  map->game_hash = game.hash();
  for (int r = 0; r < 4; ++r) {
    const std::int64_t n = static_cast<std::int64_t>(HandIndexer::holdem(r).size());
    const bool lossless = buckets[r] == n;
    RoundBuckets rb;
    rb.round = r;
    rb.method = lossless ? "lossless" : "hashed";
    rb.num_buckets = buckets[r];
    std::vector<std::int32_t> b(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
      b[static_cast<std::size_t>(i)] =
          lossless ? static_cast<std::int32_t>(i)
                   : index_hash_bucket(static_cast<std::uint64_t>(i), buckets[r]);
    rb.set_buckets(b);
    map->rounds.push_back(std::move(rb));
  }
  return map;
}

// 169-k-k-k (default 169-1000-1000-1000) without a map: each bucket computed from the hand
// index when asked; `hash` and `name` are what hash() and describe() say of it.
class IndexHashAbstraction final : public CardAbstraction {
 public:
  explicit IndexHashAbstraction(std::int32_t k = 1000, std::uint64_t hash = 42,
                                std::string name = "index hash")
      : k_(k), hash_(hash), name_(std::move(name)) {}
  int num_rounds() const override { return 4; }
  std::int32_t num_buckets(int round) const override { return round == 0 ? 169 : k_; }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override {
    std::array<Card, 7> cards{};
    cards[0] = hole[0];
    cards[1] = hole[1];
    const int b = round == 0 ? 0 : round + 2;
    for (int i = 0; i < b; ++i) cards[2 + i] = board[i];
    const std::uint64_t index = HandIndexer::holdem(round).index(cards.data());
    if (round == 0) return static_cast<std::int32_t>(index);
    return index_hash_bucket(index, k_);
  }
  std::uint64_t hash() const override { return hash_; }
  std::string describe() const override {
    const std::string k = std::to_string(k_);
    return name_ + " 169-" + k + "-" + k + "-" + k;
  }

 private:
  std::int32_t k_;
  std::uint64_t hash_;
  std::string name_;
};

// Packed HULHE buckets, canonical hand i in bucket i mod k[r]: the abstraction a strategy file
// embeds, without a bucket map.
inline std::vector<PackedRoundBuckets> modulo_packed_rounds(const std::array<std::int32_t, 4>& k) {
  std::vector<PackedRoundBuckets> rounds;
  for (int r = 0; r < 4; ++r)
    rounds.push_back(PackedRoundBuckets::pack(
        static_cast<std::int64_t>(HandIndexer::holdem(r).size()), k[r],
        [&](std::int64_t i) { return static_cast<std::int32_t>(i % k[r]); }));
  return rounds;
}

}  // namespace hulhe::testing
