#pragma once
// Input of potential-aware abstraction (Ganzfried & Sandholm 2014, "Potential-aware
// imperfect-recall abstraction with earth mover's distance in imperfect-information
// games"): a hand's feature is its histogram over the next round's buckets, one count per
// possible next card. next_round_buckets (hand_features.h) lists those buckets per hand;
// the histogram and its EMD are k-means' business. This is the per-hand form it is built
// from.
#include <cstdint>

#include "abstraction/features/board_completions.h"

namespace hulhe {

// out[j] = next_bucket(next-round canonical index) of the j-th next-round hand reachable
// from `cards` (hole + board of round 0..2), in ascending card order.
template <class F>
void next_round_buckets_of(int round, const Card* cards, F&& next_bucket, std::int32_t* out) {
  int j = 0;
  for_each_next_round_hand(round, cards, [&](std::uint64_t next) { out[j++] = next_bucket(next); });
}

}  // namespace hulhe
