#include "game/game_size.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <unordered_set>
#include <vector>

#include "game/hand_indexer.h"
#include "util/combinatorics.h"

namespace hulhe {
namespace {

// Calls f(mask) for every k-subset of the cards in `from`.
template <typename F>
void for_each_subset(const std::vector<Card>& from, int k, std::uint64_t base, F&& f) {
  std::vector<int> idx(static_cast<std::size_t>(k));
  std::iota(idx.begin(), idx.end(), 0);
  const int n = static_cast<int>(from.size());
  if (k > n) return;
  do {
    std::uint64_t m = base;
    for (int i : idx) m |= std::uint64_t{1} << from[i];
    f(m);
  } while (next_k_subset(idx, k, n));
}

// The smallest (hole, board) mask pair over all permutations of the game's suits.
std::pair<std::uint64_t, std::uint64_t> canonical(std::uint64_t hole, std::uint64_t board,
                                                  const std::vector<std::array<int, 4>>& perms) {
  std::pair<std::uint64_t, std::uint64_t> best{~0ULL, ~0ULL};
  for (const auto& perm : perms) {
    std::uint64_t h = 0, b = 0;
    for (int c = 0; c < kMaxCards; ++c) {
      const std::uint64_t to = std::uint64_t{1} << make_card(rank_of(static_cast<Card>(c)),
                                                             perm[suit_of(static_cast<Card>(c))]);
      if ((hole >> c) & 1U) h |= to;
      if ((board >> c) & 1U) b |= to;
    }
    best = std::min(best, {h, b});
  }
  return best;
}

}  // namespace

std::uint64_t private_views(const GameDefinition& game, int round) {
  int left = game.deck_size();
  std::uint64_t v = static_cast<std::uint64_t>(binomial(left, game.num_hole_cards));
  left -= game.num_hole_cards;
  for (int r = 0; r <= round; ++r) {
    v *= static_cast<std::uint64_t>(binomial(left, game.num_board_cards[r]));
    left -= game.num_board_cards[r];
  }
  return v;
}

std::optional<std::uint64_t> canonical_hands(const GameDefinition& game, int round) {
  const int board = game.total_board_cards(round);
  if (game.deck_size() == kMaxCards) {
    if (game.num_hole_cards == 2 && game.num_rounds == 4 && game.num_board_cards[0] == 0 &&
        game.num_board_cards[1] == 3 && game.num_board_cards[2] == 1 &&
        game.num_board_cards[3] == 1)
      return HandIndexer::holdem(round).size();
    std::vector<int> groups{game.num_hole_cards};
    if (board > 0) groups.push_back(board);
    return HandIndexer(groups).size();
  }
  // Small decks: enumerate every view and keep one per suit permutation class.
  const std::uint64_t raw =
      static_cast<std::uint64_t>(binomial(game.deck_size(), game.num_hole_cards)) *
      static_cast<std::uint64_t>(binomial(game.deck_size() - game.num_hole_cards, board));
  if (raw > 20'000'000) return std::nullopt;
  const std::vector<Card> deck = game.deck();
  std::vector<int> suits;
  for (Card c : deck)
    if (std::find(suits.begin(), suits.end(), suit_of(c)) == suits.end())
      suits.push_back(suit_of(c));
  std::vector<std::array<int, 4>> perms;
  std::vector<int> p = suits;
  do {
    std::array<int, 4> m{0, 1, 2, 3};
    for (std::size_t i = 0; i < suits.size(); ++i) m[suits[i]] = p[i];
    perms.push_back(m);
  } while (std::next_permutation(p.begin(), p.end()));
  struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& x) const {
      return std::hash<std::uint64_t>()(x.first * 0x9E3779B97F4A7C15ULL ^ x.second);
    }
  };
  std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, PairHash> seen;
  for_each_subset(deck, game.num_hole_cards, 0, [&](std::uint64_t hole) {
    std::vector<Card> rest;
    for (Card c : deck)
      if (!((hole >> c) & 1U)) rest.push_back(c);
    for_each_subset(rest, board, 0,
                    [&](std::uint64_t b) { seen.insert(canonical(hole, b, perms)); });
  });
  return seen.size();
}

std::uint64_t information_sets(const BettingTree& tree) {
  std::uint64_t total = 0;
  for (int r = 0; r < tree.game().num_rounds; ++r)
    total += static_cast<std::uint64_t>(tree.num_decision_nodes(r)) * private_views(tree.game(), r);
  return total;
}

}  // namespace hulhe
