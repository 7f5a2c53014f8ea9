#pragma once
// A vector-form solver for a subgame of a 2-player limit hold'em game with ranges: the public
// betting tree below one node (the start of a round, with the pot and betting so far), every
// remaining board card dealt (subgame_boards.h), and for each position a range, a weight per
// hole-card pair (card removal: hands that touch the board weigh 0). The information sets are
// real, (node, board, hand): no card abstraction. Used to re-solve the turn and river at
// decision time (Burch, Johanson & Bowling 2014; Moravčík et al. 2017; Brown & Sandholm 2017).
//
// Each iteration walks the public tree once per position (alternating updates) with both
// players' reach as vectors over hands (Johanson et al. 2012); terminals cost O(n) with card
// removal (range_terminal_values.h: fold by inclusion-exclusion over per-card sums, showdown
// by one sweep over the hands sorted by strength; in the last round every terminal of a board
// at once, in lanes: range_last_round_plan.h). Regrets follow CFR+ (Tammelin 2014:
// floored at 0, average weighted by t) or Discounted CFR (Brown & Sandholm 2019: positive
// regrets × t^α/(t^α+1), negative × t^β/(t^β+1), average × (t/(t+1))^γ). The deals of each
// chance node in the root's round run on OpenMP threads, each child board's values in its own
// buffer summed in board order, so the result does not depend on the thread count.
//
// Values are counterfactual, in chips: v_p(h) = Σ_o π_{-p}(o) · E[u_p | h, o], the expectation
// over the boards still to come (each deal compatible with both hands equally likely), π_{-p}
// the other position's reach (its range times its actions in the subgame).
//
// Safe re-solving: set_gadget() puts a gadget in front of the root for the opponent, built on
// T(o), each opponent hand's counterfactual best-response value against the blueprint.
// Resolve (Burch, Johanson & Bowling 2014, CFR-D's re-solving gadget): per hand o the
// opponent chooses between terminating with T(o) and entering, by regret matching; its reach
// into the subgame is the probability of entering. Any strategy that holds every hand to T(o)
// solves it, the blueprint's own included, so it keeps the blueprint's safety without pushing
// past it. Max-margin (Moravčík, Schmid, Ha, Hladík & Gaukrodger 2016, "Refining subgames in
// large imperfect information games"): the opponent chooses which hand to enter with, one
// choice among all its hands worth out(o) − T(o) each; the re-solver thus maximises the
// smallest margin T(o) − cbv(o), which is at least 0 at convergence (the blueprint reaches 0)
// and positive wherever the subgame lets it do better than the blueprint.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "abstraction/policy.h"
#include "game/betting_tree.h"
#include "public_tree/private_hands.h"
#include "resolving/subgame_boards.h"

namespace hulhe {

enum class RangeSolverGadget { kResolve, kMaxMargin };

struct RangeSolverOptions {
  enum class Algorithm { kCfrPlus, kDcfr } algorithm = Algorithm::kDcfr;
  double alpha = 1.5, beta = 0.0, gamma = 2.0;  // DCFR's discounts (the paper's defaults)
  int threads = 1;
  // The least deals × hands of a chance node whose deals run on the threads: a HULHE turn's
  // 48 rivers of ~1,100 hands are worth a parallel region, a 12-card deck's 9 of 66 are not
  // (waiting for a busy core made such a solve seconds instead of milliseconds).
  std::int64_t parallel_work = 8192;
  // The tables and value vectors in double (the default: sums as exact as best_response/'s)
  // or single (half the memory and traffic, twice the hands per instruction: the agent's).
  enum class Precision { kDouble, kSingle } precision = Precision::kDouble;
  // -1: both positions' average strategies are kept; p: only p's (the other's stays 0, so
  // values() and exploitability() no longer mean anything): a re-solve plays only the
  // re-solver's, and skipping the other's saves a pass over half the averages per iteration.
  int averaged = -1;
  // The last round's subtrees walked in phases, every terminal of a board in one pass over the
  // hands (range_last_round_plan.h), rather than by the recursion: the same values, bit for
  // bit, in less time. Off only to compare the two.
  bool last_round_lanes = true;
};

class RangeSolver {
 public:
  // `root`: a node of `tree` at which a round starts (the tree's root, or the first node of a
  // later round); `board`: the cards dealt up to that round, in dealing order. The tree must
  // outlive the solver. Throws InputError for games other than 2-player limit hold'em with 2
  // hole cards, or a root that is not the start of a round.
  RangeSolver(const BettingTree& tree, std::int32_t root, std::span<const Card> board,
              RangeSolverOptions options = {});
  ~RangeSolver();
  RangeSolver(const RangeSolver&) = delete;
  RangeSolver& operator=(const RangeSolver&) = delete;
  RangeSolver(RangeSolver&&) noexcept;
  RangeSolver& operator=(RangeSolver&&) noexcept;

  const PrivateHands& hands() const;
  const SubgameBoards& boards() const;
  const BettingTree& tree() const;
  std::int32_t root() const;

  // Position p's range over hands() (hands touching the root board are set to 0).
  void set_range(int position, std::span<const double> range);
  const std::vector<double>& range(int position) const;
  // A gadget for `position` (the re-solver's opponent) on `terminate_values` (T(o): chips,
  // counterfactual, as values()): its range becomes the gadget's reach (above). Clears a
  // gadget when `terminate_values` is empty.
  void set_gadget(int position, std::span<const double> terminate_values,
                  RangeSolverGadget kind = RangeSolverGadget::kResolve);

  // Forgets every regret and average (and the iteration count): a fresh solve of the same
  // subgame, e.g. after set_strategy() was used to evaluate the blueprint.
  void clear();
  // Runs `count` more iterations (deterministic).
  void iterate(std::int64_t count);
  // Iterates until `seconds` of wall time have passed (checked after each iteration) or
  // `max_iterations` are done (0: no cap); returns the iterations run. At least one.
  std::int64_t iterate_for(double seconds, std::int64_t max_iterations = 0);
  std::int64_t iterations() const;
  // Bytes of the regret and average tables (the solver's memory, all but O(n · depth)).
  std::int64_t table_bytes() const;

  // Whether `node` (an index into tree().nodes()) is a decision node of the subgame.
  bool contains(std::int32_t node) const;
  // Decision nodes of the subtree (indices into tree().nodes()).
  const std::vector<std::int32_t>& decision_nodes() const;
  // The average strategy at decision node `node` on board `board` (an index at the node's
  // round's level of boards()) for hand `hand`; uniform where the hand never got there.
  void average_strategy(std::int32_t node, std::int32_t board, std::int32_t hand,
                        std::span<double> out) const;
  // Replaces `position`'s average strategy by `probabilities` at one information set (for
  // evaluating a fixed strategy: values(), best_response_values()).
  void set_strategy(std::int32_t node, std::int32_t board, std::int32_t hand,
                    std::span<const double> probabilities);
  // Replaces `position`'s average strategy everywhere in the subgame by `policy` (of the same
  // game), read through its card abstraction per (board, hand).
  void set_strategy(int position, const Policy& policy);

  // Counterfactual values of `player`'s hands at the root when both play their average
  // strategies (a gadget, if set, is left out: the ranges are used).
  std::vector<double> values(int player) const;
  // Counterfactual best-response values of `player`'s hands at the root against the other's
  // average strategy (ranges, not the gadget).
  std::vector<double> best_response_values(int player) const;
  // Σ over both positions of Σ_h range(h)·best_response_value(h), divided by 2 and by the
  // weight of the disjoint range pairs: the subgame's exploitability in chips per deal (0 at
  // an equilibrium; the real exploitability when the root is the game's and ranges are 1).
  double exploitability() const;
  // Σ_{h,o disjoint} range_0(h)·range_1(o) (the weight behind a value).
  double pair_weight() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hulhe
