#pragma once
// The inside of the range solver (range_solver.h): the subgame as the walks see it
// (RangeSubgame: hands, boards, flattened tree, table layout, ranges and gadget, all
// independent of the precision) and the walks themselves with their regret and average tables
// (RangeSolverWalk), in double or single precision. Single halves the tables' memory and
// traffic and doubles the hands per vector instruction; the terminals' per-card sums stay in
// double (range_terminal_values.h). Included by range_solver.cpp only.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "game/betting_tree.h"
#include "public_tree/flat_betting_tree.h"
#include "public_tree/private_hands.h"
#include "resolving/range_last_round_plan.h"
#include "resolving/range_solver.h"
#include "resolving/range_terminal_values.h"
#include "resolving/subgame_boards.h"

namespace hulhe {

struct RangeSubgame {
  const BettingTree& tree;
  std::int32_t root;
  RangeSolverOptions options;
  GameDefinition game;
  PrivateHands all;  // every hand of the game (the interface's indices)
  SubgameBoards boards;
  RangeHands hands;  // the hands that do not touch the root board (the walks' indices)
  std::vector<std::int32_t> slot;  // per hand of `all`: its index in `hands`, or -1
  std::vector<FlatNode> nodes;
  std::int32_t n = 0;  // hands.size()
  int root_round = 0;
  std::vector<std::int32_t> decision;  // decision nodes of the subtree, ascending
  std::vector<std::int64_t> offset;    // per tree node: table offset of board 0, hand 0
  std::int64_t table_size = 0;
  std::vector<RangeShowdown> showdown;  // per board of the last level
  int max_depth = 0;
  std::array<std::vector<double>, 2> ranges;  // over `hands`
  int gadget_player = -1;
  RangeSolverGadget gadget_kind = RangeSolverGadget::kResolve;
  std::vector<double> terminate_values;  // T(o), over `hands`
  // The subtrees of the last round, walked in phases with their terminals in lanes
  // (range_last_round_plan.h): per tree node, the index of the plan rooted there, or -1.
  std::vector<RangeLastRoundPlan> last_round_plans;
  std::vector<std::int32_t> plan_of;

  RangeSubgame(const BettingTree& tree, std::int32_t root, std::span<const Card> board,
               RangeSolverOptions options);
  std::int32_t level_of(std::int32_t node) const { return nodes[node].round - root_round; }
};

// What one walk computes at the root, per hand of RangeSubgame::hands.
enum class RangeWalkMode { kEvaluate, kBestResponse };

class RangeSolverWalk {
 public:
  virtual ~RangeSolverWalk() = default;
  // One iteration: a CFR pass per position, the gadget (if any) updated after the opponent's.
  virtual void iteration() = 0;
  virtual std::int64_t iterations() const = 0;
  // Regrets, averages and the gadget's regrets to 0.
  virtual void clear() = 0;
  // The gadget's regrets to 0, sized for the subgame's gadget (after it changed).
  virtual void reset_gadget() = 0;
  virtual std::int64_t table_bytes() const = 0;
  // `player`'s values at the root with the ranges (no gadget).
  virtual void root_values(RangeWalkMode mode, int player, double* out) = 0;
  // The average strategy's entries of one information set (unnormalised), and their
  // replacement.
  virtual void average(std::int32_t node, std::int32_t board, std::int32_t hand,
                       std::span<double> out) const = 0;
  virtual void set_average(std::int32_t node, std::int32_t board, std::int32_t hand,
                           std::span<const double> probabilities) = 0;
};

std::unique_ptr<RangeSolverWalk> make_range_solver_walk(const RangeSubgame& subgame);

}  // namespace hulhe
