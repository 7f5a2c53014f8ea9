#pragma once
// A card-blind baseline (always fold, always call, ...) playing HULHE, with the game, betting
// tree and one-bucket abstraction it reads, owned together: what the real-game tests of the
// best responses measure against known values.
#include "abstraction/card_blind_abstraction.h"
#include "agents/baseline_policies.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"

namespace hulhe::testing {

struct HulheBaseline {
  explicit HulheBaseline(BaselineKind kind) : policy(kind, tree, abstraction) {}
  HulheBaseline(const HulheBaseline&) = delete;
  HulheBaseline& operator=(const HulheBaseline&) = delete;

  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const BettingTree tree{game};
  const CardBlindAbstraction abstraction{game};
  const BaselinePolicy policy;
};

}  // namespace hulhe::testing
