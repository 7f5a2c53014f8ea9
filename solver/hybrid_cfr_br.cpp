#include "solver/hybrid_cfr_br.h"

#include <algorithm>

#include "util/input_error.h"
#include "util/split_mix64.h"

namespace hulhe {

std::string hybrid_cfr_br_unavailable_reason(const GameDefinition& game) {
  const std::string intro =
      "algorithm 'cfr-br' (sampled, with the hybrid opponent) on game '" + game.name + "' ";
  if (game.num_players != 2) return intro + "needs 2 players";
  if (game.num_rounds < 2) return intro + "needs at least 2 rounds (a subgame of two rounds)";
  if (game.num_hole_cards < 1 || game.num_hole_cards > 2 || game.num_board_cards[0] != 0)
    return intro + "is not a game the public-tree walker handles";
  if (game.num_hole_cards + game.total_board_cards(std::max(0, game.num_rounds - 3)) > 8)
    return intro + "has too many cards in a trunk round to index";
  return "";
}

namespace {

const BettingTree& require_hybrid(const BettingTree& tree) {
  if (const std::string why = hybrid_cfr_br_unavailable_reason(tree.game()); !why.empty())
    throw InputError(why);
  return tree;
}

}  // namespace

HybridCfrBr::HybridCfrBr(const CfrParameters& params, const BettingTree& tree,
                         const CardAbstraction& abstraction, StrategyTables& tables)
    : VectorFormCfr(params, require_hybrid(tree), abstraction, tables, BoardMode::kSampleDeck),
      tree_(tree),
      subgame_round_(tree.game().num_rounds - 2) {
  const GameDefinition& game = tree.game();
  for (int r = 0; r < subgame_round_; ++r) {
    const int board = game.total_board_cards(r);
    indexers_.emplace_back(board == 0 ? std::vector<int>{game.num_hole_cards}
                                      : std::vector<int>{game.num_hole_cards, board});
  }
  trunk_offset_.assign(tree.nodes().size(), -1);
  std::int64_t size = 0;
  for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
    const BettingNode& node = tree.node(static_cast<std::int32_t>(i));
    if (node.kind != NodeKind::kDecision || node.round >= subgame_round_) continue;
    trunk_offset_[i] = size;
    size += static_cast<std::int64_t>(indexers_[node.round].size()) * node.num_actions;
  }
  trunk_regrets_.assign(static_cast<std::size_t>(size), 0.0F);
  trunk_sigma_.assign(walker_.sampled_hand_size(), 0.0);
  trunk_delta_.assign(walker_.sampled_hand_size(), 0.0);
  actions_.assign(walker_.sampled_action_size(), 0);
  for (int r = 0; r < subgame_round_; ++r) dealt_index_[r].assign(walker_.hands().size(), -1);
}

std::int64_t HybridCfrBr::trunk_index(int round, const Card* hole, const Card* board) const {
  const GameDefinition& game = tree_.game();
  std::array<Card, kMaxCards> cards{};
  const int h = game.num_hole_cards, b = game.total_board_cards(round);
  std::copy(hole, hole + h, cards.begin());
  std::copy(board, board + b, cards.begin() + h);
  return static_cast<std::int64_t>(indexers_[round].index(cards.data()));
}

void HybridCfrBr::trunk_strategy(std::int32_t node, std::int64_t index, double* sigma) const {
  const int A = tree_.node(node).num_actions;
  const float* r = trunk_regrets_.data() + trunk_offset_[node] + index * A;
  // Regret matching (Hart & Mas-Colell 2000), as CFR in the paper's trunk.
  double sum = 0.0;
  for (int a = 0; a < A; ++a) sum += std::max(0.0F, r[a]);
  for (int a = 0; a < A; ++a) sigma[a] = sum > 0.0 ? std::max(0.0F, r[a]) / sum : 1.0 / A;
}

void HybridCfrBr::index_dealt_hands() {
  const PrivateHands& hands = walker_.hands();
  const Card* board = walker_.dealt_board(0);
  for (int r = 0; r < subgame_round_; ++r) {
    CardSet mask;
    for (int i = 0; i < tree_.game().total_board_cards(r); ++i) mask.insert(board[i]);
    for (std::int32_t h = 0; h < hands.size(); ++h)
      dealt_index_[r][h] =
          hands.masks[h].intersects(mask) ? -1 : trunk_index(r, hands.cards[h].data(), board);
  }
}

void HybridCfrBr::run(std::int64_t first, std::int64_t count, int threads) {
  const std::int32_t n = walker_.hands().size();
  const auto& nodes = tree_.nodes();
  for (std::int64_t t = first; t < first + count; ++t) {
    SplitMix64 rng = SplitMix64::for_iteration(params_.seed, t);
    walker_.sample_board(0, rng);
    walker_.prepare_last_round(0);
    index_dealt_hands();
    // sigma^t of both seats: seat p's regrets change only in its own step 3, after the
    // response walk that reads them, so one snapshot serves both walks (a lookup per
    // bucket instead of regret matching per hand at every node of 48 rivers).
    snapshot_strategy();
    for (int p = 0; p < 2; ++p) {
      const int o = 1 - p;
      // 1. The hybrid opponent's trunk strategy on this board.
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (trunk_offset_[i] < 0 || nodes[i].player != o) continue;
        const int A = nodes[i].num_actions;
        const std::int64_t at = walker_.sampled_hand_offset(static_cast<std::int32_t>(i));
        const std::vector<std::int64_t>& index = dealt_index_[nodes[i].round];
        for (std::int32_t h = 0; h < n; ++h) {
          if (index[h] >= 0)
            trunk_strategy(static_cast<std::int32_t>(i), index[h],
                           trunk_sigma_.data() + at + h * A);
          std::fill_n(trunk_delta_.data() + at + static_cast<std::int64_t>(h) * A, A, 0.0);
        }
      }
      // 2. Its trunk regrets and its best response in the subgames below the dealt board.
      std::fill(actions_.begin(), actions_.end(), std::uint8_t{0});
      CfrPass response;
      response.traverser = o;
      response.set_tables(tables_);  // nothing is written there
      response.strategy = sigma_.data();
      response.average_weight = 0.0;
      response.sampled = true;
      response.enumerate_last_round = true;
      response.subgame_round = subgame_round_;
      response.responder_trunk_strategy = trunk_sigma_.data();
      response.responder_trunk_regrets = trunk_delta_.data();
      response.response_actions = actions_.data();
      response.threads = std::max(1, threads);
      walker_.hybrid_response_pass(response);
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (trunk_offset_[i] < 0 || nodes[i].player != o) continue;
        const int A = nodes[i].num_actions;
        const double* delta =
            trunk_delta_.data() + walker_.sampled_hand_offset(static_cast<std::int32_t>(i));
        float* regret = trunk_regrets_.data() + trunk_offset_[i];
        const std::vector<std::int64_t>& index = dealt_index_[nodes[i].round];
        // Suit-isomorphic hands on this board share one information set: their increments add.
        for (std::int32_t h = 0; h < n; ++h)
          if (index[h] >= 0)
            for (int a = 0; a < A; ++a)
              regret[index[h] * A + a] += static_cast<float>(delta[h * A + a]);
      }
      // 3. p's sampled CFR pass against the hybrid.
      CfrPass pass;
      pass.traverser = p;
      pass.set_tables(tables_);
      pass.average_weight = 1.0;
      pass.regret_weight = params_.regret_weight;
      pass.sampled = true;
      pass.subgame_round = subgame_round_;
      pass.opponent_trunk_strategy = trunk_sigma_.data();
      pass.opponent_actions = actions_.data();
      walker_.cfr_pass_on(0, pass);
    }
  }
}

}  // namespace hulhe
