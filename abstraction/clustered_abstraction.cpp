#include "abstraction/clustered_abstraction.h"

#include <stdexcept>

#include "game/hand_indexer.h"
#include "util/input_error.h"

namespace hulhe {

void require_holdem(const GameDefinition& g, const std::string& path) {
  const bool ok = g.num_players == 2 && g.num_rounds == 4 && g.num_hole_cards == 2 &&
                  g.num_suits == 4 && g.num_ranks == 13 && g.num_board_cards[0] == 0 &&
                  g.num_board_cards[1] == 3 && g.num_board_cards[2] == 1 &&
                  g.num_board_cards[3] == 1;
  if (!ok)
    throw InputError("game '" + path +
                     "' is not two-player hold'em (4 rounds, 2 hole cards, board 0/3/1/1, 52 "
                     "cards): clustered abstractions are built for hold'em only");
}

ClusteredAbstraction::ClusteredAbstraction(std::shared_ptr<const BucketMap> map)
    : map_(std::move(map)) {
  if (map_->rounds.empty() || map_->rounds.size() > 4)
    throw InputError("bucket map has " + std::to_string(map_->rounds.size()) +
                     " rounds; a hold'em abstraction needs 1 to 4");
  for (int r = 0; r < num_rounds(); ++r) {
    const auto expect = HandIndexer::holdem(r).size();
    if (static_cast<std::uint64_t>(map_->rounds[r].size()) != expect)
      throw InputError("bucket map round " + std::to_string(r) + " has " +
                       std::to_string(map_->rounds[r].size()) + " hands; hold'em has " +
                       std::to_string(expect) + " canonical hands");
  }
  hash_ = map_->hash();
}

ClusteredAbstraction ClusteredAbstraction::load(const std::string& path, std::uint64_t game_hash,
                                                const std::string& game_name) {
  auto map = std::make_shared<BucketMap>(BucketMap::load(path, game_hash, game_name));
  try {
    return ClusteredAbstraction(std::move(map));
  } catch (const InputError& e) {
    throw InputError("'" + path + "': " + e.what());
  }
}

std::int32_t ClusteredAbstraction::bucket(int round, const Card* hole, const Card* board) const {
  return map_
      ->rounds[round][static_cast<std::int64_t>(HandIndexer::holdem_index(round, hole, board))];
}

std::string ClusteredAbstraction::describe() const {
  std::string sizes, methods;
  for (const RoundBuckets& r : map_->rounds) {
    if (!sizes.empty()) sizes += "-", methods += ", ";
    sizes += std::to_string(r.num_buckets);
    methods += r.method;
  }
  return "clustered " + sizes + " (" + methods + ")";
}

}  // namespace hulhe
