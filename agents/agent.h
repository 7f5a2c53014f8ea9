#pragma once
// An agent plays hands: it sees what one seat sees (its own hole cards, the board dealt so
// far, the betting so far and the game definition, all in a GameState whose other hole
// cards are unknown) and returns a legal action. Strategy files, checkpoints, baseline
// policies and the rule, equity and 4-D function bots are agents; matches, tournaments,
// `hulhe play` and `hulhe dealer` use only this interface. On the command line an agent is
// named by a strategy-file path or `bot:NAME[:params.toml]` (agents/agent_factory.h).
//
// Determinism: an agent draws every random choice from the generator it is handed, which the
// caller seeds (per match and hand), so a match is reproducible from its seed.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "game/game_state.h"
#include "util/split_mix64.h"

namespace hulhe {

// A distribution over the action kinds, indexed by static_cast<int>(Action).
using ActionProbabilities = std::array<double, kNumActionKinds>;

class Agent {
 public:
  virtual ~Agent() = default;
  // Short name for logs and tables ("always-call", "leduc.strategy", ...).
  virtual std::string name() const = 0;
  // Called once before each hand; agents that keep per-hand state reset it here.
  virtual void new_hand() {}
  // The action of `position`, the player to act in `state` (state.current_player()).
  // Only state.hole_cards(position) may be read of the hole cards. Must return an action
  // for which state.is_legal() holds.
  virtual BetAction act(const GameState& state, int position, SplitMix64& rng) = 0;

  // The probabilities act() draws its action kind from at `state` for `position`, indexed by
  // Action (fold, call, raise; illegal kinds 0), without drawing anything. Empty when the
  // agent cannot say without playing (bots whose choice rests on a sampled equity); what a
  // person sees of an opponent's action and the range it is read into (human_play/
  // human_session.h, live_odds.h) come from here. `state` may hold any hole cards for
  // `position`: the range asks for every hand the opponent might hold.
  virtual std::optional<ActionProbabilities> action_probabilities(const GameState& state,
                                                                  int position) {
    (void)state;
    (void)position;
    return std::nullopt;
  }
};

}  // namespace hulhe
