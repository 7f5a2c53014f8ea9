#pragma once
// Values of the subgames below one round supplied from outside the hold'em best response
// (holdem_best_response.h): the strategy it responds to is the policy's up to that round and
// whatever the source plays from there on — a re-solving agent's subgame strategies
// (resolving/resolved_subgame_values.h), so that the best response measures the agent that
// re-solves at decision time, in the real game (Brown & Sandholm 2017 measure re-solving the
// same way: a best response to the combined strategy).
#include <cstdint>
#include <span>

#include "game/card.h"

namespace hulhe {

class SubgameValueSource {
 public:
  virtual ~SubgameValueSource() = default;
  // The round whose subgames the source plays (1 or more).
  virtual int round() const = 0;
  // What a resume file must match besides the policy: the source's settings.
  virtual std::uint64_t key() const = 0;
  // The best responder's counterfactual values at the subgame rooted at `entry` (an index into
  // the policy's betting tree: the first node of round()), the board `board` (every card
  // dealt up to round()), the responder in seat `responder`: for each hand h of
  // enumerate_private_hands(game), Σ_o opponent_reach(o) · E[u_responder | h, o], the
  // expectation over the boards still to come, in chips won. `opponent_reach` is the policy's
  // reach of the subgame per hand (0 where a hand touches the board). Called from several
  // threads at once.
  virtual void best_response_values(std::int32_t entry, std::span<const Card> board, int responder,
                                    const double* opponent_reach, double* out) const = 0;
};

}  // namespace hulhe
