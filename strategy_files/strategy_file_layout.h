#pragma once
// The stored order of a strategy file's probabilities (round, node, bucket, action) and their
// quantisation, which every format version of the file shares (strategy_files/strategy_file.h).
// Internal to strategy_files/.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "abstraction/policy.h"
#include "game/betting_tree.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "util/input_error.h"

namespace hulhe::strategy_file_internal {

inline constexpr std::size_t kMaxQuantizedActions = 16;

// Offsets of information sets in the tables' order: round, node, bucket, action.
struct Layout {
  std::vector<std::vector<std::int64_t>> node_offset;
  std::vector<std::vector<std::uint8_t>> num_actions;
  std::vector<std::int32_t> buckets;
  std::int64_t size = 0;

  // Calls visit(round, node, bucket, offset of its first value, actions) for every
  // information set in the stored order (round, node, bucket); stops early when visit
  // returns false. Returns whether it went through all of them.
  template <typename Visit>
  bool for_each_information_set(Visit&& visit) const {
    for (std::size_t r = 0; r < node_offset.size(); ++r)
      for (std::size_t n = 0; n < node_offset[r].size(); ++n) {
        const int actions = num_actions[r][n];
        for (std::int32_t b = 0; b < buckets[r]; ++b)
          if (!visit(static_cast<int>(r), static_cast<std::int32_t>(n), b,
                     node_offset[r][n] + static_cast<std::int64_t>(b) * actions, actions))
            return false;
      }
    return true;
  }
};

inline Layout make_layout(const BettingTree& tree, const CardAbstraction& abstraction) {
  Layout layout;
  const int rounds = tree.game().num_rounds;
  layout.node_offset.resize(rounds);
  layout.num_actions.resize(rounds);
  for (int r = 0; r < rounds; ++r) {
    layout.buckets.push_back(abstraction.num_buckets(r));
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
      const int actions = tree.node(tree.decision_node(r, n)).num_actions;
      layout.node_offset[r].push_back(layout.size);
      layout.num_actions[r].push_back(static_cast<std::uint8_t>(actions));
      layout.size += static_cast<std::int64_t>(abstraction.num_buckets(r)) * actions;
    }
  }
  return layout;
}

[[noreturn]] inline void fail(const std::string& path, const std::string& why) {
  throw InputError("strategy file " + path + ": " + why);
}

template <class Archive>
void serialize_packed(Archive& ar, PackedRoundBuckets& r) {
  ar(r.num_buckets, r.num_hands, r.width, r.bytes);
}

// Largest remainder into values summing to `total` (2^bits - 1).
template <typename T>
void quantize_to(std::span<const double> p, std::span<T> out, int total) {
  const std::size_t n = p.size();
  if (n == 0 || n > kMaxQuantizedActions || out.size() != n)
    throw std::invalid_argument("quantize_probabilities: 1 to 16 actions, matching sizes");
  double sum = 0.0;
  for (double x : p) sum += x > 0.0 ? x : 0.0;
  double scaled[kMaxQuantizedActions];
  std::size_t order[kMaxQuantizedActions];
  int assigned = 0;
  for (std::size_t a = 0; a < n; ++a) {
    const double share = sum > 0.0 ? std::max(p[a], 0.0) / sum : 1.0 / static_cast<double>(n);
    scaled[a] = share * total;
    const double whole = std::min(std::floor(scaled[a]), static_cast<double>(total));
    out[a] = static_cast<T>(whole);
    scaled[a] -= whole;  // the remainder
    assigned += out[a];
    order[a] = a;
  }
  // Hand the missing units to the largest remainders; stable sort breaks ties by slot.
  std::stable_sort(order, order + n,
                   [&](std::size_t x, std::size_t y) { return scaled[x] > scaled[y]; });
  for (std::size_t k = 0; assigned < total; k = (k + 1) % n, ++assigned) ++out[order[k]];
}

template <typename T>
std::vector<T> quantize_policy(const Policy& policy, const Layout& layout, int total) {
  std::vector<T> values(static_cast<std::size_t>(layout.size));
  double probabilities[kNumActionKinds];
  layout.for_each_information_set(
      [&](int r, std::int32_t n, std::int32_t b, std::int64_t off, int actions) {
        policy.action_probabilities(r, n, b, std::span<double>(probabilities, actions));
        quantize_to<T>(std::span<const double>(probabilities, actions),
                       std::span<T>(values.data() + off, actions), total);
        return true;
      });
  return values;
}

// Every information set's values sum to `total`.
template <typename T>
bool sums_are_exact(const std::vector<T>& values, const Layout& layout, std::uint32_t total) {
  return layout.for_each_information_set(
      [&](int, std::int32_t, std::int32_t, std::int64_t off, int actions) {
        const T* q = values.data() + off;
        return std::accumulate(q, q + actions, std::uint32_t{0}) == total;
      });
}

}  // namespace hulhe::strategy_file_internal
