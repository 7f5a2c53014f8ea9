// Hand features checked against a brute-force enumeration written here, independently of
// the per-board sweep: for a hand, every opponent pair and every remaining board is dealt
// and compared with `evaluate`. Fast tests check the building blocks (one board's sweep,
// one hand's aggregation with brute-force lookups); the Slow suite builds whole rounds.
#include "abstraction/features/hand_features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "abstraction/features/board_completions.h"
#include "abstraction/features/hand_strength.h"
#include "abstraction/features/next_round_buckets.h"
#include "abstraction/features/ochs.h"
#include "abstraction/features/river_strength.h"
#include "game/card.h"
#include "game/hand_evaluator.h"
#include "game/hand_indexer.h"

namespace hulhe {
namespace {

CardSet set_of(const Card* cards, int n) {
  CardSet s;
  for (int i = 0; i < n; ++i) s.insert(cards[i]);
  return s;
}

// Wins and ties of `hole` on a five-card `board` against every opponent pair avoiding the
// known cards, the opponent restricted to pairs with opponent_ok(c1, c2).
template <class Ok>
void brute_showdown(const Card* hole, const Card* board, Ok&& opponent_ok, int& wins, int& ties,
                    int& opponents) {
  const CardSet board_set = set_of(board, 5);
  const CardSet known = board_set | set_of(hole, 2);
  CardSet mine = board_set;
  mine.insert(hole[0]);
  mine.insert(hole[1]);
  const HandRank my_rank = evaluate(mine);
  wins = ties = opponents = 0;
  for (int a = 0; a < kMaxCards; ++a) {
    if (known.contains(static_cast<Card>(a))) continue;
    for (int b = a + 1; b < kMaxCards; ++b) {
      if (known.contains(static_cast<Card>(b))) continue;
      if (!opponent_ok(static_cast<Card>(a), static_cast<Card>(b))) continue;
      CardSet theirs = board_set;
      theirs.insert(static_cast<Card>(a));
      theirs.insert(static_cast<Card>(b));
      const HandRank their_rank = evaluate(theirs);
      ++opponents;
      if (my_rank > their_rank) ++wins;
      if (my_rank == their_rank) ++ties;
    }
  }
}

// HS in float with the same arithmetic as the library, so strength bins agree exactly.
float to_hs(int wins, int ties, int opponents) {
  return opponents == 0 ? 0.0F
                        : (static_cast<float>(wins) + 0.5F * static_cast<float>(ties)) /
                              static_cast<float>(opponents);
}

float brute_hs(const Card* hole, const Card* board) {
  int w = 0, t = 0, n = 0;
  brute_showdown(
      hole, board, [](Card, Card) { return true; }, w, t, n);
  return n == 990 ? to_hs(w, t, n) : -1.0F;  // C(45, 2) opponents, or a visibly wrong value
}

// Every river HS of `cards` (hole + `board_count` board cards), dealing the rest directly.
std::vector<float> brute_final_hs(const Card* cards, int board_count) {
  std::vector<float> out;
  const CardSet known = set_of(cards, 2 + board_count);
  Card board[5];
  std::copy(cards + 2, cards + 2 + board_count, board);
  auto deal = [&](auto&& self, int filled, int next_card) -> void {
    if (filled == 5) {
      out.push_back(brute_hs(cards, board));
      return;
    }
    for (int c = next_card; c < kMaxCards; ++c) {
      if (known.contains(static_cast<Card>(c))) continue;
      board[filled] = static_cast<Card>(c);
      self(self, filled + 1, c + 1);
    }
  };
  deal(deal, board_count, 0);
  return out;
}

std::vector<Card> random_hand(std::mt19937_64& rng, int n) {
  std::vector<Card> deck(kMaxCards);
  for (int c = 0; c < kMaxCards; ++c) deck[c] = static_cast<Card>(c);
  std::shuffle(deck.begin(), deck.end(), rng);
  deck.resize(n);
  return deck;
}

// A suit-invariant cluster of a hole pair defined from its cards alone (so the brute force
// needs no indexer): pairs, suited and offsuit hands of a few rank bands.
int toy_cluster(Card a, Card b, int clusters) {
  const int hi = std::max(rank_of(a), rank_of(b));
  const int lo = std::min(rank_of(a), rank_of(b));
  const int kind = hi == lo ? 0 : (suit_of(a) == suit_of(b) ? 1 : 2);
  return (kind * 5 + (hi + lo) / 5) % clusters;
}

std::vector<int> toy_preflop_clusters(int clusters) {
  const HandIndexer& preflop = HandIndexer::holdem(0);
  std::vector<int> out(preflop.size());
  for (std::uint64_t i = 0; i < preflop.size(); ++i) {
    Card hole[2];
    preflop.unindex(i, hole);
    out[i] = toy_cluster(hole[0], hole[1], clusters);
  }
  return out;
}

std::vector<float> brute_ochs(const Card* hole, const Card* board, int clusters) {
  std::vector<float> out(clusters);
  for (int k = 0; k < clusters; ++k) {
    int w = 0, t = 0, n = 0;
    brute_showdown(
        hole, board, [&](Card a, Card b) { return toy_cluster(a, b, clusters) == k; }, w, t, n);
    out[k] = to_hs(w, t, n);
  }
  return out;
}

// Brute-force HS of the canonical river hand `river_index` (its representative's cards).
float brute_hs_of_river_index(std::uint64_t river_index) {
  Card cards[7];
  HandIndexer::holdem(3).unindex(river_index, cards);
  return brute_hs(cards, cards + 2);
}

TEST(HandFeatures, HolePairsAreColexOrdered) {
  const auto& pairs = hole_pairs();
  for (int p = 0; p < kNumHolePairs; ++p) {
    ASSERT_LT(pairs[p].low, pairs[p].high);
    EXPECT_EQ(hole_pair_index(pairs[p].low, pairs[p].high), p);
    EXPECT_EQ(hole_pair_index(pairs[p].high, pairs[p].low), p);
  }
}

TEST(HandFeatures, CanonicalBoardCountsAndClassSizes) {
  // Each class's size is the number of distinct suit relabellings of its representative;
  // they must add up to all C(52, n) boards. 1,755 canonical flops is DESIGN.md ground truth.
  std::array<int, 4> perm = {0, 1, 2, 3};
  std::vector<std::array<int, 4>> perms;
  do perms.push_back(perm);
  while (std::next_permutation(perm.begin(), perm.end()));
  const int expected_count[3] = {1755, 16432, 134459};
  const std::int64_t expected_total[3] = {22100, 270725, 2598960};
  for (int n = 3; n <= 5; ++n) {
    const auto boards = canonical_boards(n);
    EXPECT_EQ(static_cast<int>(boards.size()), expected_count[n - 3]);
    std::int64_t total = 0;
    for (const auto& b : boards) {
      std::vector<std::uint64_t> images;
      for (const auto& p : perms) {
        std::uint64_t m = 0;
        for (int i = 0; i < n; ++i)
          m |= std::uint64_t{1} << make_card(rank_of(b[i]), p[suit_of(b[i])]);
        images.push_back(m);
      }
      std::sort(images.begin(), images.end());
      total += std::unique(images.begin(), images.end()) - images.begin();
    }
    EXPECT_EQ(total, expected_total[n - 3]) << n << "-card boards";
  }
}

TEST(HandFeatures, BoardSweepMatchesBruteForce) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<Card>> boards = {
      parse_cards("AsKsQsJsTs"),  // royal flush on board: every hand ties
      parse_cards("2c2d2h7s7c"),  // full house board, quads and bigger boats possible
      parse_cards("5h6h7h8c9d"),  // straight board, heavy ties
  };
  boards.push_back(random_hand(rng, 5));
  RiverBoardSweep sweep;
  std::vector<float> hs(kNumHolePairs, -1.0F);
  for (const auto& board : boards) {
    sweep.run(board.data(), hs.data());
    EXPECT_EQ(sweep.live_pairs().size(), 1081U);
    for (const auto p : sweep.live_pairs()) {
      const Card hole[2] = {hole_pairs()[p].low, hole_pairs()[p].high};
      ASSERT_FLOAT_EQ(hs[p], brute_hs(hole, board.data()))
          << cards_to_string({hole[0], hole[1]}) << " on " << cards_to_string(board);
    }
  }
  // Royal flush on board: every hand plays the board.
  sweep.run(boards[0].data(), hs.data());
  for (const auto p : sweep.live_pairs()) EXPECT_EQ(hs[p], 0.5F);
}

TEST(HandFeatures, OchsBoardSweepMatchesBruteForce) {
  constexpr int kClusters = 8;
  const auto pair_cluster = pair_clusters(toy_preflop_clusters(kClusters), kClusters);
  for (int p = 0; p < kNumHolePairs; ++p)  // the indexer's preflop classes agree with the toy
    ASSERT_EQ(pair_cluster[p], toy_cluster(hole_pairs()[p].low, hole_pairs()[p].high, kClusters));
  RiverBoardSweep sweep(pair_cluster, kClusters);
  std::vector<float> values(kNumHolePairs * kClusters);
  std::mt19937_64 rng(5);
  for (const auto& board : {parse_cards("AhAdAsKcKd"), random_hand(rng, 5)}) {
    sweep.run(board.data(), values.data());
    int checked = 0;
    for (const auto p : sweep.live_pairs()) {
      if (p % 7 != 0) continue;  // a seventh of the pairs keeps this fast under ASan
      const Card hole[2] = {hole_pairs()[p].low, hole_pairs()[p].high};
      const auto expected = brute_ochs(hole, board.data(), kClusters);
      for (int k = 0; k < kClusters; ++k)
        ASSERT_FLOAT_EQ(values[p * kClusters + k], expected[k])
            << cards_to_string({hole[0], hole[1]}) << " on " << cards_to_string(board)
            << " cluster " << k;
      ++checked;
    }
    EXPECT_GT(checked, 100);
  }
}

TEST(HandFeatures, OchsRejectsBadClusters) {
  EXPECT_THROW(pair_clusters(std::vector<int>(168, 0), 8), std::invalid_argument);
  EXPECT_THROW(pair_clusters(std::vector<int>(169, 8), 8), std::invalid_argument);
  EXPECT_THROW(pair_clusters(std::vector<int>(169, -1), 8), std::invalid_argument);
}

// Turn and flop: one hand's E[HS], E[HS^2] and histogram by the library's aggregation
// (mean over the next round, lookups at canonical indices) with brute-force HS as the
// lookup, against dealing the remaining board directly.
void check_hand_against_brute_force(int round, const Card* cards) {
  const std::vector<float> finals = brute_final_hs(cards, board_cards_in_round(round));
  double mean = 0, mean_sq = 0;
  for (float v : finals) {
    mean += v;
    mean_sq += static_cast<double>(v) * v;
  }
  mean /= static_cast<double>(finals.size());
  mean_sq /= static_cast<double>(finals.size());

  // E[HS] of round r = mean over the next round of E[HS] of round r + 1, down from the river.
  auto moment = [&](int power) {
    auto river_value = [&](std::uint64_t river) {
      const double hs = brute_hs_of_river_index(river);
      return power == 1 ? hs : hs * hs;
    };
    if (round == 2) return mean_over_next_round(2, cards, river_value);
    return mean_over_next_round(1, cards, [&](std::uint64_t turn) {
      Card turn_cards[6];
      HandIndexer::holdem(2).unindex(turn, turn_cards);
      return mean_over_next_round(2, turn_cards, river_value);
    });
  };
  EXPECT_NEAR(moment(1), mean, 1e-6);
  EXPECT_NEAR(moment(2), mean_sq, 1e-6);

  constexpr int kBins = 10;
  std::vector<double> expected(kBins, 0.0);
  for (float v : finals)
    expected[std::min(static_cast<int>(v * static_cast<float>(kBins)), kBins - 1)] +=
        1.0 / static_cast<double>(finals.size());
  std::vector<float> hist(kBins);
  strength_histogram(round, cards, kBins, brute_hs_of_river_index, hist.data());
  for (int b = 0; b < kBins; ++b) EXPECT_NEAR(hist[b], expected[b], 1e-6) << "bin " << b;
}

// `trials` canonical hands of `round` drawn with `seed`, each against brute force.
void check_random_hands_against_brute_force(int round, int trials, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const HandIndexer& indexer = HandIndexer::holdem(round);
  for (int trial = 0; trial < trials; ++trial) {
    Card cards[7];
    indexer.unindex(rng() % indexer.size(), cards);
    check_hand_against_brute_force(round, cards);
  }
}

TEST(HandFeatures, TurnHandsMatchBruteForce) {
  check_random_hands_against_brute_force(2, 3, 7);
}

TEST(HandFeatures, FlopHandMatchesBruteForce) {
  check_random_hands_against_brute_force(1, 1, 3);
}

// for_each_river_hand of flop and turn hands (one index_each_last_card call per first added
// card) reports the same canonical river indices in the same order as indexing every
// completion in ascending card order.
TEST(HandFeatures, RiverCompletionsInAscendingOrder) {
  std::mt19937_64 rng(23);
  const HandIndexer& river = HandIndexer::holdem(3);
  for (int round = 1; round <= 2; ++round) {
    const HandIndexer& indexer = HandIndexer::holdem(round);
    const int have = 2 + board_cards_in_round(round);
    for (int trial = 0; trial < 20; ++trial) {
      Card cards[7];
      indexer.unindex(rng() % indexer.size(), cards);
      const CardSet known = set_of(cards, have);
      std::vector<std::uint64_t> want;
      for (int a = 0; a < kMaxCards; ++a) {
        if (known.contains(static_cast<Card>(a))) continue;
        cards[have] = static_cast<Card>(a);
        if (round == 2) {
          want.push_back(river.index(cards));
          continue;
        }
        for (int b = a + 1; b < kMaxCards; ++b) {
          if (known.contains(static_cast<Card>(b))) continue;
          cards[have + 1] = static_cast<Card>(b);
          want.push_back(river.index(cards));
        }
      }
      std::vector<std::uint64_t> got;
      for_each_river_hand(round, cards, [&](std::uint64_t i) { got.push_back(i); });
      ASSERT_EQ(got.size(), round == 1 ? 1081U : 46U);
      EXPECT_EQ(got, want) << "round " << round << " trial " << trial;
    }
  }
}

// A suit-invariant stand-in for a bucket map, defined from the cards: the 5-7 card rank of
// the whole hand and the highest hole rank.
std::int32_t toy_bucket(const Card* cards, int n) {
  return evaluate(set_of(cards, n)) + 7463 * std::max(rank_of(cards[0]), rank_of(cards[1]));
}

std::vector<std::int32_t> brute_next_buckets(int round, const Card* cards) {
  const int have = 2 + board_cards_in_round(round);
  const CardSet known = set_of(cards, have);
  Card next[7];
  std::copy(cards, cards + have, next);
  std::vector<std::int32_t> out;
  for (int a = 0; a < kMaxCards; ++a) {
    if (known.contains(static_cast<Card>(a))) continue;
    next[have] = static_cast<Card>(a);
    if (round > 0) {
      out.push_back(toy_bucket(next, have + 1));
      continue;
    }
    for (int b = a + 1; b < kMaxCards; ++b) {
      if (known.contains(static_cast<Card>(b))) continue;
      next[have + 1] = static_cast<Card>(b);
      for (int c = b + 1; c < kMaxCards; ++c) {
        if (known.contains(static_cast<Card>(c))) continue;
        next[have + 2] = static_cast<Card>(c);
        out.push_back(toy_bucket(next, 5));
      }
    }
  }
  return out;
}

TEST(HandFeatures, NextRoundBucketsOfOneHandMatchBruteForce) {
  std::mt19937_64 rng(17);
  for (int round = 0; round <= 2; ++round) {
    const HandIndexer& indexer = HandIndexer::holdem(round);
    const HandIndexer& next = HandIndexer::holdem(round + 1);
    const int next_cards = 2 + board_cards_in_round(round + 1);
    for (int trial = 0; trial < 4; ++trial) {
      Card cards[7];
      indexer.unindex(rng() % indexer.size(), cards);
      std::vector<std::int32_t> row(next_round_successors(round));
      next_round_buckets_of(
          round, cards,
          [&](std::uint64_t i) {
            Card c[7];
            next.unindex(i, c);
            return toy_bucket(c, next_cards);
          },
          row.data());
      EXPECT_EQ(row, brute_next_buckets(round, cards)) << "round " << round;
    }
  }
}

TEST(HandFeatures, PreflopNextRoundBucketsOverAllFlops) {
  const HandIndexer& flop = HandIndexer::holdem(1);
  std::vector<std::int32_t> flop_bucket(flop.size());
  for (std::uint64_t i = 0; i < flop.size(); ++i) {
    Card c[5];
    flop.unindex(i, c);
    flop_bucket[i] = toy_bucket(c, 5);
  }
  const NextRoundBuckets nrb = next_round_buckets(0, flop_bucket, 2);
  ASSERT_EQ(nrb.rows, 169);
  ASSERT_EQ(nrb.per_row, 19600);
  const HandIndexer& preflop = HandIndexer::holdem(0);
  for (std::uint64_t i : {0UL, 77UL, 168UL}) {
    Card hole[2];
    preflop.unindex(i, hole);
    const auto expected = brute_next_buckets(0, hole);
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), nrb.row(static_cast<std::int64_t>(i))))
        << "preflop hand " << i;
  }
  EXPECT_THROW(next_round_buckets(0, std::vector<std::int32_t>(10), 1), std::invalid_argument);
  EXPECT_THROW(next_round_buckets(3, flop_bucket, 1), std::invalid_argument);
}

// ---- Whole rounds (slow): the river table, then every round built from it. ----

const std::vector<float>& river_table() {
  static const std::vector<float> table = river_hand_strength(2);
  return table;
}

// Combos per canonical preflop hand: 6 pairs, 4 suited, 12 offsuit.
int preflop_combos(std::uint64_t i) {
  Card hole[2];
  HandIndexer::holdem(0).unindex(i, hole);
  if (rank_of(hole[0]) == rank_of(hole[1])) return 6;
  return suit_of(hole[0]) == suit_of(hole[1]) ? 4 : 12;
}

TEST(HandFeaturesSlow, RiverTableMatchesBruteForce) {
  const auto& hs = river_table();
  ASSERT_EQ(hs.size(), 123156254U);
  EXPECT_TRUE(std::all_of(hs.begin(), hs.end(), [](float v) { return v >= 0.0F && v <= 1.0F; }));
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint64_t i = rng() % hs.size();
    ASSERT_FLOAT_EQ(hs[i], brute_hs_of_river_index(i)) << "river hand " << i;
  }
}

TEST(HandFeaturesSlow, EveryRoundMatchesBruteForce) {
  const auto& river_hs = river_table();
  std::mt19937_64 rng(29);
  const auto turn = expected_hand_strength(2, river_hs, 2);
  const auto turn_sq = expected_hand_strength_squared(2, river_hs, 2);
  const auto turn_hist = strength_histograms(2, 8, river_hs, 2);
  ASSERT_EQ(turn.size(), 13960050U);
  for (int trial = 0; trial < 20; ++trial) {
    const std::uint64_t i = rng() % turn.size();
    Card cards[6];
    HandIndexer::holdem(2).unindex(i, cards);
    const auto finals = brute_final_hs(cards, 4);
    double m = 0, m2 = 0;
    std::vector<double> hist(8, 0.0);
    for (float v : finals) {
      m += v / 46.0;
      m2 += static_cast<double>(v) * v / 46.0;
      hist[std::min(static_cast<int>(v * 8.0F), 7)] += 1.0 / 46.0;
    }
    EXPECT_NEAR(turn[i], m, 1e-6);
    EXPECT_NEAR(turn_sq[i], m2, 1e-6);
    for (int b = 0; b < 8; ++b)
      EXPECT_NEAR(turn_hist.row(static_cast<std::int64_t>(i))[b], hist[b], 1e-6);
  }

  // Earlier rounds chain from the turn arrays exactly as expected_hand_strength(round) does
  // (rebuilding the turn for each entry point would double this test's time).
  const auto flop = mean_over_next_round(1, turn, 2);
  const auto flop_sq = mean_over_next_round(1, turn_sq, 2);
  ASSERT_EQ(flop.size(), 1286792U);
  for (int trial = 0; trial < 2; ++trial) {
    const std::uint64_t i = rng() % flop.size();
    Card cards[5];
    HandIndexer::holdem(1).unindex(i, cards);
    const auto finals = brute_final_hs(cards, 3);
    double m = 0, m2 = 0;
    for (float v : finals) {
      m += v;
      m2 += static_cast<double>(v) * v;
    }
    EXPECT_NEAR(flop[i], m / 1081.0, 1e-5);
    EXPECT_NEAR(flop_sq[i], m2 / 1081.0, 1e-5);
  }

  // Preflop: zero-sum symmetry makes the combo-weighted mean of E[HS] exactly 1/2; one hand
  // (seven-deuce offsuit) against dealing every opponent and board.
  const auto preflop = mean_over_next_round(0, flop, 2);
  const auto preflop_sq = mean_over_next_round(0, flop_sq, 2);
  ASSERT_EQ(preflop.size(), 169U);
  double weighted = 0;
  for (std::uint64_t i = 0; i < 169; ++i) weighted += preflop_combos(i) * preflop[i];
  EXPECT_NEAR(weighted / 1326.0, 0.5, 1e-6);
  const auto hole = parse_cards("7c2d");
  const auto preflop_hist = strength_histograms(0, 4, river_hs, 2);
  const std::uint64_t i72 = HandIndexer::holdem(0).index(hole.data());
  std::int64_t boards = 0;
  double sum = 0;
  std::vector<double> hist(4, 0.0);
  const CardSet known = CardSet::of(hole);
  std::vector<Card> rest;
  for (int c = 0; c < kMaxCards; ++c)
    if (!known.contains(static_cast<Card>(c))) rest.push_back(static_cast<Card>(c));
  const int m = static_cast<int>(rest.size());
  // 2.1M boards x 990 opponents: the incremental evaluator keeps this to seconds.
  const HandEvaluator& ev = HandEvaluator::instance();
  double sum_sq = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : boards, sum, sum_sq) num_threads(2)
  for (int a = 0; a < m; ++a) {
    std::vector<double> local_hist(4, 0.0);
    for (int b = a + 1; b < m; ++b)
      for (int c = b + 1; c < m; ++c)
        for (int d = c + 1; d < m; ++d)
          for (int e = d + 1; e < m; ++e) {
            const EvalHand board =
                EvalHand{}.add(rest[a]).add(rest[b]).add(rest[c]).add(rest[d]).add(rest[e]);
            const int mine = ev.rank(board.add(hole[0]).add(hole[1]));
            int wins = 0, ties = 0, opponents = 0;
            for (int x = 0; x < m; ++x) {
              if (x == a || x == b || x == c || x == d || x == e) continue;
              for (int y = x + 1; y < m; ++y) {
                if (y == a || y == b || y == c || y == d || y == e) continue;
                const int theirs = ev.rank(board.add(rest[x]).add(rest[y]));
                wins += mine > theirs ? 1 : 0;
                ties += mine == theirs ? 1 : 0;
                ++opponents;
              }
            }
            const float v = to_hs(wins, ties, opponents);
            sum += v;
            sum_sq += static_cast<double>(v) * v;
            local_hist[std::min(static_cast<int>(v * 4.0F), 3)] += 1.0;
            ++boards;
          }
#pragma omp critical
    for (int k = 0; k < 4; ++k) hist[k] += local_hist[k];
  }
  ASSERT_EQ(boards, 2118760);
  EXPECT_NEAR(preflop[i72], sum / static_cast<double>(boards), 1e-5);
  EXPECT_NEAR(preflop_sq[i72], sum_sq / static_cast<double>(boards), 1e-5);
  for (int k = 0; k < 4; ++k)
    EXPECT_NEAR(preflop_hist.row(static_cast<std::int64_t>(i72))[k],
                hist[k] / static_cast<double>(boards), 1e-6);
  // The direct pass (one sweep per canonical river board, weighted by class size) gives the
  // same 169 histograms bit for bit.
  const FeatureMatrix direct = preflop_strength_histograms(4, 2);
  ASSERT_EQ(direct.rows, 169);
  ASSERT_EQ(direct.cols, 4);
  EXPECT_EQ(direct.data, preflop_hist.data);
}

TEST(HandFeaturesSlow, OchsTableMatchesBruteForce) {
  constexpr int kClusters = 3;
  const FeatureMatrix ochs = ochs_features(toy_preflop_clusters(kClusters), kClusters, 2);
  ASSERT_EQ(ochs.rows, 123156254);
  ASSERT_EQ(ochs.cols, kClusters);
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 100; ++trial) {
    const std::int64_t i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(ochs.rows));
    Card cards[7];
    HandIndexer::holdem(3).unindex(static_cast<std::uint64_t>(i), cards);
    const auto expected = brute_ochs(cards, cards + 2, kClusters);
    for (int k = 0; k < kClusters; ++k) ASSERT_FLOAT_EQ(ochs.row(i)[k], expected[k]) << i;
  }
}

}  // namespace
}  // namespace hulhe
