// Best response and exploitability against ground truth (DESIGN.md: uniform play has
// NashConv 11/12 in Kuhn and 4.747222222222222 in Leduc) and against a brute-force best
// response written here independently: one explicit walk per responder hand over a list of
// (opponent hand, weight) pairs, chance dealt card by card, showdowns compared directly.
#include "best_response/best_response.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "best_response/exploitability.h"
#include "game/hand_evaluator.h"
#include "tests/support/solver_test_games.h"
#include "tests/support/test_policies.h"

namespace hulhe {
namespace {

using testing::HashedTestPolicy;
using testing::SmallGame;
using testing::UniformTestPolicy;

class BruteForceBestResponse {
 public:
  explicit BruteForceBestResponse(const Policy& policy)
      : policy_(policy), tree_(policy.tree()), game_(tree_.game()), deck_(game_.deck()) {}

  double value(int responder) {
    std::vector<std::vector<Card>> hands;
    std::vector<Card> hand;
    enumerate(0, hand, hands);
    double total = 0.0;
    for (const auto& mine : hands) {
      std::vector<std::pair<std::vector<Card>, double>> opp;
      for (const auto& theirs : hands)
        if (disjoint(mine, theirs)) opp.emplace_back(theirs, 1.0);
      for (auto& o : opp) o.second = 1.0 / static_cast<double>(opp.size());
      total += walk(tree_.root(), 0, responder, mine, {}, opp);
    }
    return total / static_cast<double>(hands.size());
  }

 private:
  void enumerate(std::size_t start, std::vector<Card>& hand,
                 std::vector<std::vector<Card>>& out) const {
    if (static_cast<int>(hand.size()) == game_.num_hole_cards) {
      out.push_back(hand);
      return;
    }
    for (std::size_t i = start; i < deck_.size(); ++i) {
      hand.push_back(deck_[i]);
      enumerate(i + 1, hand, out);
      hand.pop_back();
    }
  }
  static bool disjoint(const std::vector<Card>& a, const std::vector<Card>& b) {
    for (Card x : a)
      if (std::find(b.begin(), b.end(), x) != b.end()) return false;
    return true;
  }

  double walk(std::int32_t index, int round, int me, const std::vector<Card>& mine,
              const std::vector<Card>& board,
              const std::vector<std::pair<std::vector<Card>, double>>& opp) {
    const BettingNode& node = tree_.node(index);
    if (node.round > round) {  // deal the next round's board card(s), one at a time
      std::vector<Card> remaining;
      for (Card c : deck_)
        if (std::find(mine.begin(), mine.end(), c) == mine.end() &&
            std::find(board.begin(), board.end(), c) == board.end())
          remaining.push_back(c);
      // Each opponent hand leaves remaining.size() - hole cards equally likely cards.
      const double p = 1.0 / static_cast<double>(remaining.size() - game_.num_hole_cards);
      EXPECT_EQ(game_.num_board_cards[node.round], 1) << "brute force deals one card a round";
      double v = 0.0;
      for (Card c : remaining) {
        std::vector<std::pair<std::vector<Card>, double>> next;
        for (const auto& [hand, w] : opp)
          if (std::find(hand.begin(), hand.end(), c) == hand.end()) next.emplace_back(hand, w * p);
        std::vector<Card> b = board;
        b.push_back(c);
        v += walk(index, round + 1, me, mine, b, next);
      }
      return v;
    }
    if (node.kind == NodeKind::kFold) {
      const double u = node.player == me ? -node.committed[me] : node.committed[1 - me];
      double w = 0.0;
      for (const auto& o : opp) w += o.second;
      return u * w;
    }
    if (node.kind == NodeKind::kShowdown) {
      CardSet mine_set = CardSet::of(mine) | CardSet::of(board);
      const std::int32_t my_rank = rank_cards_acpc(mine_set);
      double v = 0.0;
      for (const auto& [hand, w] : opp) {
        const std::int32_t their_rank = rank_cards_acpc(CardSet::of(hand) | CardSet::of(board));
        if (my_rank > their_rank) v += w * node.committed[1 - me];
        if (my_rank < their_rank) v -= w * node.committed[me];
      }
      return v;
    }
    if (node.player == me) {
      double best = -1e300;
      for (int a = 0; a < node.num_actions; ++a)
        best = std::max(best, walk(node.child[a], round, me, mine, board, opp));
      return best;
    }
    std::vector<std::vector<std::pair<std::vector<Card>, double>>> split(node.num_actions);
    for (const auto& [hand, w] : opp) {
      const std::int32_t bucket =
          policy_.abstraction().bucket(round, hand.data(), board.empty() ? nullptr : board.data());
      double probs[3];
      policy_.action_probabilities(round, node.id_in_round, bucket,
                                   std::span<double>(probs, node.num_actions));
      for (int a = 0; a < node.num_actions; ++a) split[a].emplace_back(hand, w * probs[a]);
    }
    double v = 0.0;
    for (int a = 0; a < node.num_actions; ++a)
      v += walk(node.child[a], round, me, mine, board, split[a]);
    return v;
  }

  const Policy& policy_;
  const BettingTree& tree_;
  const GameDefinition& game_;
  std::vector<Card> deck_;
};

TEST(BestResponse, UniformKuhnNashConvIsElevenTwelfths) {
  SmallGame g("kuhn");
  UniformTestPolicy uniform(g.tree, g.abstraction);
  const ExploitabilityReport r = compute_exploitability(uniform);
  EXPECT_NEAR(r.nash_conv, 11.0 / 12.0, 1e-12);
  EXPECT_NEAR(r.exploitability_chips, 11.0 / 24.0, 1e-12);
  EXPECT_FALSE(r.exploitability_mbb.has_value());  // antes only: no big blind
  BruteForceBestResponse brute(uniform);
  EXPECT_NEAR(r.br_value_vs_seat[0], brute.value(1), 1e-12);
  EXPECT_NEAR(r.br_value_vs_seat[1], brute.value(0), 1e-12);
}

TEST(BestResponse, UniformLeducNashConv) {
  SmallGame g("leduc");
  UniformTestPolicy uniform(g.tree, g.abstraction);
  const ExploitabilityReport r = compute_exploitability(uniform);
  EXPECT_NEAR(r.nash_conv, 4.747222222222222, 1e-12);
  EXPECT_NEAR(r.exploitability_chips, 4.747222222222222 / 2, 1e-12);
  BruteForceBestResponse brute(uniform);
  EXPECT_NEAR(r.br_value_vs_seat[0], brute.value(1), 1e-12);
  EXPECT_NEAR(r.br_value_vs_seat[1], brute.value(0), 1e-12);
}

TEST(BestResponse, AgreesWithBruteForceOnALopsidedStrategy) {
  for (const char* name : {"kuhn", "leduc"}) {
    SmallGame g(name);
    HashedTestPolicy policy(g.tree, g.abstraction);
    BestResponse br(policy);
    BruteForceBestResponse brute(policy);
    for (int responder = 0; responder < 2; ++responder)
      EXPECT_NEAR(br.value(responder), brute.value(responder), 1e-12) << name << " " << responder;
    // A best response can never do worse than the policy itself in that seat.
    EXPECT_GE(br.value(0), br.profile_value(0) - 1e-12) << name;
    EXPECT_GE(br.value(1), -br.profile_value(0) - 1e-12) << name;
  }
}

}  // namespace
}  // namespace hulhe
