#pragma once
// Enumerating the hands a HULHE hand can become: the next round's hands (one more board
// card, or the three flop cards preflop) and the complete river hands, each reported by its
// canonical index (HandIndexer::holdem). Feature code averages or histograms values looked
// up at those indices, so a value computed once per canonical hand serves every hand that
// reaches it. Templates: the callback is inlined into the loop.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "game/card.h"
#include "game/hand_indexer.h"

namespace hulhe {

// Board cards dealt by the end of round 0..3.
constexpr int board_cards_in_round(int round) {
  constexpr int kBoardCards[4] = {0, 3, 4, 5};
  return kBoardCards[round];
}

namespace detail {

// Calls f(index of cards + added) for every `add`-card set from the cards not in `cards`,
// in lexicographic order of ascending card tuples. `have` + `add` <= 7.
template <class F>
void for_each_extension(const HandIndexer& indexer, const Card* cards, int have, int add, F&& f) {
  Card buf[7];
  CardSet used;
  for (int i = 0; i < have; ++i) {
    buf[i] = cards[i];
    used.insert(cards[i]);
  }
  if (add == 0) {
    f(indexer.index(buf));
    return;
  }
  if (add == 1) {
    // One more card (flop to turn, turn to river): all its indices from one call.
    std::uint64_t index[kMaxCards];
    indexer.index_each_last_card(buf, index);
    for (int c = 0; c < kMaxCards; ++c)
      if (!used.contains(static_cast<Card>(c))) f(index[c]);
    return;
  }
  Card rest[kMaxCards];
  int m = 0;
  for (int c = 0; c < kMaxCards; ++c)
    if (!used.contains(static_cast<Card>(c))) rest[m++] = static_cast<Card>(c);
  if (add == 2) {
    // Two more cards (flop to river): for each first card, all second cards' indices from
    // one call, in the same ascending (first, second) order as the general loop below.
    std::uint64_t index[kMaxCards];
    for (int i = 0; i + 1 < m; ++i) {
      buf[have] = rest[i];
      indexer.index_each_last_card(buf, index);
      for (int j = i + 1; j < m; ++j) f(index[rest[j]]);
    }
    return;
  }
  int pos[7];
  for (int i = 0; i < add; ++i) pos[i] = i;
  for (;;) {
    for (int i = 0; i < add; ++i) buf[have + i] = rest[pos[i]];
    f(indexer.index(buf));
    int i = add - 1;
    while (i >= 0 && pos[i] == m - add + i) --i;
    if (i < 0) return;
    ++pos[i];
    for (int j = i + 1; j < add; ++j) pos[j] = pos[j - 1] + 1;
  }
}

inline void check_round(int round, int max_round) {
  if (round < 0 || round > max_round)
    throw std::invalid_argument("hand features: round must be in 0.." + std::to_string(max_round) +
                                ", got " + std::to_string(round));
}

}  // namespace detail

// cards: hole cards then the board of `round` (0..2). Calls f(next-round canonical index)
// for each next board card (47 on the flop, 46 on the turn) or each flop (19,600 preflop),
// in ascending card order.
template <class F>
void for_each_next_round_hand(int round, const Card* cards, F&& f) {
  detail::check_round(round, 2);
  const int have = 2 + board_cards_in_round(round);
  detail::for_each_extension(HandIndexer::holdem(round + 1), cards, have,
                             board_cards_in_round(round + 1) - board_cards_in_round(round), f);
}

// cards: hole cards then the board of `round` (0..3). Calls f(river canonical index) for
// each completion of the board to five cards (the hand itself on the river).
template <class F>
void for_each_river_hand(int round, const Card* cards, F&& f) {
  detail::check_round(round, 3);
  const int have = 2 + board_cards_in_round(round);
  detail::for_each_extension(HandIndexer::holdem(3), cards, have, 7 - have, f);
}

}  // namespace hulhe
