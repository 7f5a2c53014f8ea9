#include "human_play/live_odds.h"

#include <algorithm>
#include <cmath>

#include "util/combinatorics.h"
#include "util/input_error.h"
#include "util/split_mix64.h"

namespace hulhe {
namespace {

bool standard_deck(const GameDefinition& game) {
  return game.num_ranks == kMaxRanks && game.num_suits == kMaxSuits;
}

// Calls visit() for every `k`-subset of rest[0..n), written to out[0..k), in lexicographic
// order of indices.
template <typename Visit>
void for_each_subset(const Card* rest, int n, int k, std::array<Card, kMaxCards>& out,
                     Visit&& visit) {
  std::array<int, kMaxCards> idx{};
  if (k == 0) {
    visit();
    return;
  }
  if (k > n || k > kMaxCards) return;
  for (int i = 0; i < k; ++i) idx[i] = i;
  for (;;) {
    for (int i = 0; i < k; ++i) out[i] = rest[idx[i]];
    visit();
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i) --i;
    if (i < 0) return;
    ++idx[i];
    for (int j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
  }
}

// The deck's cards outside `used`, ascending.
int cards_left(const std::vector<Card>& deck, CardSet used, std::array<Card, kMaxCards>& out) {
  int n = 0;
  for (Card c : deck)
    if (!used.contains(c)) out[n++] = c;
  return n;
}

// The first k of rest[0..n) become a uniform draw (partial Fisher-Yates).
void draw_prefix(Card* rest, int n, int k, SplitMix64& rng) {
  for (int i = 0; i < k; ++i) {
    const int j = i + static_cast<int>(rng.below(static_cast<std::uint32_t>(n - i)));
    std::swap(rest[i], rest[j]);
  }
}

EquityEstimate from_samples(double sum, double sum_sq, std::int64_t n) {
  EquityEstimate e;
  e.deals = n;
  e.equity = sum / static_cast<double>(n);
  if (n > 1) {
    const double var = std::max(0.0, (sum_sq - sum * e.equity) / static_cast<double>(n - 1));
    e.std_error = std::sqrt(var / static_cast<double>(n));
  }
  return e;
}

}  // namespace

std::int32_t showdown_rank(const GameDefinition& game, CardSet cards) {
  // As GameState::hand_rank: the fast evaluator for a standard deck, the dealer's otherwise.
  if (standard_deck(game) && cards.size() >= 5 && cards.size() <= 7) return evaluate(cards);
  return rank_cards_acpc(cards);
}

HandCategory hand_category(const GameDefinition& game, CardSet cards) {
  if (standard_deck(game) && cards.size() >= 5 && cards.size() <= 7)
    return category_of(evaluate(cards));
  return category_of_acpc_rank(rank_cards_acpc(cards));
}

OpponentRange::OpponentRange(const GameDefinition& game) : hole_cards_(game.num_hole_cards) {
  const std::vector<Card> deck = game.deck();
  std::array<Card, kMaxCards> pick{};
  for_each_subset(deck.data(), static_cast<int>(deck.size()), hole_cards_, pick, [&] {
    Hand h;
    for (int i = 0; i < hole_cards_; ++i) h.cards[i] = pick[i], h.set.insert(pick[i]);
    hands_.push_back(h);
  });
  weights_.assign(hands_.size(), 1.0);
}

void OpponentRange::reset() {
  std::fill(weights_.begin(), weights_.end(), 1.0);
  from_strategy_ = true;
}

void OpponentRange::observe(Agent& agent, const GameState& state, int position, Action action,
                            CardSet dead) {
  if (!from_strategy_) return;
  GameState hypothetical = state;
  const int a = static_cast<int>(action);
  for (std::size_t i = 0; i < hands_.size(); ++i) {
    if (hands_[i].set.intersects(dead) || weights_[i] == 0.0) continue;
    hypothetical.set_hole_cards(position, hands_[i].cards.data());
    const std::optional<ActionProbabilities> p = agent.action_probabilities(hypothetical, position);
    if (!p) {
      reset();
      from_strategy_ = false;
      return;
    }
    weights_[i] *= (*p)[a];
  }
}

EquityEstimate range_equity(const GameDefinition& game, const Card* hole, const Card* board,
                            int board_count, const std::vector<OpponentRange::Hand>& hands,
                            const std::vector<double>& weights, const LiveOddsConfig& config,
                            std::uint64_t seed) {
  const int h = game.num_hole_cards;
  const int need = game.total_board_cards(game.num_rounds - 1) - board_count;
  CardSet known;
  for (int i = 0; i < h; ++i) known.insert(hole[i]);
  for (int i = 0; i < board_count; ++i) known.insert(board[i]);

  // The opponent hands that are possible, with their cumulative weights (for sampling).
  std::vector<std::size_t> live;
  std::vector<double> cumulative;
  double total_weight = 0;
  for (std::size_t i = 0; i < hands.size(); ++i)
    if (weights[i] > 0 && !hands[i].set.intersects(known)) {
      live.push_back(i);
      total_weight += weights[i];
      cumulative.push_back(total_weight);
    }
  if (live.empty()) throw InputError("equity: no opponent hand is possible");

  // Share of the pot won with the opponent's hand and a completed board.
  CardSet mine = known;
  auto score = [&](CardSet opponent_hole, const Card* completion) {
    CardSet me = mine, them = opponent_hole;
    for (int i = 0; i < board_count; ++i) them.insert(board[i]);
    for (int i = 0; i < need; ++i) me.insert(completion[i]), them.insert(completion[i]);
    const std::int32_t a = showdown_rank(game, me), b = showdown_rank(game, them);
    return a > b ? 1.0 : a == b ? 0.5 : 0.0;
  };

  const std::vector<Card> deck = game.deck();
  const int rest_after = game.deck_size() - 2 * h - board_count;
  const double completions = static_cast<double>(binomial(rest_after, need));
  const double deals = completions * static_cast<double>(live.size());
  std::array<Card, kMaxCards> rest{};
  std::array<Card, kMaxCards> completion{};
  if (deals <= static_cast<double>(config.exact_limit)) {
    double sum = 0;
    for (std::size_t i : live) {
      const int n = cards_left(deck, known | hands[i].set, rest);
      double hand_sum = 0;
      for_each_subset(rest.data(), n, need, completion,
                      [&] { hand_sum += score(hands[i].set, completion.data()); });
      sum += weights[i] * hand_sum / completions;
    }
    EquityEstimate e;
    e.equity = sum / total_weight;
    e.exact = true;
    e.deals = static_cast<std::int64_t>(deals);
    return e;
  }
  SplitMix64 rng(seed);
  double sum = 0, sum_sq = 0;
  const int samples = std::max(1, config.samples);
  for (int s = 0; s < samples; ++s) {
    const double u = rng.uniform() * total_weight;
    const std::size_t k = std::min<std::size_t>(
        static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) -
                                 cumulative.begin()),
        live.size() - 1);
    const OpponentRange::Hand& opp = hands[live[k]];
    const int n = cards_left(deck, known | opp.set, rest);
    draw_prefix(rest.data(), n, need, rng);
    const double x = score(opp.set, rest.data());
    sum += x;
    sum_sq += x * x;
  }
  return from_samples(sum, sum_sq, samples);
}

CategoryChances category_chances(const GameDefinition& game, const Card* hole, const Card* board,
                                 int board_count, const LiveOddsConfig& config,
                                 std::uint64_t seed) {
  const int need = game.total_board_cards(game.num_rounds - 1) - board_count;
  CardSet known;
  for (int i = 0; i < game.num_hole_cards; ++i) known.insert(hole[i]);
  for (int i = 0; i < board_count; ++i) known.insert(board[i]);
  std::array<Card, kMaxCards> rest{};
  const int n = cards_left(game.deck(), known, rest);
  CategoryChances out;
  auto count = [&](const Card* completion) {
    CardSet all = known;
    for (int i = 0; i < need; ++i) all.insert(completion[i]);
    out.chance[static_cast<int>(hand_category(game, all))] += 1.0;
  };
  const double completions = static_cast<double>(binomial(n, need));
  if (completions <= static_cast<double>(config.exact_limit)) {
    std::array<Card, kMaxCards> completion{};
    for_each_subset(rest.data(), n, need, completion, [&] { count(completion.data()); });
    out.exact = true;
    out.deals = static_cast<std::int64_t>(completions);
  } else {
    SplitMix64 rng(seed);
    out.deals = std::max(1, config.samples);
    for (std::int64_t s = 0; s < out.deals; ++s) {
      draw_prefix(rest.data(), n, need, rng);
      count(rest.data());
    }
  }
  for (double& c : out.chance) c /= static_cast<double>(out.deals);
  return out;
}

LiveOdds live_odds(const GameDefinition& game, const Card* hole, const Card* board, int board_count,
                   const OpponentRange& range, const LiveOddsConfig& config, std::uint64_t seed) {
  // Separate streams, so each number is the same whichever others are asked for.
  SplitMix64 seeds(seed);
  const std::uint64_t random_seed = seeds(), range_seed = seeds(), category_seed = seeds();
  LiveOdds odds;
  const std::vector<double> uniform(range.hands().size(), 1.0);
  odds.vs_random =
      range_equity(game, hole, board, board_count, range.hands(), uniform, config, random_seed);
  odds.range_from_strategy = range.from_strategy();
  if (odds.range_from_strategy) {
    try {
      odds.vs_range = range_equity(game, hole, board, board_count, range.hands(), range.weights(),
                                   config, range_seed);
    } catch (const InputError&) {
      odds.range_from_strategy = false;  // every weight vanished: fall back to uniform
    }
  }
  if (!odds.range_from_strategy) odds.vs_range = odds.vs_random;
  odds.categories = category_chances(game, hole, board, board_count, config, category_seed);
  return odds;
}

}  // namespace hulhe
