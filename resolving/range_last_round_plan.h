#pragma once
// The last round of a range solver's subgame (range_solver_walk.h) below one of its first
// nodes, listed for a walk in three phases instead of a recursion: the reaches down the
// decision nodes in pre-order, every terminal's values in one pass over the hands
// (range_terminal_values.h's lanes: a limit river has 9 showdowns and 8 folds under each
// board, each of which cost its own sweep and per-card sums), then the values up in reverse
// order. The terminals' reaches and values are kept hand-major, W lanes to a hand, one lane
// per terminal.
#include <array>
#include <cstdint>
#include <vector>

#include "public_tree/flat_betting_tree.h"

namespace hulhe {

struct RangeLastRoundPlan {
  struct Entry {
    std::int32_t node = 0;
    std::int32_t parent = -1;  // entry index; -1 for the first (the subtree's root)
    std::int32_t action = 0;   // in the parent
    std::int32_t lane = -1;    // terminals: among the showdowns or among the folds
  };
  std::vector<Entry> entries;  // pre-order: a parent before its children
  std::vector<std::array<std::int32_t, kNumActionKinds>> children;  // entry indices, per entry
  int showdowns = 0, folds = 0;
  int showdown_width = 0, fold_width = 0;  // W: 4, 8, 12 or 16 lanes, at least the count
  // Per position (the traverser), per lane: the chips of a showdown won or lost, of a fold.
  std::array<std::vector<double>, 2> win, lose;
  std::array<std::vector<double>, 2> fold_payoff;
};

// The most terminals of either kind a plan takes (a HULHE river has 9 and 8); a subtree with
// more is walked by the recursion.
constexpr int kMostLastRoundLanes = 16;

// The plan of the subtree below `root` (a node of the last round); false (and `plan`
// unspecified) when it has more than kMostLastRoundLanes showdowns or folds.
bool make_range_last_round_plan(const std::vector<FlatNode>& nodes, std::int32_t root,
                                RangeLastRoundPlan& plan);

}  // namespace hulhe
