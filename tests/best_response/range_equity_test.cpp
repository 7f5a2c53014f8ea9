// Equity of a hand against a weighted range (best_response/range_equity.h) against the exact
// range-vs-range calculator of game/equity (HULHE flop, turn, river), a brute-force
// enumeration on small decks (12-card hold'em, Leduc), and the known preflop equity of aces.
#include "best_response/range_equity.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "game/equity/equity_calculator.h"
#include "game/equity/range.h"
#include "game/hand_evaluator.h"
#include "tests/support/solver_test_games.h"

namespace hulhe {
namespace {

std::int32_t hand_of(const PrivateHands& hands, CardSet cards) {
  for (std::int32_t h = 0; h < hands.size(); ++h)
    if (hands.masks[h] == cards) return h;
  return -1;
}

// Weights by hand id of a range in poker notation.
std::vector<double> weights(const PrivateHands& hands, const std::string& text) {
  std::vector<double> w(hands.size(), 0.0);
  const Range range = Range::parse(text);
  for (const WeightedCombo& c : range.combos()) w[hand_of(hands, c.cards())] = c.weight;
  return w;
}

TEST(RangeEquity, HulheMatchesTheExactEquityCalculatorOnFlopTurnAndRiver) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const PrivateHands hands = enumerate_private_hands(game);
  const RangeEquity eq(game, hands, {});
  const std::vector<Card> board = parse_cards("Qh7h2cTd5s");
  const std::string range = "QQ+,AKs,T9s:0.5,87s,A2o:0.25,22";
  const std::vector<double> w = weights(hands, range);
  const std::int32_t mine = hand_of(hands, CardSet::of(parse_cards("AhKh")));
  SplitMix64 rng(1);
  RangeEquity::Scores s;
  for (int known : {3, 4, 5}) {
    SCOPED_TRACE(known);
    EXPECT_TRUE(eq.exact(known));
    eq.score(mine, board.data(), known, rng, s);
    EquityRequest req;
    req.players = {Range::parse("AhKh"), Range::parse(range)};
    req.board.assign(board.begin(), board.begin() + known);
    req.method = EquityMethod::kExact;
    const EquityResult ref = compute_equity(req);
    EXPECT_NEAR(RangeEquity::equity(s, w), ref.players[0].equity, 1e-12);
  }
}

TEST(RangeEquity, HulhePreflopAcesByMonteCarlo) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const PrivateHands hands = enumerate_private_hands(game);
  const RangeEquity eq(game, hands, {.exact_limit = 5000, .monte_carlo_boards = 2000});
  EXPECT_FALSE(eq.exact(0));
  const std::int32_t aces = hand_of(hands, CardSet::of(parse_cards("AsAh")));
  SplitMix64 rng(3);
  RangeEquity::Scores s;
  eq.score(aces, nullptr, 0, rng, s);
  const std::vector<double> any(hands.size(), 1.0);
  // AA against a random hand: 85.20% (exact, every deal).
  EXPECT_NEAR(RangeEquity::equity(s, any), 0.8520, 0.01);
  // Against kings only, about 82%; against a range of nothing the fallback.
  EXPECT_NEAR(RangeEquity::equity(s, weights(hands, "KK")), 0.82, 0.02);
  EXPECT_EQ(RangeEquity::equity(s, std::vector<double>(hands.size(), 0.0), 0.25), 0.25);
}

// Every (opponent hand, completion) pair, ranked with the ACPC rules directly.
double brute_force(const GameDefinition& game, const PrivateHands& hands, std::int32_t mine,
                   const std::vector<Card>& known, const std::vector<double>& w) {
  const int final_board = game.total_board_cards(game.num_rounds - 1);
  const int k = final_board - static_cast<int>(known.size());
  CardSet dead = hands.masks[mine] | CardSet::of(known);
  std::vector<Card> pool;
  for (Card c : game.deck())
    if (!dead.contains(c)) pool.push_back(c);
  double num = 0.0, den = 0.0;
  const int p = static_cast<int>(pool.size());
  for (unsigned m = 0; m < (1U << p); ++m) {
    if (std::popcount(m) != k) continue;
    CardSet full = CardSet::of(known);
    for (int i = 0; i < p; ++i)
      if ((m >> i) & 1U) full.insert(pool[i]);
    const std::int32_t my = rank_cards_acpc(full | hands.masks[mine]);
    for (std::int32_t h = 0; h < hands.size(); ++h) {
      if (hands.masks[h].intersects(full | hands.masks[mine])) continue;
      const std::int32_t r = rank_cards_acpc(full | hands.masks[h]);
      num += w[h] * (my > r ? 1.0 : my == r ? 0.5 : 0.0);
      den += w[h];
    }
  }
  return num / den;
}

TEST(RangeEquity, SmallDecksMatchBruteForce) {
  for (const char* name : {"holdem.limit.2p.12card.2rounds", "holdem.limit.2p.12card.4rounds",
                           "holdem.limit.2p.8card.2rounds", "leduc"}) {
    SCOPED_TRACE(name);
    const testing::SmallGame g(name);
    const PrivateHands hands = enumerate_private_hands(g.game);
    const RangeEquity eq(g.game, hands, {});
    std::vector<double> w(hands.size());
    for (std::int32_t h = 0; h < hands.size(); ++h) w[h] = 0.1 + (h * 7 % 11) / 10.0;
    SplitMix64 rng(5);
    RangeEquity::Scores s;
    const std::vector<Card> deck = g.game.deck();
    for (std::int32_t mine : {0, hands.size() / 2, hands.size() - 1}) {
      // The board so far: the deck's cards not in my hand, from the top.
      std::vector<Card> board;
      for (auto it = deck.rbegin(); it != deck.rend(); ++it)
        if (!hands.masks[mine].contains(*it)) board.push_back(*it);
      for (int r = 0; r < g.game.num_rounds; ++r) {
        const int known = g.game.total_board_cards(r);
        const std::vector<Card> kb(board.begin(), board.begin() + known);
        ASSERT_TRUE(eq.exact(known));
        eq.score(mine, board.data(), known, rng, s);
        EXPECT_NEAR(RangeEquity::equity(s, w), brute_force(g.game, hands, mine, kb, w), 1e-12)
            << "hand " << mine << " round " << r;
      }
    }
  }
}

TEST(RangeEquity, ShowdownRanksOrderHandsLikeTheEvaluator) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const PrivateHands hands = enumerate_private_hands(game);
  const RangeEquity eq(game, hands, {});
  const CardSet board = CardSet::of(parse_cards("Qh7h2hTd9s"));
  const std::int32_t flush = hand_of(hands, CardSet::of(parse_cards("Ah3h")));
  const std::int32_t set = hand_of(hands, CardSet::of(parse_cards("QcQs")));
  const std::int32_t straight = hand_of(hands, CardSet::of(parse_cards("KcJc")));
  EXPECT_GT(eq.showdown_rank(flush, board), eq.showdown_rank(straight, board));
  EXPECT_GT(eq.showdown_rank(straight, board), eq.showdown_rank(set, board));
  EXPECT_EQ(eq.showdown_rank(set, board), evaluate(board | hands.masks[set]));
}

}  // namespace
}  // namespace hulhe
