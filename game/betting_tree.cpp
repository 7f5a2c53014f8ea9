#include "game/betting_tree.h"

#include <algorithm>
#include <climits>
#include <memory>

#include "util/input_error.h"

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

// Counts the nodes below a decision node. The subtree's shape depends only on the round,
// the raises so far, whether the round's first action is still to come, whether the player
// faces a bet and whether the opponent is behind (has put in less than the most: only at the
// root, when the first player posted the larger blind), so the counts are memoised on those.
class SizeCounter {
 public:
  explicit SizeCounter(const GameDefinition& g) : g_(g) {
    for (auto& a : memo_)
      for (auto& b : a)
        for (auto& c : b)
          for (auto& d : c)
            for (std::int64_t& x : d) x = -1;
  }

  std::int64_t decision(int round, int raises, bool first_action, bool facing_bet,
                        bool opponent_behind) {
    std::int64_t& memo = memo_[round][raises][first_action][facing_bet][opponent_behind];
    if (memo >= 0) return memo;
    std::int64_t n = 1;
    if (facing_bet) n = add(n, 1);  // fold
    // Call (or check): the caller now has the most, so only a player behind faces a bet.
    if (first_action)
      n = add(n, decision(round, raises, false, opponent_behind, false));
    else if (round + 1 < g_.num_rounds)
      n = add(n, decision(round + 1, 0, true, false, false));
    else
      n = add(n, 1);  // showdown
    if (raises < g_.max_raises[round]) n = add(n, decision(round, raises + 1, false, true, false));
    return memo = n;
  }

 private:
  static std::int64_t add(std::int64_t a, std::int64_t b) {
    return std::min(a + b, kMaxBettingTreeNodes + 1);
  }

  const GameDefinition& g_;
  std::int64_t memo_[kMaxRounds][256][2][2][2];
};

std::string max_raises_string(const GameDefinition& g) {
  std::string caps;
  for (int r = 0; r < g.num_rounds; ++r) {
    if (r > 0) caps += ' ';
    caps += std::to_string(g.max_raises[r]);
  }
  return caps;
}

}  // namespace

std::int64_t betting_tree_size(const GameDefinition& game) {
  auto counter = std::make_unique<SizeCounter>(game);
  const int first = game.first_player[0];
  return counter->decision(0, 0, true, game.blind[first] < game.blind[1 - first],
                           game.blind[1 - first] < game.blind[first]);
}

BettingTree::BettingTree(const GameDefinition& game) : game_(game) {
  if (game.num_players != 2 || game.betting_type != BettingType::kLimit)
    throw InputError("the betting tree needs a 2-player limit game; '" + game.name + "' is a " +
                     std::to_string(game.num_players) + "-player " +
                     (game.betting_type == BettingType::kLimit ? "limit" : "no-limit") + " game");
  for (int p = 0; p < 2; ++p)
    if (game.stack[p] != INT32_MAX)
      throw InputError("the betting tree needs unlimited stacks (a limit game without 'stack')");
  const std::int64_t size = betting_tree_size(game);
  if (size > kMaxBettingTreeNodes) {
    // Appended piece by piece: GCC 12 warns falsely on long chains of string +.
    std::string m = "the public betting tree of '";
    m.append(game.name).append("' would have more than ");
    m.append(std::to_string(kMaxBettingTreeNodes)).append(" nodes (maxRaises per round: ");
    m.append(max_raises_string(game)).append(", 255 when not given); limit games need a small ");
    m.append("raise cap in every round, e.g. 'maxRaises = 3 4 4 4'");
    throw InputError(m);
  }
  // Commitments are 32-bit, as in ACPC's State: the largest pot must fit.
  std::int64_t most = std::max(game.blind[0], game.blind[1]);
  for (int r = 0; r < game.num_rounds; ++r)
    most += std::int64_t{game.raise_size[r]} * game.max_raises[r];
  if (most > INT32_MAX) {
    std::string m = "the blinds and raises of '";
    m.append(game.name).append("' can commit ").append(std::to_string(most));
    m.append(" chips, more than 2^31-1");
    throw InputError(m);
  }
  nodes_.reserve(static_cast<std::size_t>(size));
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
