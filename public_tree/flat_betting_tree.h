#pragma once
// The betting tree flattened for the hot walks: one 48-byte record per node with the
// children, the table offset of bucket 0 of a decision node and the stride between buckets, and the
// chips each position wins at a terminal, so that a walk touches nothing but this array and the
// tables. Every walker uses it: the vector-form CFR family and best response
// (public_tree_traversal.h) and the sampling MCCFR variants (external, outcome). Node i is node i
// of BettingTree::nodes().
#include <array>
#include <cstdint>
#include <vector>

#include "game/betting_tree.h"
#include "public_tree/strategy_tables.h"

namespace hulhe {

struct FlatNode {
  std::int64_t table_offset = 0;   // decision nodes: StrategyTables::offset(round, id, 0)
  std::int32_t bucket_stride = 0;  // and StrategyTables::bucket_stride(round, id)
  std::array<std::int32_t, kNumActionKinds> child{-1, -1, -1};
  // Chips position p ends with. Fold: win[p] is the result (negative for the folder).
  // Showdown: win[p] if p holds the better hand, lose[p] (negative) if the worse, 0 on a tie.
  std::array<std::int32_t, 2> win{};
  std::array<std::int32_t, 2> lose{};
  NodeKind kind = NodeKind::kDecision;
  std::uint8_t round = 0;
  std::uint8_t player = 0;  // to act (decision nodes); the folder (fold nodes)
  std::uint8_t num_actions = 0;

  // The table offset of this decision node's information set in `bucket`.
  std::int64_t offset(std::int32_t bucket) const {
    return table_offset + static_cast<std::int64_t>(bucket) * bucket_stride;
  }

  // Utility of `position` at a terminal for a deal whose showdown result is `showdown`
  // (+1: position 0 has the better hand, -1: position 1, 0: split pot).
  double utility(int position, int showdown) const {
    if (kind == NodeKind::kFold) return win[position];
    const int s = position == 0 ? showdown : -showdown;
    return s > 0 ? win[position] : (s < 0 ? lose[position] : 0);
  }
};

// `tables` supplies the decision nodes' offsets; null leaves them 0 (walks that keep their
// own strategy layout).
std::vector<FlatNode> flatten_betting_tree(const BettingTree& tree,
                                           const StrategyTables* tables = nullptr);

}  // namespace hulhe
