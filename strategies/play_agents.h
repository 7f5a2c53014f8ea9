#pragma once
// The agents `hulhe play` can field (a minimal factory until strategies/agent_factory.h):
//   PATH                a strategy file: bucket the cards through the file's abstraction,
//                       find the betting node, sample the quantised probabilities
//   bot:always-fold     fold when facing a bet, else check
//   bot:always-call     check or call
//   bot:always-raise    bet or raise when allowed (no-limit: the minimum raise), else call
//   bot:uniform         each legal action kind with equal probability (no-limit raises:
//                       raise-to uniform over the legal range)
// The bots play any ACPC game (limit and no-limit, 2 and 3 players); strategy files play the
// 2-player limit game they were solved for.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "game/game_definition.h"
#include "strategies/agent.h"
#include "strategies/strategy_file.h"

namespace hulhe {

class StrategyFileAgent final : public Agent {
 public:
  StrategyFileAgent(std::shared_ptr<const StrategyFile> file, std::string name);

  std::string name() const override { return name_; }
  void new_hand() override { cached_round_ = -1; }
  BetAction act(const GameState& state, int position, SplitMix64& rng) override;

  // The information set the state is in for `position`: round, the decision node's id in
  // its round, and the bucket of the position's cards. Throws InputError if the betting is
  // not in the file's tree (a state of another game).
  struct InfoSet {
    int round = 0;
    std::int32_t node = 0;  // id_in_round
    std::int32_t bucket = 0;
  };
  InfoSet information_set(const GameState& state, int position);
  const StrategyFile& file() const { return *file_; }

 private:
  std::shared_ptr<const StrategyFile> file_;
  std::string name_;
  // A round's bucket does not change between its decisions: look it up once.
  int cached_round_ = -1;
  std::int32_t cached_bucket_ = 0;
};

// The decision node (index into tree.nodes()) that `state`'s betting leads to; -1 if the
// betting leaves the tree.
std::int32_t find_decision_node(const BettingTree& tree, const GameState& state);

// "always-fold", "always-call", "always-raise", "uniform".
const std::vector<std::string>& play_bot_names();
// A bot by name (without "bot:"); InputError for an unknown name, listing the known ones.
std::unique_ptr<Agent> make_play_bot(const std::string& name);
// A strategy-file path or "bot:NAME", checked against `game` (a strategy file of another
// game is an InputError naming both).
std::unique_ptr<Agent> make_play_agent(const std::string& spec, const GameDefinition& game);

}  // namespace hulhe
