#pragma once
// The public betting tree of a 2-player limit game: every betting sequence, with dense node
// ids per round. Chance (dealing board cards) is implicit: a child whose `round` is larger
// than its parent's starts the next round, after that round's board cards are dealt.
// Positions are ACPC's per-hand player indices.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "game/game_definition.h"

namespace hulhe {

enum class Action : std::uint8_t { kFold = 0, kCall = 1, kRaise = 2 };  // call includes check
inline constexpr int kNumActionKinds = 3;
char action_char(Action a);  // 'f', 'c', 'r'

enum class NodeKind : std::uint8_t { kDecision, kFold, kShowdown };

struct BettingNode {
  NodeKind kind = NodeKind::kDecision;
  std::uint8_t round = 0;
  std::uint8_t player = 0;       // position to act (decision nodes); folder at fold nodes
  std::uint8_t num_actions = 0;  // decision nodes: legal actions, in the order of `actions`
  std::int32_t id_in_round = 0;  // dense per round and kind: decision ids 0..D_r-1
  std::array<Action, kNumActionKinds> actions{};
  std::array<std::int32_t, kNumActionKinds> child{-1, -1, -1};  // index into nodes(), by slot
  std::array<std::int32_t, 2> committed{};  // chips each position has put in the pot
  std::int32_t parent = -1;
  std::uint8_t raises_this_round = 0;
};

// The largest public tree built. Real limit games are far smaller (HULHE: 16,584 nodes);
// a limit game without a raise cap (ACPC's default for a missing `maxRaises`: 255 a round)
// would have about 10^14 nodes.
inline constexpr std::int64_t kMaxBettingTreeNodes = 10'000'000;

// Nodes of the public betting tree of a 2-player limit game, counted without building it;
// saturates at kMaxBettingTreeNodes + 1.
std::int64_t betting_tree_size(const GameDefinition& game);

class BettingTree {
 public:
  // Throws InputError unless the game is a 2-player limit game whose tree has at most
  // kMaxBettingTreeNodes nodes.
  explicit BettingTree(const GameDefinition& game);

  const GameDefinition& game() const { return game_; }
  const std::vector<BettingNode>& nodes() const { return nodes_; }
  const BettingNode& node(std::int32_t i) const { return nodes_[i]; }
  std::int32_t root() const { return 0; }
  // Index into nodes() of decision node `id_in_round` of `round`.
  std::int32_t decision_node(int round, std::int32_t id_in_round) const {
    return decision_nodes_[round][id_in_round];
  }
  std::int32_t num_decision_nodes(int round) const {
    return static_cast<std::int32_t>(decision_nodes_[round].size());
  }
  std::int32_t num_terminal_nodes(int round) const;
  // Terminal ids are dense per round and kind: fold ids 0..F_r-1, showdown ids 0..S_r-1.
  std::int32_t num_fold_nodes(int round) const { return num_folds_[round]; }
  std::int32_t num_showdown_nodes(int round) const { return num_showdowns_[round]; }
  // Betting sequences that reach the start of `round` (1 for round 0).
  std::int64_t sequences_entering_round(int round) const;
  // ACPC betting string of a node, e.g. "rc/crc/r".
  std::string betting_string(std::int32_t node) const;

 private:
  GameDefinition game_;
  std::vector<BettingNode> nodes_;
  std::array<std::vector<std::int32_t>, kMaxRounds> decision_nodes_;
  std::array<std::int32_t, kMaxRounds> num_folds_{};
  std::array<std::int32_t, kMaxRounds> num_showdowns_{};
};

}  // namespace hulhe
