#pragma once
// Opponent cluster hand strength (OCHS; Johanson, Burch, Valenzano & Bowling 2013,
// "Evaluating state-space abstractions in extensive-form games"): the preflop hands are
// split into K clusters, and a river hand's feature is its HS against each cluster, the
// opponent uniform over that cluster's combos that touch none of the known cards. Computed
// with the same per-board sweep as plain HS (abstraction/features/river_strength.h), keeping the
// counts per cluster. ochs_features itself is declared in hand_features.h.
#include <cstdint>
#include <vector>

namespace hulhe {

// Cluster of each of the 1,326 hole pairs (colex pair order, river_strength.h) from the
// cluster of its canonical preflop hand. Checks sizes and ranges (std::invalid_argument).
std::vector<std::uint8_t> pair_clusters(const std::vector<int>& preflop_cluster, int clusters);

}  // namespace hulhe
