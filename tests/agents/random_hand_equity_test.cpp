// Equity against random hands: exact on small decks (hand-counted answers), and against
// game/equity's independent enumeration and Monte Carlo on hold'em.
#include "agents/random_hand_equity.h"

#include <gtest/gtest.h>

#include <cmath>

#include "game/equity/equity_calculator.h"
#include "game/game_state.h"
#include "tests/support/shipped_games.h"

namespace hulhe {
namespace {

using testing::shipped_game;

TEST(RandomHandEquity, KuhnIsExact) {
  const GameDefinition& g = shipped_game("kuhn");  // Qs Ks As
  RandomHandEquity eq(g, 10);
  SplitMix64 rng(1);
  const Card q = parse_card("Qs"), k = parse_card("Ks"), a = parse_card("As");
  EXPECT_DOUBLE_EQ(eq.equity(&q, nullptr, 0, 1, rng), 0.0);
  EXPECT_DOUBLE_EQ(eq.equity(&k, nullptr, 0, 1, rng), 0.5);
  EXPECT_DOUBLE_EQ(eq.equity(&a, nullptr, 0, 1, rng), 1.0);
}

TEST(RandomHandEquity, LeducMatchesBruteForceOverGameStates) {
  const GameDefinition& g = shipped_game("leduc");
  RandomHandEquity eq(g, 10);
  SplitMix64 rng(1);
  const std::vector<Card> deck = g.deck();
  for (Card mine : deck) {
    // Brute force: every opponent card and board card, ranked by GameState::hand_rank.
    double total = 0;
    int deals = 0;
    for (Card opp : deck)
      for (Card board : deck) {
        if (opp == mine || board == mine || board == opp) continue;
        GameState s(g);
        s.set_hole_cards(0, &mine);
        s.set_hole_cards(1, &opp);
        s.apply_betting("cc/");
        s.set_board_card(0, board);
        const auto me = s.hand_rank(0), them = s.hand_rank(1);
        total += me > them ? 1.0 : (me == them ? 0.5 : 0.0);
        ++deals;
      }
    EXPECT_NEAR(eq.equity(&mine, nullptr, 0, 1, rng), total / deals, 1e-12) << int(mine);
  }
  // With the board known: K on a K board wins against everything but ties nothing.
  const Card k = parse_card("Kh"), board = parse_card("Ks");
  EXPECT_DOUBLE_EQ(eq.equity(&k, &board, 1, 1, rng), 1.0);
  const Card q = parse_card("Qh");  // Q on a K board ties Qs, loses to Kh, Ah, As
  EXPECT_DOUBLE_EQ(eq.equity(&q, &board, 1, 1, rng), (0.5 * 1 + 0 * 3) / 4);
}

double reference_equity(const std::vector<std::string>& players, const std::string& board,
                        EquityMethod method) {
  EquityRequest r;
  for (const auto& p : players) r.players.push_back(Range::parse(p));
  r.board = board.empty() ? std::vector<Card>{} : parse_cards(board);
  r.method = method;
  r.target_stderr = 0.0005;
  r.threads = 1;
  return compute_equity(r).players[0].equity;
}

TEST(RandomHandEquity, HoldemRiverIsExactAndMatchesTheEquityModule) {
  const GameDefinition& g = shipped_game("holdem.limit.2p.reverse_blinds");
  RandomHandEquity eq(g, 100);
  EXPECT_EQ(eq.exact_deals(5, 1), 990.0);
  SplitMix64 rng(3);
  const auto hole = parse_cards("AhKh");
  const auto board = parse_cards("Th9h2s3c4d");
  EXPECT_NEAR(eq.equity(hole.data(), board.data(), 5, 1, rng),
              reference_equity({"AhKh", "random"}, "Th9h2s3c4d", EquityMethod::kExact), 1e-12);
}

TEST(RandomHandEquity, HoldemMonteCarloAgreesWithinItsError) {
  const GameDefinition& g = shipped_game("holdem.limit.3p");
  RandomHandEquity eq(g, 40000);
  SplitMix64 rng(5);
  const auto hole = parse_cards("AhKh");
  // Heads-up preflop: exact 0.6704 (the equity module enumerates it).
  const double heads_up = reference_equity({"AhKh", "random"}, "", EquityMethod::kExact);
  EXPECT_NEAR(eq.equity(hole.data(), nullptr, 0, 1, rng), heads_up, 4 * 0.5 / std::sqrt(40000.0));
  // Two opponents on a flop, against the module's Monte Carlo (standard error 0.0005).
  const auto flop = parse_cards("Qh7c2d");
  const double three_way =
      reference_equity({"AhKh", "random", "random"}, "Qh7c2d", EquityMethod::kMonteCarlo);
  EXPECT_NEAR(eq.equity(hole.data(), flop.data(), 3, 2, rng), three_way,
              4 * (0.5 / std::sqrt(40000.0) + 0.0005));
}

TEST(RandomHandEquity, SameGeneratorSameAnswer) {
  const GameDefinition& g = shipped_game("holdem.limit.2p.reverse_blinds");
  RandomHandEquity eq(g, 300);
  const auto hole = parse_cards("7c2d");
  SplitMix64 r1(9), r2(9);
  EXPECT_EQ(eq.equity(hole.data(), nullptr, 0, 1, r1), eq.equity(hole.data(), nullptr, 0, 1, r2));
}

}  // namespace
}  // namespace hulhe
