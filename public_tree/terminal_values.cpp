#include "public_tree/terminal_values.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "game/hand_evaluator.h"

namespace hulhe {

ShowdownOrder make_showdown_order(const GameDefinition& game, const PrivateHands& hands,
                                  CardSet board) {
  const bool full_deck = game.deck_size() == kMaxCards;       // the 7-card table evaluator
  std::vector<std::pair<std::int32_t, std::int32_t>> ranked;  // (rank, hand)
  for (std::int32_t h = 0; h < hands.size(); ++h) {
    if (hands.masks[h].intersects(board)) continue;
    const CardSet all = hands.masks[h] | board;
    const std::int32_t rank =
        full_deck ? static_cast<std::int32_t>(evaluate(all)) : rank_cards_acpc(all);
    ranked.emplace_back(rank, h);
  }
  std::sort(ranked.begin(), ranked.end());
  ShowdownOrder order;
  order.hands.reserve(ranked.size());
  order.ranks.reserve(ranked.size());
  for (const auto& [rank, h] : ranked) {
    order.hands.push_back(h);
    order.ranks.push_back(rank);
  }
  return order;
}

void fold_values(const PrivateHands& hands, const std::int32_t* valid, const double* opp_reach,
                 double payoff, double* out) {
  const std::int32_t n = hands.size();
  std::array<double, kMaxCards> card_reach{};  // C[c]: opponent reach of hands holding c
  double total = 0.0;
  for (std::int32_t h = 0; h < n; ++h) {
    const double p = opp_reach[h];
    total += p;
    card_reach[hands.cards[h][0]] += p;
    if (hands.num_hole_cards == 2) card_reach[hands.cards[h][1]] += p;
  }
  if (hands.num_hole_cards == 1) {
    for (std::int32_t h = 0; h < n; ++h)
      out[h] = valid[h] >= 0 ? payoff * (total - card_reach[hands.cards[h][0]]) : 0.0;
  } else {
    // T − C[c1] − C[c2] + π(h): hand h itself was subtracted twice.
    for (std::int32_t h = 0; h < n; ++h)
      out[h] = valid[h] >= 0 ? payoff * (total - card_reach[hands.cards[h][0]] -
                                         card_reach[hands.cards[h][1]] + opp_reach[h])
                             : 0.0;
  }
}

void showdown_values(const PrivateHands& hands, const ShowdownOrder& order, const double* opp_reach,
                     double win, double lose, double* out) {
  std::fill(out, out + hands.size(), 0.0);
  const std::int32_t m = static_cast<std::int32_t>(order.hands.size());
  const bool two = hands.num_hole_cards == 2;
  std::array<double, kMaxCards> card_reach{};
  // Of `counted` (the opponent hands counted so far), the reach of those that share no card
  // with hand h.
  const auto without_blockers = [&](double counted, std::int32_t h) {
    double r = counted - card_reach[hands.cards[h][0]];
    if (two) r -= card_reach[hands.cards[h][1]];
    return r;
  };
  // Counts opponent hand h into `counted` and its cards' reach.
  const auto count = [&](std::int32_t h, double& counted) {
    counted += opp_reach[h];
    card_reach[hands.cards[h][0]] += opp_reach[h];
    if (two) card_reach[hands.cards[h][1]] += opp_reach[h];
  };
  // Upward sweep: reach of strictly weaker opponent hands, group by group (ties excluded).
  double below = 0.0;
  for (std::int32_t start = 0; start < m;) {
    std::int32_t end = start;
    while (end < m && order.ranks[end] == order.ranks[start]) ++end;
    for (std::int32_t i = start; i < end; ++i)
      out[order.hands[i]] = win * without_blockers(below, order.hands[i]);
    for (std::int32_t i = start; i < end; ++i) count(order.hands[i], below);
    start = end;
  }
  // Downward sweep: reach of strictly stronger opponent hands.
  card_reach.fill(0.0);
  double above = 0.0;
  for (std::int32_t end = m; end > 0;) {
    std::int32_t start = end;
    while (start > 0 && order.ranks[start - 1] == order.ranks[end - 1]) --start;
    for (std::int32_t i = start; i < end; ++i)
      out[order.hands[i]] += lose * without_blockers(above, order.hands[i]);
    for (std::int32_t i = start; i < end; ++i) count(order.hands[i], above);
    end = start;
  }
}

}  // namespace hulhe
