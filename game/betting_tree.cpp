#include "game/betting_tree.h"

#include <algorithm>

#include "game/input_error.h"

namespace hulhe {

char action_char(Action a) {
  switch (a) {
    case Action::kFold:
      return 'f';
    case Action::kCall:
      return 'c';
    case Action::kRaise:
      return 'r';
  }
  return '?';
}

namespace {

// Builds the tree depth first. The rules are those of ACPC game.c doAction restricted to two
// players with unlimited stacks: a call that is not the first action of a round closes the
// round (it answers a raise, or the opponent's check); a raise puts the raiser raise_size
// above the largest commitment; at most max_raises raises a round (blinds are not raises).
class Builder {
 public:
  Builder(const GameDefinition& g, std::vector<BettingNode>& nodes,
          std::array<std::vector<std::int32_t>, kMaxRounds>& decisions,
          std::array<std::array<std::int32_t, 3>, kMaxRounds>& counts)
      : g_(g), nodes_(nodes), decisions_(decisions), counts_(counts) {}

  // Adds the decision node at the start of `round` or after an action, returns its index.
  std::int32_t decision(int round, int player, std::array<std::int32_t, 2> committed, int raises,
                        int actions_in_round, std::int32_t parent) {
    const auto self = static_cast<std::int32_t>(nodes_.size());
    nodes_.emplace_back();
    {
      BettingNode& n = nodes_.back();
      n.kind = NodeKind::kDecision;
      n.round = static_cast<std::uint8_t>(round);
      n.player = static_cast<std::uint8_t>(player);
      n.committed = committed;
      n.parent = parent;
      n.raises_this_round = static_cast<std::uint8_t>(raises);
      n.id_in_round = static_cast<std::int32_t>(decisions_[round].size());
      decisions_[round].push_back(self);
      const bool facing_bet = committed[player] < std::max(committed[0], committed[1]);
      int k = 0;
      if (facing_bet) n.actions[k++] = Action::kFold;
      n.actions[k++] = Action::kCall;
      if (raises < g_.max_raises[round]) n.actions[k++] = Action::kRaise;
      n.num_actions = static_cast<std::uint8_t>(k);
    }
    const int opponent = 1 - player;
    const std::int32_t top = std::max(committed[0], committed[1]);
    for (int slot = 0; slot < nodes_[self].num_actions; ++slot) {
      std::int32_t child = -1;
      switch (nodes_[self].actions[slot]) {
        case Action::kFold:
          child = terminal(NodeKind::kFold, round, player, committed, raises, self);
          break;
        case Action::kCall: {
          std::array<std::int32_t, 2> c = committed;
          c[player] = top;
          if (actions_in_round == 0) {
            child = decision(round, opponent, c, raises, actions_in_round + 1, self);
          } else if (round + 1 < g_.num_rounds) {
            child = decision(round + 1, g_.first_player[round + 1], c, 0, 0, self);
          } else {
            child = terminal(NodeKind::kShowdown, round, player, c, raises, self);
          }
          break;
        }
        case Action::kRaise: {
          std::array<std::int32_t, 2> c = committed;
          c[player] = top + g_.raise_size[round];
          child = decision(round, opponent, c, raises + 1, actions_in_round + 1, self);
          break;
        }
      }
      nodes_[self].child[slot] = child;
    }
    return self;
  }

 private:
  std::int32_t terminal(NodeKind kind, int round, int player, std::array<std::int32_t, 2> committed,
                        int raises, std::int32_t parent) {
    const auto self = static_cast<std::int32_t>(nodes_.size());
    BettingNode& n = nodes_.emplace_back();
    n.kind = kind;
    n.round = static_cast<std::uint8_t>(round);
    n.player = static_cast<std::uint8_t>(player);
    n.committed = committed;
    n.parent = parent;
    n.raises_this_round = static_cast<std::uint8_t>(raises);
    n.id_in_round = counts_[round][static_cast<int>(kind)]++;
    return self;
  }

  const GameDefinition& g_;
  std::vector<BettingNode>& nodes_;
  std::array<std::vector<std::int32_t>, kMaxRounds>& decisions_;
  std::array<std::array<std::int32_t, 3>, kMaxRounds>& counts_;
};

}  // namespace

BettingTree::BettingTree(const GameDefinition& game) : game_(game) {
  if (game.num_players != 2 || game.betting_type != BettingType::kLimit)
    throw InputError("the betting tree needs a 2-player limit game; '" + game.name + "' is a " +
                     std::to_string(game.num_players) + "-player " +
                     (game.betting_type == BettingType::kLimit ? "limit" : "no-limit") + " game");
  for (int p = 0; p < 2; ++p)
    if (game.stack[p] != INT32_MAX)
      throw InputError("the betting tree needs unlimited stacks (a limit game without 'stack')");
  std::array<std::array<std::int32_t, 3>, kMaxRounds> counts{};
  Builder b(game_, nodes_, decision_nodes_, counts);
  b.decision(0, game.first_player[0], {game.blind[0], game.blind[1]}, 0, 0, -1);
  for (int r = 0; r < kMaxRounds; ++r) {
    num_folds_[r] = counts[r][static_cast<int>(NodeKind::kFold)];
    num_showdowns_[r] = counts[r][static_cast<int>(NodeKind::kShowdown)];
  }
}

std::int32_t BettingTree::num_terminal_nodes(int round) const {
  return num_folds_[round] + num_showdowns_[round];
}

std::int64_t BettingTree::sequences_entering_round(int round) const {
  if (round == 0) return 1;
  std::int64_t n = 0;
  for (std::int32_t i : decision_nodes_[round]) {
    const BettingNode& node = nodes_[i];
    if (node.parent >= 0 && nodes_[node.parent].round + 1 == node.round) ++n;
  }
  return n;
}

std::string BettingTree::betting_string(std::int32_t node) const {
  std::string s;
  // Walk up to the root, writing each action (and a '/' where a round starts) backwards.
  std::int32_t i = node;
  while (nodes_[i].parent >= 0) {
    const BettingNode& parent = nodes_[nodes_[i].parent];
    if (nodes_[i].round != parent.round) s += '/';
    for (int slot = 0; slot < parent.num_actions; ++slot)
      if (parent.child[slot] == i) s += action_char(parent.actions[slot]);
    i = nodes_[i].parent;
  }
  std::reverse(s.begin(), s.end());
  return s;
}

}  // namespace hulhe
