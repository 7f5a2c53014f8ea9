#pragma once
// The real-game best response's work units over the MPI ranks of a job
// (best_response/holdem/unit_distribution.h). Rank 0 hands out units as ranks ask for them,
// so uneven units and uneven nodes balance themselves; every rank (rank 0 too) computes on
// its OpenMP threads; the other ranks send each finished unit's value vectors back, and
// rank 0 records them (resume file, progress) and sums them in unit order: the report is
// the single-process report to the last bit.
//
// Protocol (tags): a rank with fewer than 2×threads units in hand asks rank 0 for more
// (kRequest: how many), one request in flight at a time; rank 0 answers with up to that many
// unit indices (kUnits: [none_left, u...]); results come back as kResult: [u, values...].
// Rank 0 serves requests from its main thread while its compute threads work, so a rank
// never waits for rank 0's own units.
#include <memory>

#include "best_response/holdem/unit_distribution.h"

namespace hulhe {

// Null when this process is not one of several MPI ranks (join_process_group()).
// `unit_timeout_seconds`: how long rank 0 waits for a rank that holds units to return one of
// them (and a rank for rank 0's answer) before the job fails: a hung rank never holds it.
std::shared_ptr<UnitDistribution> make_unit_distribution(double unit_timeout_seconds);

}  // namespace hulhe
