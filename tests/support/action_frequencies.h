#pragma once
// The check that a player drew its actions with a strategy file's probabilities: the actions
// it took, counted per information set (round, node, bucket), each count within 4.5 standard
// deviations (+1) of n p.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <map>
#include <tuple>
#include <vector>

namespace hulhe::testing {

// Counts of each action per information set (round, node in its round, bucket).
using ActionCounts = std::map<std::tuple<int, int, int>, std::vector<int>>;

// Checks every information set of `counts` visited at least `min_visits` times against
// `file`'s action_probabilities (a StrategyFile); returns how many were checked.
template <typename File>
int expect_drawn_with_probabilities(const File& file, const ActionCounts& counts, int min_visits) {
  int checked = 0;
  for (const auto& [key, c] : counts) {
    const auto [round, node, bucket] = key;
    int n = 0;
    for (int x : c) n += x;
    if (n < min_visits) continue;
    ++checked;
    std::vector<double> p(c.size());
    file.action_probabilities(round, node, bucket, p);
    for (std::size_t a = 0; a < c.size(); ++a)
      EXPECT_LE(std::abs(c[a] - n * p[a]), 4.5 * std::sqrt(n * p[a] * (1 - p[a])) + 1)
          << "round " << round << " node " << node << " bucket " << bucket << " action " << a
          << ": " << c[a] << " of " << n << ", p = " << p[a];
  }
  return checked;
}

}  // namespace hulhe::testing
