#include "resolving/resolved_subgame_values.h"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "resolving/blueprint_reach.h"
#include "resolving/resolving_agent.h"
#include "util/checksums.h"
#include "util/input_error.h"

namespace hulhe {

ResolvedSubgameValues::ResolvedSubgameValues(std::shared_ptr<const Policy> blueprint, int round,
                                             SubgameResolveOptions options, bool nested)
    : blueprint_(std::move(blueprint)), round_(round), options_(options), nested_(nested) {
  const GameDefinition& game = blueprint_->tree().game();
  if (round_ < 1 || round_ >= game.num_rounds)
    throw InputError("game '" + game.name + "' has no round " + std::to_string(round_) +
                     " to re-solve from (1 to " + std::to_string(game.num_rounds - 1) + ")");
  if (options_.iterations < 1) throw InputError("a re-solve needs at least 1 iteration");
  if (options_.seconds > 0)
    throw InputError("measuring re-solving needs an iteration count, not a time budget");
  options_.solver.threads = 1;
  options_.opponent_average = nested_;  // nested solves take their ranges from both averages
}

std::uint64_t ResolvedSubgameValues::key() const {
  const std::uint64_t words[7] = {
      static_cast<std::uint64_t>(nested_),
      static_cast<std::uint64_t>(options_.gadget) + 1,
      static_cast<std::uint64_t>(
          options_.solver.algorithm == RangeSolverOptions::Algorithm::kCfrPlus ? 1 : 2),
      std::bit_cast<std::uint64_t>(options_.solver.alpha),
      std::bit_cast<std::uint64_t>(options_.solver.beta),
      std::bit_cast<std::uint64_t>(options_.solver.gamma),
      static_cast<std::uint64_t>(options_.iterations)};
  return checksum64(words, sizeof words, 0x7265736f6c7665ULL);  // "resolve"
}

void ResolvedSubgameValues::best_response_values(std::int32_t entry, std::span<const Card> board,
                                                 int responder, const double* opponent_reach,
                                                 double* out) const {
  const int agent = 1 - responder;
  SubgameResolve r =
      resolve_subgame(blueprint_->tree(), *blueprint_, entry, board, agent, options_);
  RangeSolver& s = *r.solver;
  if (nested_) {
    // Every later round's subgame re-solved inside the first solve as it was (the agent's
    // nested solves all start from it), then written into it for the best response.
    std::vector<SubgameResolve> inner;
    for (std::int32_t node : s.decision_nodes()) {
      const BettingNode& b = s.tree().node(node);
      if (node == entry || s.tree().node(b.parent).round == b.round) continue;
      for (const SubgameBoard& sb : s.boards().level(b.round - round_))
        inner.push_back(resolve_subgame(
            s, node, std::span<const Card>(sb.cards.data(), sb.num_cards), agent, options_));
    }
    for (const SubgameResolve& i : inner) copy_strategy(*i.solver, agent, s);
  }
  // The walk's reach of the agent is the blueprint's (the agent plays it in the trunk); the
  // responder's values are taken against exactly that reach.
  s.set_range(agent, std::span<const double>(opponent_reach, s.hands().size()));
  const std::vector<double> v = s.best_response_values(responder);
  std::copy(v.begin(), v.end(), out);
}

std::shared_ptr<const SubgameValueSource> resolved_subgames_for(
    std::shared_ptr<const Policy> blueprint, const std::string& resolve) {
  const std::string options =
      resolve == "turn" || resolve == "river" ? "street=" + resolve : resolve;
  const std::string what = "--resolve " + resolve;
  const ResolvingAgentSpec spec = ResolvingAgentSpec::parse_options(options, what);
  if (spec.options.resolve.seconds > 0)
    throw InputError(what +
                     ": seconds=… makes the result depend on the machine: give iterations=N");
  const GameDefinition& game = blueprint->tree().game();
  if (game.num_players != 2 || game.betting_type != BettingType::kLimit || game.num_hole_cards != 2)
    throw InputError(what + ": re-solving needs a 2-player limit hold'em game with 2 hole cards");
  try {
    return std::make_shared<ResolvedSubgameValues>(std::move(blueprint), spec.first_round(game),
                                                   spec.options.resolve, spec.options.nested);
  } catch (const InputError& e) {
    throw InputError(what + ": " + e.what());
  }
}

}  // namespace hulhe
