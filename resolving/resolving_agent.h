#pragma once
// The re-solving agent (`resolve:FILE[:options]`): a blueprint strategy file plays the rounds
// before the re-solved ones; from the first re-solved round (the turn by default, or only the
// river) the agent re-solves the rest of the hand once per public state, safely, with every
// card dealt and the ranges the blueprint implies (subgame_resolve.h), and samples its own
// hand's action from the re-solved average strategy. A turn solve also covers the river: the
// river is played from it, not re-solved again (no nested re-solving).
//
// Each copy of the agent (one per thread and seat) keeps its own last solve; the blueprint is
// shared, read-only. Deterministic: the solve runs a fixed number of iterations unless a time
// budget is given, and the action is drawn from the generator the caller hands in.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "abstraction/policy.h"
#include "agents/agent.h"
#include "agents/policy_agent.h"
#include "resolving/subgame_resolve.h"

namespace hulhe {

struct ResolvingAgentOptions {
  int first_round = -1;  // the first re-solved round; -1: the turn (num_rounds - 2, at least 1)
  SubgameResolveOptions resolve;
  // Nested re-solving (Brown & Sandholm 2017): each later round's subgame is re-solved again
  // at its start, inside the first solve (its ranges and gadget values from that solve), with
  // the same options, instead of playing on the first solve's strategy.
  bool nested = false;
};

// `resolve:FILE[:key=value]...` with keys street=turn|river (or round=R), iterations=N,
// seconds=S (a time budget per solve), threads=T, algorithm=dcfr|cfr+,
// precision=single|double (single by default), gadget=maxmargin|resolve|unsafe (safe: resolve),
// nested=0|1. InputError (one line) on an unknown key or a bad value.
struct ResolvingAgentSpec {
  std::string path;
  std::string street = "turn";
  int round = -1;
  ResolvingAgentOptions options;
  static ResolvingAgentSpec parse(const std::string& spec);
  // The options alone (`street=river:iterations=50`), no file; messages begin with `what`
  // ("--resolve street=river:…"). `hulhe exploit --resolve` reads its options this way.
  static ResolvingAgentSpec parse_options(const std::string& options, const std::string& what);
  // The first re-solved round in `game`: round=R, or street=river (the last round) or turn
  // (the one before, at least 1). InputError when the game has no such round.
  int first_round(const GameDefinition& game) const;
};

class ResolvingAgent final : public Agent {
 public:
  // `blueprint` is a policy of `game`'s limit betting tree; `tree` that game's tree (shared).
  ResolvingAgent(std::shared_ptr<const Policy> blueprint, std::shared_ptr<const BettingTree> tree,
                 ResolvingAgentOptions options, std::string name);

  std::string name() const override { return name_; }
  BetAction act(const GameState& state, int position, SplitMix64& rng) override;
  std::optional<ActionProbabilities> action_probabilities(const GameState& state,
                                                          int position) override;

  // Solves done by this copy, and the last one's iterations (benchmarks, tests).
  std::int64_t solves() const { return solves_; }
  const SubgameResolve* last_resolve() const { return resolve_ ? &*resolve_ : nullptr; }

 private:
  // The re-solved probabilities (by slot of the node) of `position`'s hand at `state`; null
  // when the state's round is played by the blueprint.
  bool resolved_probabilities(const GameState& state, int position, std::int32_t node, double* out);
  // The solve that holds `node`'s round for `position` at `state`: the first re-solved
  // round's (made when missing), or with options_.nested a later round's inside it.
  const RangeSolver& solve_for(const GameState& state, int position, std::int32_t node);

  std::shared_ptr<const Policy> blueprint_;
  std::shared_ptr<const BettingTree> tree_;
  ResolvingAgentOptions options_;
  std::string name_;
  PolicyAgent trunk_;
  int first_round_ = 0;
  std::optional<SubgameResolve> resolve_;
  std::int32_t resolved_root_ = -1;
  int resolved_position_ = -1;
  std::uint64_t resolved_board_ = 0;
  std::optional<SubgameResolve> nested_;  // options_.nested: the later round's re-solve
  std::int32_t nested_root_ = -1;
  std::uint64_t nested_board_ = 0;
  std::int64_t solves_ = 0;
};

}  // namespace hulhe
