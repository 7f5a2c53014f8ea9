#include "best_response/range_equity.h"

#include <bit>
#include <string>
#include <utility>

#include "util/input_error.h"

namespace hulhe {

RangeEquity::RangeEquity(const GameDefinition& game, const PrivateHands& hands,
                         RangeEquityOptions options)
    : game_(game), hands_(hands), options_(options) {
  final_board_ = game.total_board_cards(game.num_rounds - 1);
  deck_ = game.deck();
  const int showdown_cards = game.num_hole_cards + final_board_;
  use_evaluator_ = game.deck_size() == kMaxCards && showdown_cards >= 5 && showdown_cards <= 7;
  for (int n = 0; n <= kMaxCards; ++n)
    for (int k = 0; k < 8; ++k) binomial_[n][k] = binomial(n, k);
  deck_position_.fill(-1);
  for (std::size_t i = 0; i < deck_.size(); ++i)
    deck_position_[deck_[i]] = static_cast<std::int8_t>(i);
  if (use_evaluator_) {
    for (std::int32_t h = 0; h < hands.size(); ++h)
      hand_eval_.push_back(EvalHand::of(hands.masks[h]));
    return;
  }
  const int d = game.deck_size();
  if (showdown_cards > 7 || binomial(d, showdown_cards) > 4'000'000)
    throw InputError("game '" + game.name + "': local best response cannot rank showdowns of " +
                     std::to_string(showdown_cards) + " cards from a " + std::to_string(d) +
                     "-card deck");
  // Every showdown hand of the small deck, ranked once by the ACPC rules.
  small_rank_.resize(static_cast<std::size_t>(binomial(d, showdown_cards)));
  std::array<int, 8> pos{};
  for (int i = 0; i < showdown_cards; ++i) pos[i] = i;
  while (true) {
    CardSet s;
    std::int64_t index = 0;
    for (int i = 0; i < showdown_cards; ++i) {
      s.insert(deck_[pos[i]]);
      index += binomial_[pos[i]][i + 1];
    }
    small_rank_[index] = rank_cards_acpc(s);
    int i = showdown_cards - 1;
    while (i >= 0 && pos[i] == d - showdown_cards + i) --i;
    if (i < 0) break;
    ++pos[i];
    for (int j = i + 1; j < showdown_cards; ++j) pos[j] = pos[j - 1] + 1;
  }
}

std::int32_t RangeEquity::table_rank(std::uint64_t cards) const {
  // Colex index of the cards' deck positions (ascending card ids are ascending positions).
  std::int64_t index = 0;
  int i = 1;
  for (std::uint64_t m = cards; m != 0; m &= m - 1, ++i)
    index += binomial_[deck_position_[std::countr_zero(m)]][i];
  return small_rank_[index];
}

std::int32_t RangeEquity::showdown_rank(std::int32_t h, CardSet board_mask) const {
  if (use_evaluator_) return HandEvaluator::instance().rank(board_mask | hands_.masks[h]);
  return table_rank((board_mask | hands_.masks[h]).mask());
}

bool RangeEquity::exact(int known) const {
  const int pool = game_.deck_size() - game_.num_hole_cards - known;
  return binomial(pool, final_board_ - known) <= options_.exact_limit;
}

void RangeEquity::score(std::int32_t mine, const Card* board, int known, SplitMix64& rng,
                        Scores& s) const {
  CardSet known_mask;
  for (int i = 0; i < known; ++i) known_mask.insert(board[i]);
  const CardSet dead = known_mask | hands_.masks[mine];
  s.hand.clear();
  s.mask.clear();
  s.eval.clear();
  for (std::int32_t h = 0; h < hands_.size(); ++h) {
    if (hands_.masks[h].intersects(dead)) continue;
    s.hand.push_back(h);
    s.mask.push_back(hands_.masks[h].mask());
    if (use_evaluator_) s.eval.push_back(hand_eval_[h]);
  }
  const std::size_t live = s.hand.size();
  s.score.assign(live, 0);
  s.count.assign(live, 0);
  s.pool.clear();
  for (Card c : deck_)
    if (!dead.contains(c)) s.pool.push_back(c);
  const int k = final_board_ - known;
  const int pool = static_cast<int>(s.pool.size());

  // One completion of the board: compare `mine` with every live opponent hand on it.
  const EvalHand known_eval = EvalHand::of(known_mask);
  const HandEvaluator& ev = HandEvaluator::instance();
  auto completion = [&](const Card* cards) {
    std::uint64_t rmask = 0;
    for (int i = 0; i < k; ++i) rmask |= std::uint64_t{1} << cards[i];
    std::int32_t* sc = s.score.data();
    std::int32_t* cn = s.count.data();
    const std::uint64_t* mk = s.mask.data();
    if (use_evaluator_) {
      EvalHand full = known_eval;
      for (int i = 0; i < k; ++i) full = full.add(cards[i]);
      const HandRank my = ev.rank(full.merge(hand_eval_[mine]));
      const EvalHand* he = s.eval.data();
      for (std::size_t j = 0; j < live; ++j) {
        if (mk[j] & rmask) continue;
        const HandRank r = ev.rank(full.merge(he[j]));
        sc[j] += static_cast<std::int32_t>(my > r) + static_cast<std::int32_t>(my >= r);
        ++cn[j];
      }
    } else {
      const std::uint64_t full = known_mask.mask() | rmask;
      const std::int32_t my = table_rank(full | hands_.masks[mine].mask());
      for (std::size_t j = 0; j < live; ++j) {
        if (mk[j] & rmask) continue;
        const std::int32_t r = table_rank(full | mk[j]);
        sc[j] += static_cast<std::int32_t>(my > r) + static_cast<std::int32_t>(my >= r);
        ++cn[j];
      }
    }
  };

  std::array<Card, kMaxBoardCards> cards{};
  if (binomial(pool, k) <= options_.exact_limit) {
    std::array<int, kMaxBoardCards> pos{};
    for (int i = 0; i < k; ++i) pos[i] = i;
    while (true) {
      for (int i = 0; i < k; ++i) cards[i] = s.pool[pos[i]];
      completion(cards.data());
      int i = k - 1;
      while (i >= 0 && pos[i] == pool - k + i) --i;
      if (i < 0) break;
      ++pos[i];
      for (int j = i + 1; j < k; ++j) pos[j] = pos[j - 1] + 1;
    }
    return;
  }
  for (int b = 0; b < options_.monte_carlo_boards; ++b) {
    // Partial Fisher-Yates: the first k cards of the pool are a uniform k-subset.
    for (int i = 0; i < k; ++i) {
      std::swap(s.pool[i], s.pool[i + rng.below(static_cast<std::uint32_t>(pool - i))]);
      cards[i] = s.pool[i];
    }
    completion(cards.data());
  }
}

double RangeEquity::equity(const Scores& s, std::span<const double> w, double fallback) {
  double num = 0.0, den = 0.0;
  for (std::size_t j = 0; j < s.hand.size(); ++j) {
    const double x = w[s.hand[j]];
    num += x * s.score[j];
    den += x * s.count[j];
  }
  return den > 0.0 ? num / (2.0 * den) : fallback;
}

}  // namespace hulhe
