#include "resolving/subgame_boards.h"

#include <algorithm>

#include "util/combinatorics.h"
#include "util/input_error.h"

namespace hulhe {

SubgameBoards::SubgameBoards(const GameDefinition& game, int root_round,
                             std::span<const Card> board)
    : root_round_(root_round) {
  if (root_round < 0 || root_round >= game.num_rounds)
    throw InputError("subgame round " + std::to_string(root_round) + " is not a round of the game");
  const int expected = game.total_board_cards(root_round);
  if (static_cast<int>(board.size()) != expected)
    throw InputError("a subgame at round " + std::to_string(root_round) + " needs " +
                     std::to_string(expected) + " board cards, not " +
                     std::to_string(board.size()));
  const CardSet deck = game.deck_set();
  SubgameBoard root;
  for (std::size_t i = 0; i < board.size(); ++i) {
    if (!deck.contains(board[i]) || root.mask.contains(board[i]))
      throw InputError("board card '" + card_to_string(board[i]) +
                       "' is repeated or not of the game's deck");
    root.cards[i] = board[i];
    root.mask.insert(board[i]);
  }
  root.num_cards = expected;
  levels_.push_back({root});
  const std::vector<Card> deck_cards = game.deck();
  for (int r = root_round + 1; r < game.num_rounds; ++r) {
    const int k = game.num_board_cards[r];
    std::vector<SubgameBoard>& parents = levels_.back();
    std::vector<SubgameBoard> next;
    const int left = game.deck_size() - parents.front().num_cards;
    children_.push_back(static_cast<std::int32_t>(binomial(left, k)));
    compatible_.push_back(binomial(left - 2 * game.num_hole_cards, k));
    for (std::size_t p = 0; p < parents.size(); ++p) {
      parents[p].first_child = static_cast<std::int32_t>(next.size());
      std::vector<Card> rest;
      for (Card c : deck_cards)
        if (!parents[p].mask.contains(c)) rest.push_back(c);
      // Every k-subset of `rest`, ascending (k <= 3 in hold'em games: the flop).
      std::vector<int> idx(k);
      for (int i = 0; i < k; ++i) idx[i] = i;
      const int m = static_cast<int>(rest.size());
      while (true) {
        SubgameBoard b = parents[p];
        b.parent = static_cast<std::int32_t>(p);
        b.new_cards = CardSet();
        for (int i = 0; i < k; ++i) {
          b.cards[b.num_cards++] = rest[idx[i]];
          b.mask.insert(rest[idx[i]]);
          b.new_cards.insert(rest[idx[i]]);
        }
        next.push_back(b);
        int i = k - 1;
        while (i >= 0 && idx[i] == m - k + i) --i;
        if (i < 0) break;
        ++idx[i];
        for (int j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
      }
    }
    round_cards_.push_back(k);
    levels_.push_back(std::move(next));
  }
  children_.push_back(0);
  compatible_.push_back(0);
}

std::int32_t SubgameBoards::find(int round, std::span<const Card> cards) const {
  const int k = round - root_round_;
  if (k < 0 || k >= num_levels()) return -1;
  const SubgameBoard& root = levels_[0][0];
  if (static_cast<int>(cards.size()) < root.num_cards) return -1;
  for (int i = 0; i < root.num_cards; ++i)
    if (cards[i] != root.cards[i]) return -1;
  std::int32_t b = 0;
  int used = root.num_cards;
  for (int level = 1; level <= k; ++level) {
    const int n = round_cards_[level - 1];
    if (static_cast<int>(cards.size()) < used + n) return -1;
    const CardSet want = CardSet::of(cards.subspan(used, n));
    const std::int32_t first = levels_[level - 1][b].first_child;
    std::int32_t found = -1;
    for (std::int32_t c = first; c < first + children_[level - 1]; ++c)
      if (levels_[level][c].new_cards == want) {
        found = c;
        break;
      }
    if (found < 0) return -1;
    b = found;
    used += n;
  }
  return used == static_cast<int>(cards.size()) ? b : -1;
}

}  // namespace hulhe
