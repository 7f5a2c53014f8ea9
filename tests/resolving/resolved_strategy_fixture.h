#pragma once
// Re-solved strategies of the 12-card hold'em games evaluated exactly: a blueprint solved in
// the coarse abstraction, the whole game held by one range solver (its best response is exact),
// and every subgame of the last round re-solved for each position and written into a copy of
// the blueprint (the combined strategy a re-solving agent plays).
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "game/game_state.h"
#include "public_tree/strategy_tables.h"
#include "resolving/blueprint_reach.h"
#include "resolving/range_solver.h"
#include "resolving/subgame_resolve.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "tests/resolving/coarse_holdem_abstraction.h"
#include "tests/support/solver_test_games.h"

namespace hulhe::testing {

struct CoarseBlueprint {
  CoarseHoldemAbstraction abstraction;
  StrategyTables tables;
  AveragePolicy policy;
  CoarseBlueprint(const SmallGame& g, std::int64_t iterations)
      : abstraction(g.game),
        tables(g.tree, abstraction, TablePrecision::kFloat64),
        policy(g.tree, abstraction, tables) {
    CfrParameters params;
    params.algorithm = "cfr+";
    make_cfr_algorithm(params, g.tree, abstraction, tables)->run(1, iterations, 1);
  }
};

// The whole game as one range solver holding a fixed strategy (its best response is exact).
inline std::unique_ptr<RangeSolver> whole_game(const SmallGame& g, const Policy& policy) {
  auto s = std::make_unique<RangeSolver>(g.tree, g.tree.root(), std::span<const Card>{});
  const std::vector<double> ones(s->hands().size(), 1.0);
  for (int p = 0; p < 2; ++p) {
    s->set_range(p, ones);
    s->set_strategy(p, policy);
  }
  return s;
}

// Chips per deal a best response wins against position `p`'s strategy.
inline double best_response_vs(const RangeSolver& s, int p) {
  const std::vector<double> v = s.best_response_values(1 - p);
  double sum = 0.0;
  for (double x : v) sum += x;
  return sum / s.pair_weight();
}

struct Combined {
  std::unique_ptr<RangeSolver> game;
  std::array<double, 2> bound{};  // the gadget's bound on the rise of BR vs position p
  int subgames = 0;
};

// Re-solves every subgame of the last round below the first `flops` flops, for each position,
// and writes the re-solved strategies into a copy of the blueprint.
inline Combined resolve_last_round(const SmallGame& g, const Policy& blueprint,
                                   const SubgameResolveOptions& options, int flops) {
  Combined c{whole_game(g, blueprint)};
  const int last = g.game.num_rounds - 1;
  const SubgameBoards& boards = c.game->boards();
  // A subgame's counterfactual values stand for its deal: the chance probability of its board.
  double chance = 1.0;
  for (int k = 0; k < last; ++k) chance /= static_cast<double>(boards.compatible_children(k));
  for (std::int32_t root : c.game->decision_nodes()) {
    const BettingNode& n = g.tree.node(root);
    if (n.round != last || g.tree.node(n.parent).round == last) continue;
    for (const SubgameBoard& b : boards.level(last)) {
      if (b.parent >= flops) continue;  // below the first `flops` flops only
      const std::span<const Card> cards(b.cards.data(), b.num_cards);
      for (int resolver = 0; resolver < 2; ++resolver) {
        const SubgameResolve r = resolve_subgame(g.tree, blueprint, root, cards, resolver, options);
        copy_strategy(*r.solver, resolver, *c.game);
        c.bound[resolver] += gadget_excess(r) * chance / c.game->pair_weight();
        ++c.subgames;
      }
    }
  }
  return c;
}

// A 12-card hold'em state before any betting: holes AhKh and QsQd, board AsKdQcKc (as many
// of its cards as the game deals).
inline GameState dealt_state(const GameDefinition& game) {
  GameState state(game);
  const std::vector<Card> cards = parse_cards("AhKhQsQdAsKdQcKc");
  state.set_hole_cards(0, cards.data());
  state.set_hole_cards(1, cards.data() + 2);
  for (int i = 0; i < game.total_board_cards(game.num_rounds - 1); ++i)
    state.set_board_card(i, cards[4 + i]);
  return state;
}

// The same from round 1 (the flop) of the 3-round game with nested re-solving: each flop
// subgame re-solved for each position, every river subgame inside it re-solved again from
// that solve (all from the flop solve as it was), the river solves written into the flop
// solve and the flop solve into a copy of the blueprint.
inline Combined resolve_nested_from_flop(const SmallGame& g, const Policy& blueprint,
                                         const SubgameResolveOptions& options) {
  Combined c{whole_game(g, blueprint)};
  const SubgameBoards& boards = c.game->boards();
  for (std::int32_t root : c.game->decision_nodes()) {
    const BettingNode& n = g.tree.node(root);
    if (n.round != 1 || g.tree.node(n.parent).round == 1) continue;
    for (const SubgameBoard& b : boards.level(1)) {
      const std::span<const Card> cards(b.cards.data(), b.num_cards);
      for (int resolver = 0; resolver < 2; ++resolver) {
        SubgameResolve flop = resolve_subgame(g.tree, blueprint, root, cards, resolver, options);
        RangeSolver& f = *flop.solver;
        std::vector<SubgameResolve> rivers;
        for (std::int32_t river : f.decision_nodes()) {
          const BettingNode& rn = g.tree.node(river);
          if (rn.round != 2 || g.tree.node(rn.parent).round == 2) continue;
          for (const SubgameBoard& rb : f.boards().level(1))
            rivers.push_back(resolve_subgame(
                f, river, std::span<const Card>(rb.cards.data(), rb.num_cards), resolver, options));
        }
        for (const SubgameResolve& r : rivers) copy_strategy(*r.solver, resolver, f);
        copy_strategy(f, resolver, *c.game);
        ++c.subgames;
      }
    }
  }
  return c;
}

}  // namespace hulhe::testing
