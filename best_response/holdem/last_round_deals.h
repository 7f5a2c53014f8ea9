#pragma once
// The deals of the last round's cards on one board, prepared once (HoldemLastRound, in
// holdem_last_round.cpp) and walked by every chunk, in both the interpreted walk and the
// unrolled limit kernel (limit_last_round_kernel.h): per deal, the hands that miss its cards
// in showdown-rank order, with what the walks read of each.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hulhe {

struct LastRoundDeals {
  std::size_t stride = 0;  // per-deal offset of the hand arrays: [deal * stride + i]
  std::vector<std::int32_t> hand, bucket_opp, bucket_fix;  // [deal][i], i in rank order
  std::vector<std::uint8_t> card_a, card_b;                // [deal][i]
  std::vector<std::int32_t> group_end;  // [deal][i]: the end of i's group of tied hands
  std::vector<std::int32_t> by_hand;    // [deal][i]: rank-order index of the i-th hand by index
  std::vector<std::int32_t> size;       // [deal]: hands that miss the deal's cards
  std::vector<double> weight;           // [deal]: orbit size under the board's stabilizer
};

}  // namespace hulhe
