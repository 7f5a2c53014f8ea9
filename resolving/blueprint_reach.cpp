#include "resolving/blueprint_reach.h"

#include <array>

#include "util/input_error.h"

namespace hulhe {

std::vector<double> blueprint_reach(const Policy& policy, const BettingTree& tree,
                                    const PrivateHands& hands, std::int32_t node,
                                    std::span<const Card> board, int position) {
  const GameDefinition& game = tree.game();
  const int round = tree.node(node).round;
  if (static_cast<int>(board.size()) < game.total_board_cards(round))
    throw InputError("the board has fewer cards than the round needs");
  const CardSet seen = CardSet::of(board.first(game.total_board_cards(round)));
  std::vector<double> reach(hands.size(), 1.0);
  for (std::int32_t h = 0; h < hands.size(); ++h)
    if (hands.masks[h].intersects(seen)) reach[h] = 0.0;
  const CardAbstraction& abstraction = policy.abstraction();
  std::array<double, kNumActionKinds> probs{};
  for (std::int32_t child = node, parent = tree.node(node).parent; parent >= 0;
       child = parent, parent = tree.node(parent).parent) {
    const BettingNode& p = tree.node(parent);
    if (p.player != position) continue;
    int slot = 0;
    while (p.child[slot] != child) ++slot;
    for (std::int32_t h = 0; h < hands.size(); ++h) {
      if (reach[h] == 0.0) continue;
      const std::int32_t bucket = abstraction.bucket(p.round, hands.cards[h].data(), board.data());
      policy.action_probabilities(p.round, p.id_in_round, bucket,
                                  std::span<double>(probs.data(), p.num_actions));
      reach[h] *= probs[slot];
    }
  }
  return reach;
}

std::vector<double> blueprint_reach(const RangeSolver& blueprint, std::int32_t node,
                                    std::span<const Card> board, int position) {
  const BettingTree& tree = blueprint.tree();
  const GameDefinition& game = tree.game();
  const int round = tree.node(node).round;
  if (static_cast<int>(board.size()) < game.total_board_cards(round))
    throw InputError("the board has fewer cards than the round needs");
  const PrivateHands& hands = blueprint.hands();
  const CardSet seen = CardSet::of(board.first(game.total_board_cards(round)));
  std::vector<double> reach = blueprint.range(position);
  for (std::int32_t h = 0; h < hands.size(); ++h)
    if (hands.masks[h].intersects(seen)) reach[h] = 0.0;
  std::array<double, kNumActionKinds> probs{};
  for (std::int32_t child = node, parent = tree.node(node).parent; child != blueprint.root();
       child = parent, parent = tree.node(parent).parent) {
    if (parent < 0 || !blueprint.contains(parent))
      throw InputError("blueprint_reach: the node is not below the blueprint's root");
    const BettingNode& p = tree.node(parent);
    if (p.player != position) continue;
    int slot = 0;
    while (p.child[slot] != child) ++slot;
    const std::int32_t b =
        blueprint.boards().find(p.round, board.first(game.total_board_cards(p.round)));
    for (std::int32_t h = 0; h < hands.size(); ++h) {
      if (reach[h] == 0.0) continue;
      blueprint.average_strategy(parent, b, h, std::span<double>(probs.data(), p.num_actions));
      reach[h] *= probs[slot];
    }
  }
  return reach;
}

void copy_strategy(const RangeSolver& from, int position, RangeSolver& to) {
  if (from.tree().game().hash() != to.tree().game().hash())
    throw InputError("copy_strategy: the solvers are of different games");
  const std::int32_t n = from.hands().size();
  std::array<double, kNumActionKinds> probs{};
  for (std::int32_t node : from.decision_nodes()) {
    const BettingNode& b = from.tree().node(node);
    if (b.player != position || !to.contains(node)) continue;
    const int level = b.round - from.boards().root_round();
    const auto& boards = from.boards().level(level);
    for (std::size_t bi = 0; bi < boards.size(); ++bi) {
      const SubgameBoard& sb = boards[bi];
      const std::int32_t target =
          to.boards().find(b.round, std::span<const Card>(sb.cards.data(), sb.num_cards));
      if (target < 0) continue;
      for (std::int32_t h = 0; h < n; ++h) {
        if (from.hands().masks[h].intersects(sb.mask)) continue;
        from.average_strategy(node, static_cast<std::int32_t>(bi), h,
                              std::span<double>(probs.data(), b.num_actions));
        to.set_strategy(node, target, h, std::span<const double>(probs.data(), b.num_actions));
      }
    }
  }
}

}  // namespace hulhe
