#pragma once
// The card abstraction a config, checkpoint or strategy file names:
//   kind "lossless"  every distinct hand is its own bucket (small games), from the game alone
//   kind "buckets"   a bucket map file (`hulhe abstract`), checked to be of the game
// Throws InputError for an unknown kind, a missing or foreign bucket map (naming it and the
// command that builds it).
#include <memory>
#include <string>

#include "abstraction/card_abstraction.h"
#include "game/game_definition.h"

namespace hulhe {

std::unique_ptr<CardAbstraction> make_abstraction(const std::string& kind,
                                                  const GameDefinition& game,
                                                  const std::string& bucket_map);

}  // namespace hulhe
