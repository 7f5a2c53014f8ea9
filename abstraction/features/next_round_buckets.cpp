#include "abstraction/features/next_round_buckets.h"

#include <omp.h>

#include <stdexcept>
#include <string>

#include "abstraction/features/hand_features.h"

namespace hulhe {

int next_round_successors(int round) {
  detail::check_round(round, 2);
  constexpr int kSuccessors[3] = {19600, 47, 46};  // C(50,3) flops, 47 turns, 46 rivers
  return kSuccessors[round];
}

NextRoundBuckets next_round_buckets(int round, const std::vector<std::int32_t>& next_round_bucket,
                                    int threads) {
  detail::check_round(round, 2);
  const HandIndexer& indexer = HandIndexer::holdem(round);
  const auto next_size = HandIndexer::holdem(round + 1).size();
  if (next_round_bucket.size() != next_size)
    throw std::invalid_argument("next_round_buckets: round " + std::to_string(round + 1) +
                                " bucket map has " + std::to_string(next_round_bucket.size()) +
                                " entries, expected " + std::to_string(next_size));
  NextRoundBuckets out;
  out.rows = static_cast<std::int64_t>(indexer.size());
  out.per_row = next_round_successors(round);
  out.bucket.resize(static_cast<std::size_t>(out.rows) * out.per_row);
#pragma omp parallel for schedule(dynamic, round == 0 ? 1 : 1024) \
    num_threads(threads > 0 ? threads : omp_get_max_threads())
  for (std::int64_t i = 0; i < out.rows; ++i) {
    Card cards[7];
    indexer.unindex(static_cast<std::uint64_t>(i), cards);
    next_round_buckets_of(
        round, cards, [&](std::uint64_t next) { return next_round_bucket[next]; },
        out.bucket.data() + i * out.per_row);
  }
  return out;
}

}  // namespace hulhe
