#pragma once
// Randomness that protects a person, not a computation: session ids (the only credential of
// a web session) and the deals of a table a person could otherwise predict. It comes from the
// OS (getrandom(2)), never from a seed, so it is unguessable and differs at every start.
// Everything a computation draws still flows from its seed (util/split_mix64.h).
#include <cstdint>

namespace hulhe {

// 64 bits from the OS's entropy pool.
std::uint64_t os_entropy64();

}  // namespace hulhe
