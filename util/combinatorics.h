#pragma once
// Counting and enumerating k-subsets: deals of board cards, hole-card pairs, flops.
#include <cstdint>

namespace hulhe {

// C(n, k), 0 outside 0 <= k <= n. Each step's partial product C(n-k+i, i) is an integer, so
// the division is exact; exact for every count of cards a game here can ask for.
constexpr std::int64_t binomial(int n, int k) {
  if (k < 0 || n < 0 || k > n) return 0;
  std::int64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

// Steps `pos[0..k-1]` (ascending positions in [0, n)) to the next k-subset in lexicographic
// order; false, leaving `pos` as it was, after the last. Start from 0, 1, ..., k-1.
template <typename Positions>
constexpr bool next_k_subset(Positions& pos, int k, int n) {
  int i = k - 1;
  while (i >= 0 && pos[i] == n - k + i) --i;
  if (i < 0) return false;
  ++pos[i];
  for (int j = i + 1; j < k; ++j) pos[j] = pos[j - 1] + 1;
  return true;
}

}  // namespace hulhe
