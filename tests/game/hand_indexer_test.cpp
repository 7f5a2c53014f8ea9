// The hand indexer against the counts of DESIGN.md, round trips, suit-permutation
// invariance, and an independent brute-force canonicalisation (minimum over all 24 suit
// permutations) written here.
#include "game/hand_indexer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <vector>

namespace hulhe {
namespace {

std::vector<std::array<int, 4>> all_suit_permutations() {
  std::array<int, 4> p = {0, 1, 2, 3};
  std::vector<std::array<int, 4>> out;
  do out.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return out;
}

// Brute force: relabel suits every possible way, sort each group, keep the smallest hand
// (read as a base-64 number, hole cards most significant).
std::uint64_t brute_canonical(const std::vector<Card>& cards, const std::vector<int>& groups) {
  std::uint64_t best = ~std::uint64_t{0};
  for (const auto& perm : all_suit_permutations()) {
    std::vector<Card> h;
    for (Card c : cards) h.push_back(make_card(rank_of(c), perm[suit_of(c)]));
    for (std::size_t g = 0, i = 0; g < groups.size(); i += groups[g++])
      std::sort(h.begin() + i, h.begin() + i + groups[g]);
    std::uint64_t key = 0;
    for (Card c : h) key = key * 64 + c;
    best = std::min(best, key);
  }
  return best;
}

// Calls f(cards) for every hand: group 0's cards ascending, then group 1's, ... (distinct).
template <typename F>
void for_each_hand(const std::vector<int>& groups, F&& f) {
  std::vector<Card> cards;
  auto rec = [&](auto&& self, std::size_t g, int left, int min_card) -> void {
    if (g == groups.size()) return f(cards);
    if (left == 0) return self(self, g + 1, g + 1 < groups.size() ? groups[g + 1] : 0, 0);
    for (int c = min_card; c < 52; ++c) {
      if (std::find(cards.begin(), cards.end(), c) != cards.end()) continue;
      cards.push_back(static_cast<Card>(c));
      self(self, g, left - 1, c + 1);
      cards.pop_back();
    }
  };
  rec(rec, 0, groups[0], 0);
}

// index_each_last_card against index() for every possible last card: random hold'em hands of
// the flop, turn and river indexers, and every hand of a small three-group indexer (whose
// last group holds one card, so the call starts from an empty last group).
TEST(HandIndexer, EachLastCardMatchesIndex) {
  std::mt19937_64 rng(7);
  for (int round = 1; round <= 3; ++round) {
    const HandIndexer& indexer = HandIndexer::holdem(round);
    const int n = indexer.num_cards();
    for (int trial = 0; trial < 3000; ++trial) {
      std::array<Card, 52> deck;
      std::iota(deck.begin(), deck.end(), Card{0});
      std::shuffle(deck.begin(), deck.end(), rng);
      std::array<std::uint64_t, 52> each;
      each.fill(~std::uint64_t{0});
      indexer.index_each_last_card(deck.data(), each.data());
      for (int j = n - 1; j < 52; ++j) {
        std::array<Card, 7> hand;
        std::copy(deck.begin(), deck.begin() + n - 1, hand.begin());
        hand[n - 1] = deck[j];
        ASSERT_EQ(each[deck[j]], indexer.index(hand.data())) << "round " << round;
      }
      for (int j = 0; j < n - 1; ++j) ASSERT_EQ(each[deck[j]], ~std::uint64_t{0});
    }
  }
  const std::vector<int> groups = {2, 1, 1};
  const HandIndexer small(groups);
  std::set<std::uint64_t> seen;
  for_each_hand({2, 1}, [&](const std::vector<Card>& cards) {
    std::array<std::uint64_t, 52> each{};
    small.index_each_last_card(cards.data(), each.data());
    for (int c = 0; c < 52; ++c) {
      if (std::find(cards.begin(), cards.end(), c) != cards.end()) continue;
      std::vector<Card> hand = cards;
      hand.push_back(static_cast<Card>(c));
      ASSERT_EQ(each[c], small.index(hand.data()));
      seen.insert(each[c]);
    }
  });
  EXPECT_EQ(seen.size(), small.size());
}

TEST(HandIndexer, HoldemSizes) {
  EXPECT_EQ(HandIndexer::holdem(0).size(), 169U);
  EXPECT_EQ(HandIndexer::holdem(1).size(), 1286792U);
  EXPECT_EQ(HandIndexer::holdem(2).size(), 13960050U);
  EXPECT_EQ(HandIndexer::holdem(3).size(), 123156254U);
  EXPECT_EQ(HandIndexer::holdem(3).num_cards(), 7);
  EXPECT_EQ(&HandIndexer::holdem(2), &HandIndexer::holdem(2));  // built once
  // Per-street boards (perfect recall) from ALGORITHMS.md.
  EXPECT_EQ(HandIndexer({2, 3, 1}).size(), 55190538U);
  EXPECT_EQ(HandIndexer({2, 3, 1, 1}).size(), 2428287420U);
  EXPECT_THROW(HandIndexer::holdem(4), std::invalid_argument);
  EXPECT_THROW(HandIndexer({}), std::invalid_argument);
}

// Exhaustive against brute-force canonical forms on small indexers: equal indices exactly
// for equal canonical forms, and every index 0..size-1 used. Canonical flops: 1,755.
TEST(HandIndexer, MatchesBruteForceCanonicalisation) {
  for (const std::vector<int>& groups : std::vector<std::vector<int>>{{2}, {3}, {1, 1}, {2, 1}}) {
    const HandIndexer indexer(groups);
    std::map<std::uint64_t, std::uint64_t> index_of_canonical;
    std::set<std::uint64_t> seen;
    for_each_hand(groups, [&](const std::vector<Card>& cards) {
      const std::uint64_t idx = indexer.index(cards.data());
      ASSERT_LT(idx, indexer.size());
      const auto [it, inserted] = index_of_canonical.emplace(brute_canonical(cards, groups), idx);
      ASSERT_EQ(it->second, idx);  // same canonical form, same index
      seen.insert(idx);
    });
    EXPECT_EQ(seen.size(), index_of_canonical.size());  // different forms, different indices
    EXPECT_EQ(seen.size(), indexer.size());
  }
  EXPECT_EQ(HandIndexer({2}).size(), 169U);
  EXPECT_EQ(HandIndexer({3}).size(), 1755U);
}

// unindex then index gives the index back, for every flop index.
TEST(HandIndexer, FlopRoundTripEveryIndex) {
  const HandIndexer& flop = HandIndexer::holdem(1);
  std::array<Card, 5> cards;
  for (std::uint64_t i = 0; i < flop.size(); ++i) {
    flop.unindex(i, cards.data());
    ASSERT_TRUE(cards[0] < cards[1] && cards[2] < cards[3] && cards[3] < cards[4]);
    ASSERT_EQ(CardSet::of(cards).size(), 5);
    ASSERT_EQ(flop.index(cards.data()), i);
  }
}

// Turn and river: random indices round-trip; random hands map to a representative with the
// same brute-force canonical form; suit permutations and reordering within a group keep the
// index.
TEST(HandIndexer, TurnRiverSamples) {
  std::mt19937_64 rng(99);
  const auto perms = all_suit_permutations();
  for (int round = 2; round <= 3; ++round) {
    const HandIndexer& indexer = HandIndexer::holdem(round);
    const std::vector<int> groups = {2, round + 2};
    const int n = indexer.num_cards();
    std::vector<Card> cards(7), back(7), permuted(7);  // first n used
    std::uniform_int_distribution<std::uint64_t> any_index(0, indexer.size() - 1);
    for (int trial = 0; trial < 100000; ++trial) {
      const std::uint64_t i = trial == 0 ? 0 : trial == 1 ? indexer.size() - 1 : any_index(rng);
      indexer.unindex(i, cards.data());
      ASSERT_EQ(CardSet::of(std::vector<Card>(cards.begin(), cards.begin() + n)).size(), n);
      ASSERT_EQ(indexer.index(cards.data()), i);
    }
    std::vector<Card> deck(52);
    std::iota(deck.begin(), deck.end(), Card{0});
    for (int trial = 0; trial < 3000; ++trial) {
      std::shuffle(deck.begin(), deck.end(), rng);
      std::copy(deck.begin(), deck.begin() + n, cards.begin());
      const std::uint64_t idx = indexer.index(cards.data());
      indexer.unindex(idx, back.data());
      ASSERT_EQ(brute_canonical(std::vector<Card>(back.begin(), back.begin() + n), groups),
                brute_canonical(std::vector<Card>(cards.begin(), cards.begin() + n), groups));
      const auto& perm = perms[trial % perms.size()];
      for (int k = 0; k < n; ++k)
        permuted[k] = make_card(rank_of(cards[k]), perm[suit_of(cards[k])]);
      std::swap(permuted[0], permuted[1]);
      for (int a = 2, b = n - 1; a < b; ++a, --b)
        std::swap(permuted[a], permuted[b]);  // reorder the board
      ASSERT_EQ(indexer.index(permuted.data()), idx);
    }
  }
}

// Every one of the 25,989,600 (hole, flop) deals: each index in range and every index hit.
TEST(HandIndexerSlow, EveryFlopDealHitsEveryIndex) {
  const HandIndexer& flop = HandIndexer::holdem(1);
  std::vector<std::uint8_t> hit(flop.size(), 0);
  std::uint64_t deals = 0;
  for_each_hand({2, 3}, [&](const std::vector<Card>& cards) {
    const std::uint64_t idx = flop.index(cards.data());
    ASSERT_LT(idx, flop.size());
    hit[idx] = 1;
    ++deals;
  });
  EXPECT_EQ(deals, 25989600U);
  EXPECT_EQ(std::count(hit.begin(), hit.end(), 1), static_cast<std::ptrdiff_t>(flop.size()));
}

}  // namespace
}  // namespace hulhe
