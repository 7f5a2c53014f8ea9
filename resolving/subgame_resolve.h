#pragma once
// Re-solving one subgame of a blueprint (a turn or river of HULHE, the last rounds of a reduced
// game) for one position, the re-solver, with every card dealt (range_solver.h).
//
// Both ranges come from the blueprint's reach over the trunk (blueprint_reach.h). Safe
// re-solving (Burch, Johanson & Bowling 2014, "Solving imperfect information games using
// decomposition", CFR-D's re-solving gadget): the opponent chooses per hand between
// terminating with T(o), its counterfactual best-response value against the blueprint in this
// subgame (computed here over real hands), and entering. A re-solved strategy against which
// every opponent hand gets at most T(o) is, per hand, no worse than the blueprint, so playing
// it in place of the blueprint cannot raise what a best response wins by more than the sum of
// the excesses max(0, cbv'(o) − T(o)), which the gadget's convergence drives to 0.
// Unsafe re-solving (both ranges as given, no gadget) solves the subgame as if the opponent's
// range were certain; an opponent who deviates in the trunk can exploit it (Brown & Sandholm
// 2017, "Safe and nested subgame solving for imperfect-information games").
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "abstraction/policy.h"
#include "resolving/range_solver.h"

namespace hulhe {

// kSafe: CFR-D's re-solving gadget ("resolve"); kMaxMargin: Moravčík et al.'s max-margin
// gadget, safe as well and it pushes the margins up (range_solver.h), the default: on the
// 12-card games it gave the lower exploitability in every comparison (docs/re-solving.md);
// kUnsafe: no gadget.
enum class ResolveGadget { kSafe, kMaxMargin, kUnsafe };
// "resolve" (or "safe"), "maxmargin", "unsafe"; InputError on anything else.
ResolveGadget parse_resolve_gadget(const std::string& text);

struct SubgameResolveOptions {
  ResolveGadget gadget = ResolveGadget::kMaxMargin;
  // Single precision by default: a HULHE turn solve takes half the memory and ~40% less time
  // (bench/bench_resolve.cpp), and its rounding (~1e-7 of a pot) is far below the re-solve's
  // convergence error.
  RangeSolverOptions solver{.precision = RangeSolverOptions::Precision::kSingle};
  // Whether the opponent's average strategy is kept: only a solve that is the blueprint of
  // nested re-solves reads it (the ranges of its later rounds).
  bool opponent_average = true;
  std::int64_t iterations = 200;  // the most iterations
  double seconds = 0.0;           // > 0: stop when this much wall time has passed
};

struct SubgameResolve {
  std::unique_ptr<RangeSolver> solver;  // the re-solved subgame (its average strategy)
  int resolver = 0;
  // Safe and max-margin: the gadget's T(o) per opponent hand (the opponent's counterfactual
  // best-response values against the blueprint); empty for unsafe.
  std::vector<double> terminate_values;
  std::int64_t iterations = 0;
};

// The first node of `round` on the path from the tree's root to `node` (a node of that round
// or a later one): the root of the subgame re-solved from `round` that holds `node`.
std::int32_t round_start(const BettingTree& tree, std::int32_t node, int round);

// `root`: the first node of a round of `tree` (the blueprint's game); `board`: the cards
// dealt up to that round.
SubgameResolve resolve_subgame(const BettingTree& tree, const Policy& blueprint, std::int32_t root,
                               std::span<const Card> board, int resolver,
                               const SubgameResolveOptions& options);

// The same with the blueprint held by a range solver whose subgame contains this one (a
// lossless blueprint of a small game: tests of safety).
SubgameResolve resolve_subgame(const RangeSolver& blueprint, std::int32_t root,
                               std::span<const Card> board, int resolver,
                               const SubgameResolveOptions& options);

// Σ_o max(0, cbv'(o) − T(o)): how much more the opponent's hands get in counterfactual value
// against the re-solved strategy than against the blueprint (safe re-solves only; chips,
// counterfactual, not normalised). 0 for unsafe re-solves (no T to compare with).
double gadget_excess(const SubgameResolve& resolve);

}  // namespace hulhe
