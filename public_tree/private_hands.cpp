#include "public_tree/private_hands.h"

#include <string>

#include "util/input_error.h"

namespace hulhe {

namespace {

void check_supported(const GameDefinition& game) {
  if (game.num_players != 2)
    throw InputError("game '" + game.name + "': the solver handles 2-player games only");
  if (game.num_hole_cards < 1 || game.num_hole_cards > 2)
    throw InputError("game '" + game.name +
                     "': vector-form traversal handles 1 or 2 hole cards, not " +
                     std::to_string(game.num_hole_cards));
  if (game.num_board_cards[0] != 0)
    throw InputError("game '" + game.name +
                     "': board cards before the first round are not supported");
}

// Calls f(subset) for every k-subset of `pool`, in lexicographic order of positions.
template <typename F>
void for_each_subset(const std::vector<Card>& pool, int k, F&& f) {
  std::array<int, kMaxBoardCards> pos{};
  const int n = static_cast<int>(pool.size());
  if (k > n) return;
  for (int i = 0; i < k; ++i) pos[i] = i;
  std::array<Card, kMaxBoardCards> out{};
  do {
    for (int i = 0; i < k; ++i) out[i] = pool[pos[i]];
    f(out);
  } while (next_k_subset(pos, k, n));
}

}  // namespace

PrivateHands enumerate_private_hands(const GameDefinition& game) {
  check_supported(game);
  PrivateHands hands;
  hands.num_hole_cards = game.num_hole_cards;
  const std::vector<Card> deck = game.deck();
  for_each_subset(deck, game.num_hole_cards, [&](const std::array<Card, kMaxBoardCards>& s) {
    std::array<Card, 2> c{s[0], game.num_hole_cards == 2 ? s[1] : s[0]};
    hands.cards.push_back(c);
    CardSet m;
    for (int i = 0; i < game.num_hole_cards; ++i) m.insert(s[i]);
    hands.masks.push_back(m);
  });
  hands.compatible_opponent_hands =
      binomial(game.deck_size() - game.num_hole_cards, game.num_hole_cards);
  return hands;
}

std::array<std::int64_t, kMaxRounds> count_public_boards(const GameDefinition& game) {
  std::array<std::int64_t, kMaxRounds> count{};
  std::int64_t boards = 1;
  int dealt = 0;
  for (int r = 0; r < game.num_rounds; ++r) {
    boards *= binomial(game.deck_size() - dealt, game.num_board_cards[r]);
    dealt += game.num_board_cards[r];
    count[r] = boards;
  }
  return count;
}

PublicBoards enumerate_public_boards(const GameDefinition& game, std::int64_t max_board_hands) {
  check_supported(game);
  const std::array<std::int64_t, kMaxRounds> count = count_public_boards(game);
  const std::int64_t hands = binomial(game.deck_size(), game.num_hole_cards);
  std::int64_t total = 0;
  for (int r = 0; r < game.num_rounds; ++r) total += count[r] * hands;
  if (total > max_board_hands)
    throw InputError("game '" + game.name + "' is too large to enumerate its boards (" +
                     std::to_string(total) + " board x hand pairs, limit " +
                     std::to_string(max_board_hands) + ")");
  PublicBoards b;
  b.num_rounds = game.num_rounds;
  const std::vector<Card> deck = game.deck();
  b.cards[0].push_back({});
  b.masks[0].push_back(CardSet());
  for (int r = 0; r < game.num_rounds; ++r) b.board_cards[r] = game.total_board_cards(r);
  for (int r = 0; r + 1 < game.num_rounds; ++r) {
    const int fresh = game.num_board_cards[r + 1];
    b.children_per_board[r] =
        static_cast<std::int32_t>(binomial(game.deck_size() - b.board_cards[r], fresh));
    b.compatible_children[r] =
        binomial(game.deck_size() - b.board_cards[r] - 2 * game.num_hole_cards, fresh);
    for (std::int32_t parent = 0; parent < b.num_boards(r); ++parent) {
      b.first_child[r].push_back(b.num_boards(r + 1));
      std::vector<Card> pool;
      for (Card c : deck)
        if (!b.masks[r][parent].contains(c)) pool.push_back(c);
      const std::array<Card, kMaxBoardCards> base = b.cards[r][parent];
      for_each_subset(pool, fresh, [&](const std::array<Card, kMaxBoardCards>& s) {
        std::array<Card, kMaxBoardCards> child = base;
        CardSet m = b.masks[r][parent];
        for (int i = 0; i < fresh; ++i) {
          child[b.board_cards[r] + i] = s[i];
          m.insert(s[i]);
        }
        b.cards[r + 1].push_back(child);
        b.masks[r + 1].push_back(m);
      });
    }
  }
  return b;
}

}  // namespace hulhe
