#pragma once
// The re-solving agent's subgames for the hold'em best response (subgame_values.h): each
// subgame the best response reaches is re-solved exactly as the agent would re-solve it
// (resolve_subgame: both ranges from the blueprint's reach, the safe gadget or none, the same
// iterations), for the agent's seat, and the responder's best-response values against the
// re-solved strategy are the subgame's values. `hulhe exploit --resolve` measures the agent
// this way, in the real game (docs/re-solving.md).
#include <cstdint>
#include <memory>
#include <string>

#include "abstraction/policy.h"
#include "best_response/holdem/subgame_values.h"
#include "game/betting_tree.h"
#include "resolving/subgame_resolve.h"

namespace hulhe {

class ResolvedSubgameValues final : public SubgameValueSource {
 public:
  // `blueprint`: the agent's strategy for the trunk and the source of its ranges and gadget;
  // `round`: the round the agent re-solves from (1 or more); `nested`: the agent re-solves
  // each later round's subgame again inside the first solve (ResolvingAgentOptions::nested).
  // The re-solves run on one thread each (the best response runs its units on threads);
  // options.seconds must be 0 (a time budget would make the result depend on the machine).
  // Throws InputError.
  ResolvedSubgameValues(std::shared_ptr<const Policy> blueprint, int round,
                        SubgameResolveOptions options, bool nested = false);

  int round() const override { return round_; }
  std::uint64_t key() const override;
  void best_response_values(std::int32_t entry, std::span<const Card> board, int responder,
                            const double* opponent_reach, double* out) const override;

 private:
  std::shared_ptr<const Policy> blueprint_;
  int round_ = 0;
  SubgameResolveOptions options_;
  bool nested_ = false;
};

// The source `hulhe exploit --resolve TEXT` (and Python's best_response(resolve=TEXT))
// measures: TEXT is `turn`, `river` (short for street=turn, street=river) or the re-solving
// agent's options (resolving_agent.h), with an iteration count, not a time budget. Throws
// InputError, messages beginning "--resolve TEXT: ".
std::shared_ptr<const SubgameValueSource> resolved_subgames_for(
    std::shared_ptr<const Policy> blueprint, const std::string& resolve);

}  // namespace hulhe
