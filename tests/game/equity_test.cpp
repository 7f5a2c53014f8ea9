#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "game/equity/equity_calculator.h"
#include "game/hand_evaluator.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

// Independent reference: every deal, one card set at a time, ranked by `evaluate`.
struct BruteForce {
  double total = 0;
  std::uint64_t deals = 0;
  std::vector<double> win, tie, equity;
  std::vector<std::array<double, kNumHandCategories>> category;
};

BruteForce brute_force(const std::vector<Range>& players, const std::vector<Card>& board,
                       CardSet dead) {
  const std::size_t n = players.size();
  BruteForce out;
  out.win.assign(n, 0);
  out.tie.assign(n, 0);
  out.equity.assign(n, 0);
  out.category.assign(n, {});
  std::vector<CardSet> holes(n);
  CardSet used = dead | CardSet::of(board);

  auto deal_board = [&](auto&& self, CardSet cards, int first, int missing, double weight) -> void {
    if (missing == 0) {
      std::vector<HandRank> rank(n);
      HandRank best = 0;
      for (std::size_t i = 0; i < n; ++i)
        best = std::max(best, rank[i] = evaluate(cards | holes[i]));
      int winners = 0;
      for (std::size_t i = 0; i < n; ++i) winners += rank[i] == best;
      for (std::size_t i = 0; i < n; ++i) {
        if (rank[i] == best) {
          (winners == 1 ? out.win[i] : out.tie[i]) += weight;
          out.equity[i] += weight / winners;
        }
        out.category[i][static_cast<std::size_t>(category_of(rank[i]))] += weight;
      }
      out.total += weight;
      ++out.deals;
      return;
    }
    for (int c = first; c < kMaxCards; ++c) {
      if (used.contains(static_cast<Card>(c)) || cards.contains(static_cast<Card>(c))) continue;
      CardSet next = cards;
      next.insert(static_cast<Card>(c));
      self(self, next, c + 1, missing - 1, weight);
    }
  };
  auto deal_hands = [&](auto&& self, std::size_t player, double weight) -> void {
    if (player == n) {
      deal_board(deal_board, CardSet::of(board), 0, 5 - static_cast<int>(board.size()), weight);
      return;
    }
    for (const WeightedCombo& c : players[player].combos()) {
      if (c.cards().intersects(used)) continue;
      holes[player] = c.cards();
      used = used | c.cards();
      self(self, player + 1, weight * c.weight);
      used = CardSet(used.mask() & ~c.cards().mask());
    }
  };
  deal_hands(deal_hands, 0, 1.0);
  return out;
}

EquityRequest request_of(std::vector<std::string> players, const std::string& board = "",
                         const std::string& dead = "", EquityMethod method = EquityMethod::kExact) {
  EquityRequest r;
  for (const std::string& p : players) r.players.push_back(Range::parse(p));
  r.board = parse_cards(board);
  r.dead = CardSet::of(parse_cards(dead));
  r.method = method;
  r.threads = 2;
  return r;
}

void expect_matches_brute_force(const EquityRequest& r, const std::string& what) {
  SCOPED_TRACE(what);
  const EquityResult exact = compute_equity(r);
  const BruteForce ref = brute_force(r.players, r.board, r.dead);
  ASSERT_EQ(exact.method, EquityMethod::kExact);
  EXPECT_EQ(exact.combinations, ref.deals);
  EXPECT_NEAR(exact.total_weight, ref.total, 1e-9 * ref.total);
  for (std::size_t i = 0; i < r.players.size(); ++i) {
    const PlayerEquity& p = exact.players[i];
    EXPECT_NEAR(p.win, ref.win[i] / ref.total, 1e-12) << "player " << i;
    EXPECT_NEAR(p.tie, ref.tie[i] / ref.total, 1e-12) << "player " << i;
    EXPECT_NEAR(p.equity, ref.equity[i] / ref.total, 1e-12) << "player " << i;
    for (int k = 0; k < kNumHandCategories; ++k)
      EXPECT_NEAR(p.categories[k], ref.category[i][k] / ref.total, 1e-12)
          << "player " << i << " category " << k;
  }
}

TEST(Equity, AceKingSuitedAgainstQueensPreflopGroundTruth) {
  const EquityResult r = compute_equity(request_of({"AhKh", "QsQd"}));
  EXPECT_EQ(r.method, EquityMethod::kExact);
  EXPECT_EQ(r.combinations, 1712304U);
  EXPECT_DOUBLE_EQ(r.total_weight, 1712304);
  EXPECT_DOUBLE_EQ(r.players[0].win_deals, 787966);
  EXPECT_DOUBLE_EQ(r.players[1].win_deals, 917606);
  EXPECT_DOUBLE_EQ(r.players[0].tie_deals, 6732);
  EXPECT_DOUBLE_EQ(r.players[1].tie_deals, 6732);
  EXPECT_NEAR(r.players[0].equity, 0.4621445725, 1e-10);
  EXPECT_NEAR(r.players[0].equity + r.players[1].equity, 1.0, 1e-12);
  double sum = 0;
  for (double c : r.players[0].categories) sum += c;
  EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(Equity, SuitIsomorphicSpotsHaveEqualEquity) {
  const EquityResult a = compute_equity(request_of({"AhKh", "QsQd"}));
  const EquityResult b = compute_equity(request_of({"AcKc", "QhQs"}));
  EXPECT_DOUBLE_EQ(a.players[0].equity, b.players[0].equity);
  EXPECT_DOUBLE_EQ(a.players[0].categories[5], b.players[0].categories[5]);
}

TEST(Equity, ExactMatchesBruteForceOnHandPicks) {
  expect_matches_brute_force(request_of({"AhKh", "QsQd"}, "Th9h2s"), "flop, flush draw");
  expect_matches_brute_force(request_of({"AhKh", "QsQd", "7c7d"}, "Th9h2s7h"),
                             "turn, three players");
  expect_matches_brute_force(request_of({"AsKs", "AdKd", "AcKc"}, "QsJh2d", "Th"),
                             "ties and dead cards");
  expect_matches_brute_force(request_of({"AsKd", "2c2d"}, "AhKhQhJhTh"),
                             "board plays: royal on the river");
  expect_matches_brute_force(request_of({"QQ+", "AKs:0.5,AKo", "T9s"}, "Ts9d2h"),
                             "weighted ranges");
  expect_matches_brute_force(request_of({"random", "AhAd"}, "KcKs7h8h"), "random against a hand");
}

// Random small spots: 2..4 players holding a hand or a small range, a board of 3..5 cards
// and up to two dead cards.
TEST(Equity, ExactMatchesBruteForceOnRandomSpots) {
  std::mt19937_64 rng(20240611);
  const std::vector<std::string> ranges = {"AKs",     "QQ+",      "T9s",   "A5s-A3s", "JJ",
                                           "KQo:0.5", "76s:0.25", "22-33", "AK:0.75"};
  int tested = 0;
  while (tested < 30) {
    std::vector<Card> deck;
    for (int c = 0; c < kMaxCards; ++c) deck.push_back(static_cast<Card>(c));
    std::shuffle(deck.begin(), deck.end(), rng);
    const int n = 2 + static_cast<int>(rng() % 3);
    EquityRequest r;
    r.method = EquityMethod::kExact;
    r.threads = 1 + static_cast<int>(rng() % 2);
    std::size_t next = 0;
    double work = 1;
    int num_ranges = 0;
    for (int i = 0; i < n; ++i) {
      if (rng() % 3 == 0 && num_ranges < 2) {
        r.players.push_back(Range::parse(ranges[rng() % ranges.size()]));
        ++num_ranges;
      } else {
        r.players.push_back(
            Range::parse(card_to_string(deck[next]) + card_to_string(deck[next + 1])));
        next += 2;
      }
      work *= static_cast<double>(r.players.back().combos().size());
    }
    const int board = 3 + static_cast<int>(rng() % 3);
    for (int k = 0; k < board; ++k) r.board.push_back(deck[next++]);
    for (int k = static_cast<int>(rng() % 3); k > 0; --k) r.dead.insert(deck[next++]);
    work *= board == 3 ? 1000 : 45;
    if (work > 2e5) continue;
    try {
      compute_equity(r);
    } catch (const InputError&) {
      continue;  // ranges entirely blocked by the cards drawn
    }
    expect_matches_brute_force(r, "random spot " + std::to_string(tested));
    ++tested;
  }
}

TEST(EquitySlow, ExactMatchesBruteForcePreflop) {
  expect_matches_brute_force(request_of({"AhKh", "QsQd", "7c6c"}), "three hands preflop");
  expect_matches_brute_force(request_of({"KK+", "AKs"}, "", "Qs"), "ranges preflop, dead card");
}

TEST(Equity, MonteCarloWithinFourStandardErrorsOfExact) {
  for (const auto& spot :
       std::vector<std::vector<std::string>>{{"AhKh", "QsQd", "", ""},
                                             {"QQ+", "AKs:0.5,AKo", "T9s", "Ts9d2h", ""},
                                             {"AsKs", "random", "Qs7h2d", "2c"}}) {
    SCOPED_TRACE(spot[0] + " " + spot[1]);
    std::vector<std::string> players(spot.begin(), spot.end() - 2);
    EquityRequest r = request_of(players, spot[spot.size() - 2], spot.back());
    const EquityResult exact = compute_equity(r);
    r.method = EquityMethod::kMonteCarlo;
    r.target_stderr = 0.003;
    r.seed = 7;
    const EquityResult mc = compute_equity(r);
    EXPECT_EQ(mc.method, EquityMethod::kMonteCarlo);
    EXPECT_LE(mc.stderr_max, 0.003);
    for (std::size_t i = 0; i < players.size(); ++i) {
      EXPECT_GT(mc.stderrs[i], 0);
      EXPECT_LE(std::abs(mc.players[i].equity - exact.players[i].equity), 4 * mc.stderrs[i])
          << "player " << i;
    }
  }
}

// Every player's win, tie and category frequencies from Monte Carlo must agree with the
// exact enumeration within 5 binomial standard errors.
void expect_frequencies_match_exact(EquityRequest r, double target_stderr, std::uint64_t seed) {
  const EquityResult exact = compute_equity(r);
  ASSERT_EQ(exact.method, EquityMethod::kExact);
  r.method = EquityMethod::kMonteCarlo;
  r.target_stderr = target_stderr;
  r.seed = seed;
  const EquityResult mc = compute_equity(r);
  const auto samples = static_cast<double>(mc.combinations);
  auto expect_close = [&](double got, double want, const char* what) {
    const double sigma = std::sqrt(std::max(want * (1 - want), 1e-9) / samples);
    EXPECT_LE(std::abs(got - want), 5 * sigma + 1e-12) << what << " " << got << " vs " << want;
  };
  for (std::size_t i = 0; i < r.players.size(); ++i) {
    SCOPED_TRACE("player " + std::to_string(i));
    expect_close(mc.players[i].win, exact.players[i].win, "win");
    expect_close(mc.players[i].tie, exact.players[i].tie, "tie");
    for (int k = 0; k < kNumHandCategories; ++k)
      expect_close(mc.players[i].categories[k], exact.players[i].categories[k], "category");
  }
}

// The board sampler and the showdown tallies: with three players (ties among more than two,
// wins by any seat).
TEST(Equity, MonteCarloFrequenciesMatchExact) {
  expect_frequencies_match_exact(request_of({"AhKh", "QsQd", "7c7d"}, "Jh5c2h", ""), 0.002, 11);
}

// Players holding any two cards are dealt after the ranged players, from the deck left,
// without redraws: a random hand between two ranged ones on a flop.
TEST(Equity, MonteCarloAnyTwoCardsMatchExact) {
  expect_frequencies_match_exact(request_of({"AhKh", "random", "7c7d"}, "Jh5c2h", ""), 0.002, 12);
}

// Two random hands around a pair on the river (ties among three, categories of every seat);
// slow only because the exact side enumerates 1,326 x 1,326 hands.
TEST(EquitySlow, MonteCarloTwoAnyTwoHandsMatchExact) {
  expect_frequencies_match_exact(request_of({"random", "QsQd", "random"}, "Jh5c2h7d9s", "Ac"),
                                 0.002, 13);
}

TEST(Equity, MonteCarloIsSeededAndIndependentOfThreads) {
  EquityRequest r = request_of({"AhKh", "QsQd"}, "", "", EquityMethod::kMonteCarlo);
  r.target_stderr = 0.004;
  r.threads = 1;
  const EquityResult one = compute_equity(r);
  r.threads = 2;
  const EquityResult two = compute_equity(r);
  EXPECT_EQ(one.combinations, two.combinations);
  EXPECT_EQ(one.players[0].equity, two.players[0].equity);
  r.seed = 2;
  EXPECT_NE(compute_equity(r).players[0].equity, one.players[0].equity);
}

TEST(Equity, ChoosesMethodBySize) {
  EXPECT_EQ(choose_equity_method(request_of({"AhKh", "QsQd"}, "", "", EquityMethod::kAuto)),
            EquityMethod::kExact);
  EXPECT_EQ(choose_equity_method(request_of({"AsKs", "random"}, "", "", EquityMethod::kAuto)),
            EquityMethod::kExact);
  EXPECT_EQ(
      choose_equity_method(request_of({"random", "random", "random"}, "", "", EquityMethod::kAuto)),
      EquityMethod::kMonteCarlo);
  EXPECT_EQ(choose_equity_method(
                request_of({"random", "random", "random"}, "", "", EquityMethod::kExact)),
            EquityMethod::kExact);
}

TEST(Equity, RejectsImpossibleSpots) {
  EXPECT_THROW(compute_equity(request_of({"AhKh"})), InputError);
  EXPECT_THROW(compute_equity(request_of({"AhKh", "AhQh"})), InputError);
  EXPECT_THROW(compute_equity(request_of({"AhKh", "QsQd"}, "2c3c")), InputError);
  EXPECT_THROW(compute_equity(request_of({"AhKh", "QsQd"}, "2c3c4c", "2c")), InputError);
  EXPECT_THROW(compute_equity(request_of({"AhKh", "QQ"}, "QcQhQd")),
               InputError);  // no queen pair left
  EXPECT_THROW(compute_equity(request_of({"AA", "AA", "AA"})), InputError);
}

}  // namespace
}  // namespace hulhe
