#include "abstraction/abstraction_factory.h"

#include <filesystem>

#include "abstraction/clustered_abstraction.h"
#include "abstraction/lossless_abstraction.h"
#include "util/input_error.h"

namespace hulhe {

std::unique_ptr<CardAbstraction> make_abstraction(const std::string& kind,
                                                  const GameDefinition& game,
                                                  const std::string& bucket_map) {
  if (kind == "lossless") return std::make_unique<LosslessAbstraction>(game);
  if (kind == "buckets") {
    if (bucket_map.empty()) throw InputError("abstraction 'buckets' needs a bucket-map file");
    require_holdem(game, game.name);
    if (!std::filesystem::exists(bucket_map))
      throw InputError("bucket map " + bucket_map +
                       " does not exist; build it with `hulhe abstract --config CONFIG` "
                       "(or let `hulhe run --config CONFIG` build it)");
    return std::make_unique<ClusteredAbstraction>(
        ClusteredAbstraction::load(bucket_map, game.hash(), game.name));
  }
  throw InputError("unknown abstraction '" + kind + "'" +
                   (bucket_map.empty() ? "" : " (bucket map " + bucket_map + ")") +
                   "; known: lossless, buckets");
}

}  // namespace hulhe
