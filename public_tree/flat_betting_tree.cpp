#include "public_tree/flat_betting_tree.h"

namespace hulhe {

std::vector<FlatNode> flatten_betting_tree(const BettingTree& tree, const StrategyTables* tables) {
  std::vector<FlatNode> out(tree.nodes().size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const BettingNode& b = tree.nodes()[i];
    FlatNode& n = out[i];
    n.kind = b.kind;
    n.round = b.round;
    n.player = b.player;
    n.num_actions = b.num_actions;
    n.child = b.child;
    if (b.kind == NodeKind::kDecision) {
      if (tables != nullptr) {
        n.table_offset = tables->offset(b.round, b.id_in_round, 0);
        n.bucket_stride = static_cast<std::int32_t>(tables->bucket_stride(b.round, b.id_in_round));
      } else {
        n.bucket_stride = b.num_actions;
      }
    } else if (b.kind == NodeKind::kFold) {
      // The folder loses what it put in; the other position wins it.
      const int folder = b.player;
      n.win[folder] = -b.committed[folder];
      n.win[1 - folder] = b.committed[folder];
    } else {
      for (int p = 0; p < 2; ++p) {
        n.win[p] = b.committed[1 - p];
        n.lose[p] = -b.committed[p];
      }
    }
  }
  return out;
}

}  // namespace hulhe
