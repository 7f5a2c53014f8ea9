#include "resolving/subgame_resolve.h"

#include <algorithm>

#include "resolving/blueprint_reach.h"
#include "util/input_error.h"

namespace hulhe {

ResolveGadget parse_resolve_gadget(const std::string& text) {
  if (text == "resolve" || text == "safe") return ResolveGadget::kSafe;
  if (text == "maxmargin") return ResolveGadget::kMaxMargin;
  if (text == "unsafe") return ResolveGadget::kUnsafe;
  throw InputError("unknown re-solving gadget '" + text + "' (maxmargin, resolve, unsafe)");
}

namespace {

// Both ranges set; `blueprint_strategy` writes the blueprint's play of the resolver into the
// solver (for the gadget's T).
template <typename SetBlueprint>
SubgameResolve resolve_with(std::unique_ptr<RangeSolver> solver, int resolver,
                            const SubgameResolveOptions& options, SetBlueprint set_blueprint) {
  if (options.iterations < 1) throw InputError("a re-solve needs at least 1 iteration");
  SubgameResolve r;
  r.resolver = resolver;
  r.solver = std::move(solver);
  RangeSolver& s = *r.solver;
  const int opponent = 1 - resolver;
  if (options.gadget != ResolveGadget::kUnsafe) {
    // T(o): the opponent's best response to the blueprint's own play of this subgame.
    set_blueprint(s);
    r.terminate_values = s.best_response_values(opponent);
    s.clear();
    s.set_gadget(opponent, r.terminate_values,
                 options.gadget == ResolveGadget::kMaxMargin ? RangeSolverGadget::kMaxMargin
                                                             : RangeSolverGadget::kResolve);
  }
  if (options.seconds > 0) {
    r.iterations = s.iterate_for(options.seconds, options.iterations);
  } else {
    s.iterate(options.iterations);
    r.iterations = options.iterations;
  }
  return r;
}

}  // namespace

namespace {

RangeSolverOptions solver_options(const SubgameResolveOptions& options, int resolver) {
  RangeSolverOptions o = options.solver;
  if (!options.opponent_average) o.averaged = resolver;
  return o;
}

}  // namespace

SubgameResolve resolve_subgame(const BettingTree& tree, const Policy& blueprint, std::int32_t root,
                               std::span<const Card> board, int resolver,
                               const SubgameResolveOptions& options) {
  auto s = std::make_unique<RangeSolver>(tree, root, board, solver_options(options, resolver));
  for (int p = 0; p < 2; ++p)
    s->set_range(p, blueprint_reach(blueprint, tree, s->hands(), root, board, p));
  return resolve_with(std::move(s), resolver, options,
                      [&](RangeSolver& x) { x.set_strategy(resolver, blueprint); });
}

SubgameResolve resolve_subgame(const RangeSolver& blueprint, std::int32_t root,
                               std::span<const Card> board, int resolver,
                               const SubgameResolveOptions& options) {
  auto s = std::make_unique<RangeSolver>(blueprint.tree(), root, board,
                                         solver_options(options, resolver));
  for (int p = 0; p < 2; ++p) s->set_range(p, blueprint_reach(blueprint, root, board, p));
  return resolve_with(std::move(s), resolver, options,
                      [&](RangeSolver& x) { copy_strategy(blueprint, resolver, x); });
}

std::int32_t round_start(const BettingTree& tree, std::int32_t node, int round) {
  while (tree.node(node).parent >= 0 && tree.node(tree.node(node).parent).round >= round)
    node = tree.node(node).parent;
  return node;
}

double gadget_excess(const SubgameResolve& resolve) {
  if (resolve.terminate_values.empty()) return 0.0;
  const std::vector<double> v = resolve.solver->best_response_values(1 - resolve.resolver);
  double excess = 0.0;
  for (std::size_t o = 0; o < v.size(); ++o)
    excess += std::max(0.0, v[o] - resolve.terminate_values[o]);
  return excess;
}

}  // namespace hulhe
