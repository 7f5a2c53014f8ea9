#pragma once
// Any Policy (solver tables, a strategy file, a baseline policy) as an Agent: bucket the
// seat's cards with policy.abstraction(), find the betting node in policy.tree() by following
// the hand's actions from the root, and sample an action from the policy there. Strategy
// files sample straight from their 8-bit quantised values (no conversion to doubles).
//
// The policy is shared, read-only, by every copy of the agent (one per thread and seat).
// Policies cover 2-player limit games only (their betting tree); the factory checks the game.
#include <cstdint>
#include <memory>
#include <string>

#include "abstraction/policy.h"
#include "agents/agent.h"
#include "strategy_files/strategy_file.h"

namespace hulhe {

class PolicyAgent final : public Agent {
 public:
  PolicyAgent(std::shared_ptr<const Policy> policy, std::string name);

  std::string name() const override { return name_; }
  BetAction act(const GameState& state, int position, SplitMix64& rng) override;
  // The policy's probabilities at the state's information set (the bucket of the state's
  // hole cards for `position`). A strategy file's are its quantised values, the very ones
  // act() samples from.
  std::optional<ActionProbabilities> action_probabilities(const GameState& state,
                                                          int position) override;

  // The decision node (index into tree().nodes()) the state's betting leads to; InputError
  // if the betting leaves the tree (a state of another game).
  std::int32_t find_node(const GameState& state) const;

 private:
  std::int32_t bucket(const GameState& state, int position);

  std::shared_ptr<const Policy> policy_;
  const StrategyFile* file_ = nullptr;  // the fast path when the policy is a strategy file
  std::string name_;
  // The bucket of the last (round, cards) asked for: a hand asks once per decision, and a
  // round's cards do not change between its decisions.
  int cached_round_ = -1;
  std::uint64_t cached_cards_ = 0;
  std::int32_t cached_bucket_ = 0;
};

}  // namespace hulhe
