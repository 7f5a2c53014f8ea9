#include "solver/cfr_br.h"

#include <algorithm>

#include "public_tree/private_hands.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

const CardAbstraction& require_exact_best_response(const BettingTree& tree,
                                                   const CardAbstraction& abstraction) {
  if (const std::string why = cfr_br_unavailable_reason(tree.game()); !why.empty())
    throw InputError(why);
  return abstraction;
}

}  // namespace

std::string cfr_br_unavailable_reason(const GameDefinition& game) {
  const std::string intro =
      "algorithm 'cfr-br' needs an exact real-game best response every iteration and is "
      "available for the small games (Kuhn, Leduc, the reduced hold'em games); game '" +
      game.name + "' ";
  if (game.num_players != 2 || game.num_hole_cards < 1 || game.num_hole_cards > 2 ||
      game.num_board_cards[0] != 0)
    return intro + "is not a 2-player game the exact walk handles";
  const auto boards = count_public_boards(game);
  const std::int64_t hands = binomial(game.deck_size(), game.num_hole_cards);
  std::int64_t total = 0;
  for (int r = 0; r < game.num_rounds; ++r) total += boards[r] * hands;
  if (total > PublicTreeTraversal::kDefaultMaxBoardHands)
    return intro + "is too large (" + std::to_string(total) + " board x hand pairs, limit " +
           std::to_string(PublicTreeTraversal::kDefaultMaxBoardHands) + ")";
  return "";
}

CfrBr::CfrBr(const CfrParameters& params, const BettingTree& tree,
             const CardAbstraction& abstraction, StrategyTables& tables)
    : VectorFormCfr(params, tree, require_exact_best_response(tree, abstraction), tables) {
  first_action_.assign(walker_.hand_strategy_size(), 0.0);
  const std::int32_t n = walker_.hands().size();
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(tree.nodes().size()); ++i) {
    const BettingNode& node = tree.node(i);
    if (node.kind != NodeKind::kDecision) continue;
    const int a = node.num_actions;
    const std::int64_t entries =
        static_cast<std::int64_t>(walker_.boards().num_boards(node.round)) * n;
    double* s = first_action_.data() + walker_.hand_strategy_offset(i);
    for (std::int64_t e = 0; e < entries; ++e) s[e * a] = 1.0;
  }
  response_ = first_action_;
}

void CfrBr::run(std::int64_t first, std::int64_t count, int threads) {
  for (std::int64_t t = first; t < first + count; ++t) {
    snapshot_strategy();  // sigma^t; each seat's pass reads only its own half of it
    for (int p = 0; p < 2; ++p) {
      std::copy(first_action_.begin(), first_action_.end(), response_.begin());
      walker_.best_response_value(1 - p, sigma_.data(), threads, response_.data());
      CfrPass pass;
      pass.traverser = p;
      pass.strategy = sigma_.data();
      pass.opponent_hand_strategy = response_.data();
      pass.set_tables(tables_);
      pass.average_weight = 1.0;
      pass.threads = threads;
      walker_.cfr_pass(pass);
    }
  }
}

}  // namespace hulhe
