#include "agents/random_hand_equity.h"

#include <algorithm>
#include <array>

#include "agents/bet_sizing.h"
#include "game/hand_evaluator.h"
#include "util/combinatorics.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

constexpr int kMaxShowdownCards = kMaxHoleCards + kMaxBoardCards;

// One deal of everything unknown: each opponent's hole cards, then the rest of the board.
struct Unknowns {
  std::array<std::array<Card, kMaxShowdownCards>, kMaxPlayers> hand{};  // hole + full board
};

}  // namespace

RandomHandEquity::RandomHandEquity(const GameDefinition& game, int samples,
                                   std::int64_t exact_limit)
    : deck_(game.deck()),
      hole_cards_(game.num_hole_cards),
      final_board_(game.total_board_cards(game.num_rounds - 1)),
      standard_deck_(game.num_ranks == kMaxRanks && game.num_suits == kMaxSuits),
      samples_(std::max(1, samples)),
      exact_limit_(exact_limit) {
  if (standard_deck_) HandEvaluator::instance();  // build the tables before any hot loop
}

std::int32_t RandomHandEquity::rank(const Card* cards, int n) const {
  if (standard_deck_ && n >= 5 && n <= 7) return HandEvaluator::instance().rank(cards, n);
  CardSet set;
  for (int i = 0; i < n; ++i) set.insert(cards[i]);
  return rank_cards_acpc(set);
}

double RandomHandEquity::exact_deals(int board_count, int opponents) const {
  int rest = static_cast<int>(deck_.size()) - hole_cards_ - board_count;
  double deals = 1.0;
  for (int o = 0; o < opponents; ++o, rest -= hole_cards_)
    deals *= static_cast<double>(binomial(rest, hole_cards_));
  return deals * static_cast<double>(binomial(rest, final_board_ - board_count));
}

double RandomHandEquity::equity(const Card* hole, const Card* board, int board_count, int opponents,
                                SplitMix64& rng) const {
  const int need = opponents * hole_cards_ + final_board_ - board_count;
  CardSet known;
  for (int i = 0; i < hole_cards_; ++i) known.insert(hole[i]);
  for (int i = 0; i < board_count; ++i) known.insert(board[i]);
  std::array<Card, kMaxCards> rest{};
  int num_rest = 0;
  for (Card c : deck_)
    if (!known.contains(c)) rest[num_rest++] = c;
  if (need > num_rest || opponents < 1 || opponents >= kMaxPlayers)
    throw InputError("equity: not enough cards left in the deck for " + std::to_string(opponents) +
                     " opponents");

  const int n = hole_cards_ + final_board_;
  // Our hand and the opponents' share the board: positions [hole_cards_, n) of each hand.
  std::array<Card, kMaxShowdownCards> mine{};
  std::copy(hole, hole + hole_cards_, mine.begin());
  std::copy(board, board + board_count, mine.begin() + hole_cards_);

  // Share of the pot won with the drawn cards in `pick` (opponents' holes, then the board).
  auto score = [&](const Card* pick) {
    std::array<Card, kMaxShowdownCards> hand = mine;
    std::copy(pick + opponents * hole_cards_, pick + need,
              hand.begin() + hole_cards_ + board_count);
    const std::int32_t my_rank = rank(hand.data(), n);
    int ties = 1;
    for (int o = 0; o < opponents; ++o) {
      std::copy(pick + o * hole_cards_, pick + (o + 1) * hole_cards_, hand.begin());
      const std::int32_t r = rank(hand.data(), n);
      if (r > my_rank) return 0.0;
      ties += r == my_rank;
    }
    return 1.0 / ties;
  };

  if (exact_deals(board_count, opponents) <= static_cast<double>(exact_limit_)) {
    // Every opponent hand (in seat order) and board completion; each group's cards ascending.
    std::array<int, kMaxPlayers + 1> group_size{};
    const int groups = opponents + 1;
    for (int g = 0; g < opponents; ++g) group_size[g] = hole_cards_;
    group_size[opponents] = final_board_ - board_count;
    std::array<Card, kMaxShowdownCards * kMaxPlayers> pick{};
    double total = 0.0, deals = 0.0;
    bool used[kMaxCards] = {};
    // Depth-first: slot k of the pick, group g, its i-th card, from rest index `from`.
    auto recurse = [&](auto&& self, int k, int g, int i, int from) -> void {
      if (g == groups) {
        total += score(pick.data());
        deals += 1.0;
        return;
      }
      if (i == group_size[g]) return self(self, k, g + 1, 0, 0);
      for (int j = from; j < num_rest; ++j) {
        if (used[j]) continue;
        used[j] = true;
        pick[k] = rest[j];
        self(self, k + 1, g, i + 1, j + 1);
        used[j] = false;
      }
    };
    recurse(recurse, 0, 0, 0, 0);
    return deals > 0 ? total / deals : 0.0;
  }

  double total = 0.0;
  for (int s = 0; s < samples_; ++s) {
    // Partial Fisher-Yates: the first `need` cards of `rest` become a uniform draw.
    for (int i = 0; i < need; ++i) {
      const int j = i + static_cast<int>(rng.below(static_cast<std::uint32_t>(num_rest - i)));
      std::swap(rest[i], rest[j]);
    }
    total += score(rest.data());
  }
  return total / samples_;
}

double SeatEquity::operator()(const GameState& state, int position, SplitMix64& rng) {
  const int opponents = live_opponents(state, position);
  if (!valid_ || round_ != state.round() || opponents_ != opponents) {
    valid_ = true;
    round_ = state.round();
    opponents_ = opponents;
    value_ = equity_.equity(state.hole_cards(position), state.board_cards(),
                            state.game().total_board_cards(state.round()), opponents, rng);
  }
  return value_;
}

}  // namespace hulhe
