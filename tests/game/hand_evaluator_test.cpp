// The evaluator against the ground truth of DESIGN.md (exhaustive category counts) and
// against an independent brute-force ranker written here: best of C(n,5) subsets, each
// ranked by the textbook rules on (category, tie-break ranks).
#include "game/hand_evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace hulhe {
namespace {

// ---- Independent reference: a 5-card ranker by the rules, compared lexicographically ----
// Key: category, then ranks ordered by (multiplicity desc, rank desc); a straight's key is
// its top card (5 for the wheel, with the ace counting low).
std::vector<int> reference_five(const std::array<Card, 5>& five) {
  std::array<int, 13> count{};
  bool flush = true;
  for (Card c : five) {
    ++count[rank_of(c)];
    if (suit_of(c) != suit_of(five[0])) flush = false;
  }
  std::vector<std::pair<int, int>> groups;  // (multiplicity, rank)
  for (int r = 12; r >= 0; --r)
    if (count[r] > 0) groups.emplace_back(count[r], r);
  std::stable_sort(groups.begin(), groups.end(), [](auto a, auto b) { return a.first > b.first; });
  int straight_top = -1;
  if (groups.size() == 5) {
    if (groups[0].second - groups[4].second == 4) straight_top = groups[0].second;
    if (groups[0].second == 12 && groups[1].second == 3) straight_top = 3;  // A-5-4-3-2
  }
  int category;
  if (straight_top >= 0 && flush)
    category = 8;
  else if (groups[0].first == 4)
    category = 7;
  else if (groups[0].first == 3 && groups[1].first == 2)
    category = 6;
  else if (flush)
    category = 5;
  else if (straight_top >= 0)
    category = 4;
  else if (groups[0].first == 3)
    category = 3;
  else if (groups[0].first == 2 && groups[1].first == 2)
    category = 2;
  else if (groups[0].first == 2)
    category = 1;
  else
    category = 0;
  std::vector<int> key{category};
  if (category == 8 || category == 4) {
    key.push_back(straight_top);
  } else {
    for (auto [mult, rank] : groups) key.push_back(rank);
  }
  return key;
}

std::vector<int> reference_best(const std::vector<Card>& cards) {
  std::vector<int> best;
  const int n = static_cast<int>(cards.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      for (int c = b + 1; c < n; ++c)
        for (int d = c + 1; d < n; ++d)
          for (int e = d + 1; e < n; ++e)
            best =
                std::max(best, reference_five({cards[a], cards[b], cards[c], cards[d], cards[e]}));
  return best;
}

constexpr std::array<std::int64_t, 9> kFiveCardCounts = {1302540, 1098240, 123552, 54912, 10200,
                                                         5108,    3744,    624,    40};
constexpr std::array<std::int64_t, 9> kSevenCardCounts = {
    23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584};

TEST(HandEvaluator, CategoryNames) {
  EXPECT_STREQ(category_name(HandCategory::kHighCard), "high card");
  EXPECT_STREQ(category_name(HandCategory::kStraightFlush), "straight flush");
  EXPECT_EQ(category_of(1), HandCategory::kHighCard);
  EXPECT_EQ(category_of(kNumHandRanks), HandCategory::kStraightFlush);
}

TEST(HandEvaluator, KnownHands) {
  auto eval = [](const char* s) { return evaluate(CardSet::of(parse_cards(s))); };
  EXPECT_EQ(eval("AsKsQsJsTs"), kNumHandRanks);  // royal flush
  EXPECT_EQ(eval("7c5d4h3s2c"), 1);              // worst high card
  EXPECT_EQ(category_of(eval("As2d3c4h5s")), HandCategory::kStraight);
  EXPECT_LT(eval("As2d3c4h5s"), eval("2s3d4c5h6s"));  // the wheel is the lowest straight
  EXPECT_EQ(eval("AsKsQsJsTs2c3d"), kNumHandRanks);
  EXPECT_EQ(eval("AhAdKcKs7h7d2c"), eval("AhAdKcKs7h"));  // third pair does not play
  EXPECT_EQ(category_of(eval("2c2d2h3c3d3h4s")), HandCategory::kFullHouse);
  EXPECT_THROW(evaluate(CardSet::of(parse_cards("AsKs"))), std::invalid_argument);
}

// All 2,598,960 five-card hands: category counts, 7,462 classes, and the same order as the
// reference ranker (ranks increase exactly when the reference key increases).
TEST(HandEvaluator, AllFiveCardHandsMatchReference) {
  const HandEvaluator& ev = HandEvaluator::instance();
  std::array<std::int64_t, 9> counts{};
  std::map<std::vector<int>, std::set<HandRank>> by_key;
  for (Card a = 0; a < 52; ++a)
    for (Card b = a + 1; b < 52; ++b)
      for (Card c = b + 1; c < 52; ++c)
        for (Card d = c + 1; d < 52; ++d)
          for (Card e = d + 1; e < 52; ++e) {
            const HandRank r = ev.rank(EvalHand{}.add(a).add(b).add(c).add(d).add(e));
            ++counts[static_cast<int>(category_of(r))];
            // The reference key depends only on ranks and flushness: check it on the hands
            // whose lowest card is a club and second-lowest a club or diamond (every class
            // occurs among them), to stay fast under sanitizers.
            if (suit_of(a) == 0 && suit_of(b) <= 1)
              by_key[reference_five({a, b, c, d, e})].insert(r);
          }
  EXPECT_EQ(counts, kFiveCardCounts);
  ASSERT_EQ(by_key.size(), static_cast<std::size_t>(kNumHandRanks));
  HandRank expected = 0;
  for (const auto& [key, ranks] : by_key) {
    ASSERT_EQ(ranks.size(), 1U);
    EXPECT_EQ(*ranks.begin(), ++expected);
    EXPECT_EQ(static_cast<int>(category_of(*ranks.begin())), key[0]);
  }
}

// Random 5, 6 and 7-card hands: evaluate() and the incremental API against the best of
// C(n,5) by the reference ranker, mapped to a rank through the 5-card classes.
TEST(HandEvaluator, RandomHandsMatchBruteForce) {
  // Reference key of each class -> rank, from one representative per rank.
  std::map<std::vector<int>, HandRank> rank_of_key;
  std::mt19937_64 rng(20240611);
  std::vector<Card> deck(52);
  for (int i = 0; i < 52; ++i) deck[i] = static_cast<Card>(i);
  for (Card a = 0; a < 52; ++a)  // the same representatives as above
    for (Card b = a + 1; b < 52; ++b)
      for (Card c = b + 1; c < 52; ++c)
        for (Card d = c + 1; d < 52; ++d)
          for (Card e = d + 1; e < 52; ++e)
            if (suit_of(a) == 0 && suit_of(b) <= 1)
              rank_of_key.emplace(reference_five({a, b, c, d, e}),
                                  evaluate(CardSet::of(std::vector<Card>{a, b, c, d, e})));
  ASSERT_EQ(rank_of_key.size(), static_cast<std::size_t>(kNumHandRanks));
  const HandEvaluator& ev = HandEvaluator::instance();
  for (int n = 5; n <= 7; ++n) {
    for (int trial = 0; trial < 10000; ++trial) {
      std::shuffle(deck.begin(), deck.end(), rng);
      std::vector<Card> hand(deck.begin(), deck.begin() + n);
      const HandRank expected = rank_of_key.at(reference_best(hand));
      ASSERT_EQ(evaluate(CardSet::of(hand)), expected) << CardSet::of(hand).to_string();
      EvalHand h1, h2;
      for (int i = 0; i < n; ++i) (i < 2 ? h1 : h2) = (i < 2 ? h1 : h2).add(hand[i]);
      ASSERT_EQ(ev.rank(h1.merge(h2)), expected);
      ASSERT_EQ(ev.rank(hand.data(), n), expected);
      // best_five really is five of the cards with the same rank
      const std::vector<Card> five = best_five(CardSet::of(hand));
      ASSERT_EQ(five.size(), 5U);
      ASSERT_EQ(evaluate(CardSet::of(five)), expected);
      for (Card c : five) ASSERT_TRUE(CardSet::of(hand).contains(c));
    }
  }
}

// ACPC small decks: Kuhn (one card: higher wins), Leduc (hole + board: pair, then higher
// card), partial hold'em hands, and agreement with evaluate() on 5..7 cards.
TEST(HandEvaluator, AcpcRanksSmallDecks) {
  auto acpc = [](const char* s) { return rank_cards_acpc(CardSet::of(parse_cards(s))); };
  // Kuhn: Qs < Ks < As.
  EXPECT_LT(acpc("Qs"), acpc("Ks"));
  EXPECT_LT(acpc("Ks"), acpc("As"));
  // Leduc: deck Qh Qs Kh Ks Ah As, hands are hole + board.
  EXPECT_GT(acpc("QhQs"), acpc("AhKs"));  // the lowest pair beats the best high card
  EXPECT_GT(acpc("KhKs"), acpc("QhQs"));
  EXPECT_GT(acpc("AhQs"), acpc("KhQs"));  // same board card: the higher hole card wins
  EXPECT_EQ(acpc("AhQs"), acpc("AsQh"));  // suits do not matter
  EXPECT_GT(acpc("AhKs"), acpc("AhQs"));
  // Fewer than five cards: no straights or flushes, kickers compared as far as they go.
  EXPECT_GT(acpc("2c2d3h"), acpc("AcKdQh"));
  EXPECT_GT(acpc("2c2d3h3s"), acpc("AcAdKhQs"));
  EXPECT_GT(acpc("AcAdKhQs"), acpc("AhAsKdJs"));
  EXPECT_EQ(acpc(""), acpc(""));
  // 5..7 cards of a full deck: the same order as evaluate().
  std::mt19937_64 rng(7);
  std::vector<Card> deck(52);
  for (int i = 0; i < 52; ++i) deck[i] = static_cast<Card>(i);
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = 5 + trial % 3;
    std::shuffle(deck.begin(), deck.end(), rng);
    const CardSet a = CardSet::of(std::vector<Card>(deck.begin(), deck.begin() + n));
    const CardSet b = CardSet::of(std::vector<Card>(deck.begin() + n, deck.begin() + 2 * n));
    EXPECT_EQ(evaluate(a) < evaluate(b), rank_cards_acpc(a) < rank_cards_acpc(b));
    EXPECT_EQ(evaluate(a) == evaluate(b), rank_cards_acpc(a) == rank_cards_acpc(b));
  }
}

// The key layout documented in hand_evaluator.h, checked field by field on random hands:
// rank-weight sum in bits 0..31, suit counters from 3 in bits 32..47, flush bit exactly
// when a suit has 5+ cards, per-suit rank masks; and add / merge / of agree.
TEST(HandEvaluator, KeyLayoutContract) {
  std::mt19937_64 rng(99);
  std::vector<Card> deck(52);
  for (int i = 0; i < 52; ++i) deck[i] = static_cast<Card>(i);
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = trial % 8;  // 0..7 cards
    std::shuffle(deck.begin(), deck.end(), rng);
    std::uint32_t sum = 0;
    std::array<int, 4> per_suit{};
    EvalHand h, low, high;
    for (int i = 0; i < n; ++i) {
      sum += kRankWeights[rank_of(deck[i])];
      ++per_suit[suit_of(deck[i])];
      h = h.add(deck[i]);
      (i % 2 == 0 ? low : high) = (i % 2 == 0 ? low : high).add(deck[i]);
    }
    const CardSet set = CardSet::of(std::vector<Card>(deck.begin(), deck.begin() + n));
    ASSERT_EQ(static_cast<std::uint32_t>(h.key), sum);
    bool flush = false;
    for (int s = 0; s < 4; ++s) {
      ASSERT_EQ((h.key >> (kSuitCounterShift + 4 * s)) & 0xF, 3U + per_suit[s]);
      ASSERT_EQ((h.suit_ranks >> (16 * s)) & 0xFFFF, set.suit_ranks(s));
      flush = flush || per_suit[s] >= 5;
    }
    ASSERT_EQ((h.key & kFlushCheckMask) != 0, flush);
    ASSERT_EQ(h.key >> 48, 0U);
    const EvalHand merged = low.merge(high), from_set = EvalHand::of(set);
    ASSERT_EQ(merged.key, h.key);
    ASSERT_EQ(merged.suit_ranks, h.suit_ranks);
    ASSERT_EQ(from_set.key, h.key);
    ASSERT_EQ(from_set.suit_ranks, h.suit_ranks);
    ASSERT_EQ(h.size(), n);
  }
}

// The row-displacement table is perfect: every rank multiset of 5..7 cards (at most 4 of a
// rank) has its own rank sum below kMaxRankSum, lands inside the table, on a slot of its own,
// and that slot holds the rank of a non-flush hand with those ranks.
TEST(HandEvaluator, RankSumTableIsPerfect) {
  const HandEvaluator& ev = HandEvaluator::instance();
  std::vector<bool> slot_used(detail::kRankTableSize, false);
  std::set<std::uint32_t> sums;
  int multisets = 0;
  std::array<int, kMaxRanks> count{};
  auto visit = [&](auto&& self, int rank, int total) -> void {
    if (rank == kMaxRanks) {
      if (total < 5) return;
      ++multisets;
      std::uint32_t sum = 0;
      EvalHand h;
      int suit = 0;
      for (int r = 0; r < kMaxRanks; ++r)
        for (int k = 0; k < count[r]; ++k) {
          sum += kRankWeights[r];
          h = h.add(make_card(r, suit++ % 4));  // round-robin suits: no flush
        }
      ASSERT_LE(sum, kMaxRankSum);
      ASSERT_TRUE(sums.insert(sum).second) << "two multisets share sum " << sum;
      const std::uint32_t slot = sum + detail::eval_tables.row_offsets[sum >> detail::kRowShift];
      ASSERT_LT(slot, static_cast<std::uint32_t>(detail::kRankTableSize));
      ASSERT_FALSE(slot_used[slot]);
      slot_used[slot] = true;
      ASSERT_EQ(HandEvaluator::rank_of_sum(sum), ev.rank(h));
      ASSERT_GE(ev.rank(h), 1);
      return;
    }
    for (int k = 0; k <= 4 && total + k <= 7; ++k) {
      count[rank] = k;
      self(self, rank + 1, total + k);
    }
    count[rank] = 0;
  };
  visit(visit, 0, 0);
  EXPECT_EQ(multisets, 73775);  // 6,175 + 18,395 + 49,205 multisets of 5, 6, 7 ranks
}

// All 133,784,560 seven-card hands, enumerated incrementally.
TEST(HandEvaluatorSlow, AllSevenCardHands) {
  const HandEvaluator& ev = HandEvaluator::instance();
  std::array<std::int64_t, 9> counts{};
  std::array<std::int64_t, kNumHandRanks + 1> by_rank{};
  for (Card a = 0; a < 52; ++a) {
    const EvalHand ha = EvalHand{}.add(a);
    for (Card b = a + 1; b < 52; ++b) {
      const EvalHand hb = ha.add(b);
      for (Card c = b + 1; c < 52; ++c) {
        const EvalHand hc = hb.add(c);
        for (Card d = c + 1; d < 52; ++d) {
          const EvalHand hd = hc.add(d);
          for (Card e = d + 1; e < 52; ++e) {
            const EvalHand he = hd.add(e);
            for (Card f = e + 1; f < 52; ++f) {
              const EvalHand hf = he.add(f);
              for (Card g = f + 1; g < 52; ++g) ++by_rank[ev.rank(hf.add(g))];
            }
          }
        }
      }
    }
  }
  for (int r = 1; r <= kNumHandRanks; ++r)
    counts[static_cast<int>(category_of(static_cast<HandRank>(r)))] += by_rank[r];
  EXPECT_EQ(by_rank[0], 0);
  EXPECT_EQ(counts, kSevenCardCounts);
  // 4,824 of the 7,462 classes can be the best five of seven cards (no 7-high hands etc.).
  EXPECT_EQ(std::count_if(by_rank.begin() + 1, by_rank.end(), [](auto n) { return n > 0; }), 4824);
}

}  // namespace
}  // namespace hulhe
