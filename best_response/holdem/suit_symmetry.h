#pragma once
// Whether a card abstraction is suit-symmetric: the real-game best response merges flops by
// suit isomorphism (canonical_flops.h) only for strategies whose buckets do not see suits
// (clustered HULHE maps do not; lossless maps of small games do).
#include <cstdint>

#include "abstraction/card_abstraction.h"
#include "game/game_definition.h"

namespace hulhe {

// Randomised check that bucket(r, π hole, π board) == bucket(r, hole, board) for suit
// permutations π of the deck (`samples` draws per round).
bool is_suit_symmetric(const CardAbstraction& abstraction, const GameDefinition& game,
                       int samples = 400, std::uint64_t seed = 7);

}  // namespace hulhe
