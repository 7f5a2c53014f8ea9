#include "agents/policy_agent.h"

#include <stdexcept>

#include "util/input_error.h"

namespace hulhe {

PolicyAgent::PolicyAgent(std::shared_ptr<const Policy> policy, std::string name)
    : policy_(std::move(policy)),
      file_(dynamic_cast<const StrategyFile*>(policy_.get())),
      name_(std::move(name)) {}

std::int32_t PolicyAgent::find_node(const GameState& state) const {
  const BettingTree& tree = policy_->tree();
  std::int32_t i = tree.root();
  for (int r = 0; r <= state.round(); ++r)
    for (int k = 0; k < state.num_actions(r); ++k) {
      const BettingNode& n = tree.node(i);
      const Action a = state.action(r, k).type;
      int slot = 0;
      while (slot < n.num_actions && n.actions[slot] != a) ++slot;
      // An InputError: `hulhe play` answers such a state (a dealer's) with a call and a note.
      if (n.kind != NodeKind::kDecision || slot == n.num_actions)
        throw InputError("betting '" + state.betting_string() + "' is not in the betting tree of " +
                         name_);
      i = n.child[slot];
    }
  return i;
}

std::int32_t PolicyAgent::bucket(const GameState& state, int position) {
  const int round = state.round();
  const GameDefinition& game = state.game();
  const Card* hole = state.hole_cards(position);
  CardSet cards;
  for (int c = 0; c < game.num_hole_cards; ++c) cards.insert(hole[c]);
  for (int c = 0; c < game.total_board_cards(round); ++c) cards.insert(state.board_cards()[c]);
  if (round != cached_round_ || cards.mask() != cached_cards_) {
    cached_round_ = round;
    cached_cards_ = cards.mask();
    cached_bucket_ = policy_->abstraction().bucket(round, hole, state.board_cards());
  }
  return cached_bucket_;
}

BetAction PolicyAgent::act(const GameState& state, int position, SplitMix64& rng) {
  const BettingNode& n = policy_->tree().node(find_node(state));
  if (n.kind != NodeKind::kDecision || n.player != position)
    throw std::logic_error("policy agent asked to act for position " + std::to_string(position) +
                           " at betting '" + state.betting_string() + "'");
  const int round = n.round;
  const std::int32_t b = bucket(state, position);
  int slot = 0;
  if (file_ != nullptr) {
    slot = file_->sample_action(round, n.id_in_round, b, rng);
  } else {
    double p[kNumActionKinds];
    policy_->action_probabilities(round, n.id_in_round, b, std::span<double>(p, n.num_actions));
    slot = sample_slot(p, n.num_actions, rng);
  }
  return {n.actions[slot], 0};
}

std::optional<ActionProbabilities> PolicyAgent::action_probabilities(const GameState& state,
                                                                     int position) {
  const BettingNode& n = policy_->tree().node(find_node(state));
  if (n.kind != NodeKind::kDecision || n.player != position)
    throw std::logic_error("policy agent asked for the probabilities of position " +
                           std::to_string(position) + " at betting '" + state.betting_string() +
                           "'");
  double p[kNumActionKinds];
  policy_->action_probabilities(n.round, n.id_in_round, bucket(state, position),
                                std::span<double>(p, n.num_actions));
  ActionProbabilities by_kind{};
  for (int slot = 0; slot < n.num_actions; ++slot)
    by_kind[static_cast<int>(n.actions[slot])] = p[slot];
  return by_kind;
}

}  // namespace hulhe
