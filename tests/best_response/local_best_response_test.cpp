// Local best response (best_response/local_best_response.h): never above the exact best response on
// reduced hold'em and Leduc for several policies; its sampled value covers its own exact
// expectation (every deal, every policy action, enumerated here); decisions' values by hand;
// HULHE ground truth (always-fold gives up exactly its blinds, always-call loses clearly);
// determinism across thread counts.
#include "best_response/local_best_response.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "abstraction/card_blind_abstraction.h"
#include "agents/baseline_policies.h"
#include "best_response/exploitability.h"
#include "best_response/holdem/holdem_best_response.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "tests/support/hulhe_baseline.h"
#include "tests/support/printed_output.h"
#include "tests/support/solver_test_games.h"
#include "tests/support/test_policies.h"

namespace hulhe {
namespace {

using testing::HashedTestPolicy;
using testing::SmallGame;
using testing::UniformTestPolicy;

constexpr int kFold = static_cast<int>(Action::kFold);
constexpr int kCall = static_cast<int>(Action::kCall);
constexpr int kRaise = static_cast<int>(Action::kRaise);

// Exact best-response value of the responder in position t against `policy`.
std::array<double, 2> exact_best_response(const Policy& policy) {
  if (policy.tree().game().num_hole_cards == 2) {
    const HoldemBestResponseReport r = HoldemBestResponse(policy, {}).run();
    return r.value;
  }
  const ExploitabilityReport r = compute_exploitability(policy);
  return {r.br_value_vs_seat[1], r.br_value_vs_seat[0]};
}

void expect_below_best_response(const Policy& policy, const std::string& what) {
  SCOPED_TRACE(what);
  const std::array<double, 2> br = exact_best_response(policy);
  LocalBestResponseOptions o;
  o.hands = 10000;
  o.threads = 2;
  o.seed = 11;
  const LocalBestResponseReport r = LocalBestResponse(policy, o).run();
  EXPECT_EQ(r.hands, 10000);
  EXPECT_GT(r.ci95, 0.0);
  EXPECT_LE(r.mean - r.ci95, (br[0] + br[1]) / 2) << "LBR " << r.mean << " ± " << r.ci95;
  for (int t = 0; t < 2; ++t)
    EXPECT_LE(r.seat_mean[t] - r.seat_ci95[t], br[t])
        << "seat " << t << ": LBR " << r.seat_mean[t] << " ± " << r.seat_ci95[t] << ", BR "
        << br[t];
}

void expect_below_best_response_in(const char* name) {
  const SmallGame g(name);
  expect_below_best_response(UniformTestPolicy(g.tree, g.abstraction),
                             std::string(name) + " uniform");
  expect_below_best_response(HashedTestPolicy(g.tree, g.abstraction),
                             std::string(name) + " hashed");
  expect_below_best_response(BaselinePolicy(BaselineKind::kAlwaysCall, g.tree, g.abstraction),
                             std::string(name) + " always-call");
  StrategyTables tables(g.tree, g.abstraction);
  CfrParameters params;
  params.algorithm = "cfr+";
  make_cfr_algorithm(params, g.tree, g.abstraction, tables)->run(1, 30, 1);
  expect_below_best_response(AveragePolicy(g.tree, g.abstraction, tables),
                             std::string(name) + " 30 CFR+ iterations");
}

TEST(LocalBestResponse, NeverAboveTheExactBestResponseIn8CardHoldem) {
  expect_below_best_response_in("holdem.limit.2p.8card.2rounds");
}
TEST(LocalBestResponse, NeverAboveTheExactBestResponseIn12CardHoldem) {
  expect_below_best_response_in("holdem.limit.2p.12card.2rounds");
}
TEST(LocalBestResponse, NeverAboveTheExactBestResponseInLeduc) {
  expect_below_best_response_in("leduc");
}

// The exact expected value of LBR in position `seat`: every deal, every action of the policy
// with its probability, LBR's decisions from decide() with the range kept here by Bayes.
double exact_lbr_value(const LocalBestResponse& lbr, const Policy& policy, int seat) {
  const BettingTree& tree = policy.tree();
  const GameDefinition& game = tree.game();
  const PrivateHands& hands = lbr.hands();
  const std::int32_t n = hands.size();
  const int board_cards = game.total_board_cards(game.num_rounds - 1);
  const std::vector<Card> deck = game.deck();
  double total = 0.0, deals = 0.0;
  std::vector<Card> board(board_cards);
  for (std::int32_t mine = 0; mine < n; ++mine)
    for (std::int32_t theirs = 0; theirs < n; ++theirs) {
      if (hands.masks[mine].intersects(hands.masks[theirs])) continue;
      std::vector<Card> pool;
      for (Card c : deck)
        if (!hands.masks[mine].contains(c) && !hands.masks[theirs].contains(c)) pool.push_back(c);
      // Ordered boards: every sequence of distinct cards (each round's order is immaterial,
      // so this only repeats deals equally often).
      std::function<void(int, CardSet)> deal = [&](int i, CardSet used) {
        if (i < board_cards) {
          for (Card c : pool)
            if (!used.contains(c)) {
              board[i] = c;
              CardSet u = used;
              u.insert(c);
              deal(i + 1, u);
            }
          return;
        }
        std::vector<double> start(n);
        for (std::int32_t h = 0; h < n; ++h)
          start[h] = hands.masks[h].intersects(hands.masks[mine]) ? 0.0 : 1.0;
        std::function<double(std::int32_t, std::vector<double>)> walk =
            [&](std::int32_t node, std::vector<double> range) -> double {
          const BettingNode& nd = tree.node(node);
          const int r = nd.round;
          CardSet known;
          for (int k = 0; k < game.total_board_cards(r); ++k) known.insert(board[k]);
          if (nd.kind == NodeKind::kFold)
            return nd.player == seat ? -nd.committed[seat] : nd.committed[1 - seat];
          if (nd.kind == NodeKind::kShowdown) {
            const std::int32_t a = rank_cards_acpc(known | hands.masks[mine]);
            const std::int32_t b = rank_cards_acpc(known | hands.masks[theirs]);
            return a > b ? nd.committed[seat] : a < b ? -nd.committed[seat] : 0.0;
          }
          if (nd.player == seat)
            return walk(nd.child[lbr.decide(seat, mine, board.data(), node, range).slot], range);
          std::vector<std::vector<double>> p(n, std::vector<double>(nd.num_actions, 0.0));
          for (std::int32_t h = 0; h < n; ++h)
            if (!hands.masks[h].intersects(known | hands.masks[mine]))
              policy.action_probabilities(
                  r, nd.id_in_round,
                  policy.abstraction().bucket(r, hands.cards[h].data(), board.data()), p[h]);
          double v = 0.0;
          for (int a = 0; a < nd.num_actions; ++a) {
            if (p[theirs][a] == 0.0) continue;
            std::vector<double> next(n);
            for (std::int32_t h = 0; h < n; ++h) next[h] = range[h] * p[h][a];
            v += p[theirs][a] * walk(nd.child[a], next);
          }
          return v;
        };
        total += walk(tree.root(), start);
        deals += 1.0;
      };
      deal(0, CardSet());
    }
  return total / deals;
}

// LBR's exact expectation: at most the best response's for every policy; against always-call
// exactly it (the best response then bets a street iff its equity there exceeds 1/2, the
// rule LBR's immediate values give).
TEST(LocalBestResponse, ExactExpectationNeverAboveTheBestResponse) {
  for (const char* name : {"holdem.limit.2p.8card.2rounds", "leduc"}) {
    SCOPED_TRACE(name);
    const SmallGame g(name);
    StrategyTables tables(g.tree, g.abstraction);
    CfrParameters params;
    params.algorithm = "cfr+";
    make_cfr_algorithm(params, g.tree, g.abstraction, tables)->run(1, 30, 1);
    const AveragePolicy cfr(g.tree, g.abstraction, tables);
    const UniformTestPolicy uniform(g.tree, g.abstraction);
    const HashedTestPolicy hashed(g.tree, g.abstraction);
    const BaselinePolicy call(BaselineKind::kAlwaysCall, g.tree, g.abstraction);
    for (const Policy* policy :
         std::initializer_list<const Policy*>{&uniform, &hashed, &cfr, &call}) {
      const std::array<double, 2> br = exact_best_response(*policy);
      const LocalBestResponse lbr(*policy, {});
      for (int t = 0; t < 2; ++t) {
        const double v = exact_lbr_value(lbr, *policy, t);
        if (policy == &call)
          EXPECT_NEAR(v, br[t], 1e-12) << "seat " << t;
        else
          EXPECT_LE(v, br[t] + 1e-12) << "seat " << t;
        // Not a trivial bound: LBR wins most of what the best response wins.
        EXPECT_GE(v, br[t] - 0.5 * std::abs(br[t]) - 0.1) << "seat " << t;
      }
    }
  }
}

TEST(LocalBestResponse, SampledValueCoversItsExactExpectation) {
  for (const char* name : {"holdem.limit.2p.8card.2rounds", "leduc"}) {
    SCOPED_TRACE(name);
    const SmallGame g(name);
    const HashedTestPolicy policy(g.tree, g.abstraction);
    LocalBestResponseOptions o;
    o.hands = 40000;
    o.threads = 2;
    const LocalBestResponse lbr(policy, o);
    const LocalBestResponseReport r = lbr.run();
    for (int t = 0; t < 2; ++t) {
      const double exact = exact_lbr_value(lbr, policy, t);
      // 2 half-widths: about 4 standard errors.
      EXPECT_NEAR(r.seat_mean[t], exact, 2 * r.seat_ci95[t]) << "seat " << t;
      EXPECT_LT(r.seat_ci95[t], 0.2);
    }
  }
}

TEST(LocalBestResponse, DecisionValuesOnTheRiver) {
  const SmallGame g("holdem.limit.2p.8card.2rounds");
  const PrivateHands hands = enumerate_private_hands(g.game);
  // The 8-card deck is J Q K A of hearts and spades. Board QhKs (round 1, the last); I hold
  // AhAs, the opponent JhJs (or, below, also KhQs); who wins is asked of the ACPC ranking.
  const std::vector<Card> board = parse_cards("QhKs");
  auto id = [&](const std::string& c) {
    for (std::int32_t h = 0; h < hands.size(); ++h)
      if (hands.masks[h] == CardSet::of(parse_cards(c))) return h;
    return -1;
  };
  const std::int32_t mine = id("AhAs"), theirs = id("JhJs");
  const CardSet full = CardSet::of(board);
  const bool win =
      rank_cards_acpc(full | hands.masks[mine]) > rank_cards_acpc(full | hands.masks[theirs]);
  // The first river decision after a checked preflop ("cc/"): position 1 acts first.
  std::int32_t node = -1;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(g.tree.nodes().size()); ++i)
    if (g.tree.node(i).kind == NodeKind::kDecision && g.tree.betting_string(i) == "cc/") node = i;
  ASSERT_GE(node, 0);
  const BettingNode& nd = g.tree.node(node);
  const int seat = nd.player;
  std::vector<double> range(hands.size(), 0.0);
  range[theirs] = 1.0;
  const double pot = nd.committed[seat];
  const double bet = g.game.raise_size[1];
  {  // Against always-call: no fold, the raise is worth (pot + bet) · (±1).
    const BaselinePolicy call(BaselineKind::kAlwaysCall, g.tree, g.abstraction);
    const LbrDecision d = LocalBestResponse(call, {}).decide(seat, mine, board.data(), node, range);
    const double sign = win ? 1.0 : -1.0;
    EXPECT_DOUBLE_EQ(d.value[kCall], pot * sign);
    EXPECT_DOUBLE_EQ(d.value[kRaise], (pot + bet) * sign);
    EXPECT_EQ(d.value[kFold], -std::numeric_limits<double>::infinity());  // nothing to call
    EXPECT_EQ(d.fold_probability, 0.0);
    EXPECT_EQ(nd.actions[d.slot], win ? Action::kRaise : Action::kCall);
  }
  {  // Against always-fold: the bet wins the opponent's chips for sure, the better choice
     // with a losing hand (with a winning one checking is worth as much: ties go to call).
    const BaselinePolicy fold(BaselineKind::kAlwaysFold, g.tree, g.abstraction);
    std::vector<double> better(hands.size(), 0.0);
    better[id("KhQs")] = 1.0;
    ASSERT_LT(rank_cards_acpc(full | hands.masks[mine]),
              rank_cards_acpc(full | hands.masks[id("KhQs")]));
    const LbrDecision d =
        LocalBestResponse(fold, {}).decide(seat, mine, board.data(), node, better);
    EXPECT_EQ(d.fold_probability, 1.0);
    EXPECT_DOUBLE_EQ(d.value[kCall], -pot);
    EXPECT_DOUBLE_EQ(d.value[kRaise], nd.committed[1 - seat]);
    EXPECT_EQ(nd.actions[d.slot], Action::kRaise);
  }
  {  // Against uniform, a range of two hands, one of each outcome: equity 1/2 before the
     // bet; the fold probability is 1/3 per hand; those that call are the same mix.
    const UniformTestPolicy uniform(g.tree, g.abstraction);
    std::vector<double> two(hands.size(), 0.0);
    two[theirs] = 1.0;
    const std::int32_t other = win ? id("KhQs") : id("JhQs");
    two[other] = 1.0;
    const bool other_wins =
        rank_cards_acpc(full | hands.masks[mine]) < rank_cards_acpc(full | hands.masks[other]);
    const double eq = ((win ? 1.0 : 0.0) + (other_wins ? 0.0 : 1.0)) / 2.0;
    const LbrDecision d =
        LocalBestResponse(uniform, {}).decide(seat, mine, board.data(), node, two);
    const BettingNode& reply = g.tree.node(nd.child[1]);
    const double fold_p = 1.0 / reply.num_actions;
    EXPECT_DOUBLE_EQ(d.fold_probability, fold_p);
    EXPECT_DOUBLE_EQ(d.value[kCall], pot * (2 * eq - 1));
    EXPECT_NEAR(d.value[kRaise],
                fold_p * nd.committed[1 - seat] + (1 - fold_p) * (pot + bet) * (2 * eq - 1), 1e-12);
  }
}

// --- HULHE ---

// LBR against a baseline playing HULHE: `hands` hands on 2 threads, each equity from `boards`
// Monte Carlo boards.
LocalBestResponseReport hulhe_baseline_lbr(BaselineKind kind, std::int64_t hands, int boards) {
  const testing::HulheBaseline baseline(kind);
  LocalBestResponseOptions o;
  o.hands = hands;
  o.threads = 2;
  o.equity.monte_carlo_boards = boards;
  return LocalBestResponse(baseline.policy, o).run();
}

TEST(LocalBestResponse, HulheAlwaysFoldGivesUpExactlyItsBlinds) {
  const LocalBestResponseReport r = hulhe_baseline_lbr(BaselineKind::kAlwaysFold, 200, 200);
  EXPECT_EQ(r.seat_mean[0], 5.0);   // big blind: the small blind folds at once
  EXPECT_EQ(r.seat_mean[1], 10.0);  // small blind: raise, the big blind folds
  EXPECT_EQ(r.mean / GameDefinition::holdem_limit_2p().big_blind() * 1000.0, 750.0);
  EXPECT_EQ(r.seat_ci95[0], 0.0);
  EXPECT_EQ(r.decisions[kRaise], 100);
  EXPECT_EQ(r.decisions[kCall] + r.decisions[kFold], 0);
}

TEST(LocalBestResponse, HulheAlwaysCallLosesClearly) {
  const LocalBestResponseReport r = hulhe_baseline_lbr(BaselineKind::kAlwaysCall, 400, 300);
  // Betting for value with the better half of hands every street wins over a big blind a
  // hand against a player who never folds or raises (12.5 ± 0.8 chips over 10,000 hands);
  // 400 hands leave an interval of about ±4 chips.
  EXPECT_GT(r.mean - r.ci95, 5.0) << r.mean << " ± " << r.ci95;
  EXPECT_EQ(r.decisions[kFold], 0);  // never facing a bet
  EXPECT_GT(r.decisions[kRaise], 0);
}

TEST(LocalBestResponse, SameResultForAnyNumberOfThreads) {
  const SmallGame g("holdem.limit.2p.12card.2rounds");
  const HashedTestPolicy policy(g.tree, g.abstraction);
  LocalBestResponseOptions o;
  o.hands = 3000;
  o.seed = 5;
  o.threads = 1;
  const LocalBestResponseReport one = LocalBestResponse(policy, o).run();
  o.threads = 3;
  const LocalBestResponseReport three = LocalBestResponse(policy, o).run();
  EXPECT_EQ(one.mean, three.mean);
  EXPECT_EQ(one.ci95, three.ci95);
  EXPECT_EQ(one.decisions, three.decisions);
  o.seed = 6;
  EXPECT_NE(LocalBestResponse(policy, o).run().mean, one.mean);
  EXPECT_EQ(LocalBestResponse(policy, o).play_hand(17), LocalBestResponse(policy, o).play_hand(17));
}

// Progress goes to the callback (timed reports and one after the last hand, with the mean so
// far), never to the terminal; the result does not depend on it.
TEST(LocalBestResponse, ProgressCallbackEndsWithTheWholeRunAndStaysSilent) {
  const SmallGame g("holdem.limit.2p.12card.2rounds");
  const HashedTestPolicy policy(g.tree, g.abstraction);
  LocalBestResponseOptions o;
  o.hands = 500;
  o.threads = 2;
  o.progress_every_seconds = 0.0;
  std::vector<Progress> seen;
  o.on_progress = [&seen](const Progress& p) { seen.push_back(p); };
  LocalBestResponseReport r;
  EXPECT_EQ(testing::printed_by([&] { r = LocalBestResponse(policy, o).run(); }), "");
  ASSERT_FALSE(seen.empty());
  for (std::size_t i = 0; i + 1 < seen.size(); ++i) {
    EXPECT_FALSE(seen[i].last);
    EXPECT_LT(seen[i].done, o.hands);
    EXPECT_LE(seen[i].done, seen[i + 1].done);
  }
  EXPECT_TRUE(seen.back().last);
  EXPECT_EQ(seen.back().done, o.hands);
  EXPECT_EQ(seen.back().total, o.hands);
  ASSERT_TRUE(seen.back().estimate.has_value());
  EXPECT_NEAR(*seen.back().estimate, r.mean, 1e-9);
  LocalBestResponseOptions quiet = o;
  quiet.on_progress = {};
  EXPECT_EQ(LocalBestResponse(policy, quiet).run().mean, r.mean);
}

}  // namespace
}  // namespace hulhe
