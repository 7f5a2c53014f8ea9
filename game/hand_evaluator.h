#pragma once
// Poker hand ranking. `evaluate` ranks 5, 6 or 7 cards of a 52-card deck by their best five:
// a HandRank in 1..7462 (one per 5-card equivalence class), higher is better, equal ranks tie.
// `rank_cards_acpc` ranks any 0..7 cards of any ACPC deck (Kuhn, Leduc) in the same order as
// the ACPC dealer's rankHand/rankCardset (the values differ; only comparisons matter); ranks
// are comparable between hands with equally many cards.
//
// Fast incremental API (for hot loops: equity, features, enumeration): build an `EvalHand`
// card by card (or by merging partial hands, e.g. hole cards + board) and rank it with
// `HandEvaluator::instance().rank(hand)`. Hoist the `instance()` reference out of the loop.
//
//   const HandEvaluator& ev = HandEvaluator::instance();
//   EvalHand board = EvalHand{}.add(c1).add(c2).add(c3).add(c4).add(c5);
//   HandRank r = ev.rank(board.add(h1).add(h2));
//
// Design (our own; the idea of rank-weight sums and suit counters in one key is OMPEval's,
// Henrik Nilsson 2016, the weights, lookup and layout below are not). The contract:
//
//   EvalHand::key (64 bits)
//     bits  0..31  rank sum: sum of kRankWeights[rank] over the cards. The weights were
//                  found by a greedy search so that every multiset of at most 7 ranks (each
//                  rank at most 4 times) has its own sum; the largest, 4 aces + 3 kings, is
//                  kMaxRankSum = 18,393,157 < 2^25, so the field never carries.
//     bits 32..47  one 4-bit counter per suit (suit s at bit 32 + 4 s), started at 3: the
//                  counter's top bit (kFlushCheckMask) is set exactly when that suit has 5
//                  or more cards. With at most 7 cards a flush beats every non-flush hand
//                  those cards make, and only one suit can have 5.
//   EvalHand::suit_ranks: the 13-bit rank mask of suit s at bit 16 s.
//   Adding a card adds kCardKeys[card] to the key and ORs kCardSuitRanks[card] into the
//   masks (two flat 8-byte tables: one load each, scaled-index addressing).
//
//   Non-flush rank = ranks[sum + row_offsets[sum >> 12]] (uint32 arithmetic, wrapping):
//   a row-displacement table (Tarjan and Yao 1979) that packs the 4,491 rows of 4,096
//   possible sums, holding the 73,775 sums of 5..7 cards, into one array without
//   collisions. No hashing: sums of hands that differ in their low cards stay in one row
//   and land close together, so enumeration stays in L1. Tables: 18 KB of offsets, the
//   packed ranks (kRankTableSize), and 16 KB of flush ranks by 13-bit mask; all fit in L2.
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "game/card.h"

namespace hulhe {

using HandRank = std::uint16_t;
inline constexpr int kNumHandRanks = 7462;

enum class HandCategory : std::uint8_t {
  kHighCard,
  kPair,
  kTwoPair,
  kThreeOfAKind,
  kStraight,
  kFlush,
  kFullHouse,
  kFourOfAKind,
  kStraightFlush,
};
inline constexpr int kNumHandCategories = 9;

HandRank evaluate(CardSet cards);
HandCategory category_of(HandRank rank);
const char* category_name(HandCategory c);  // "high card", "pair", ..., "straight flush"

std::int32_t rank_cards_acpc(CardSet cards);
// The category of a rank_cards_acpc value (any deck, any number of cards: Leduc's one card
// and board card make a pair or a high card).
HandCategory category_of_acpc_rank(std::int32_t acpc_rank);

// The best five of 5..7 cards (ascending card ids), e.g. for display.
std::vector<Card> best_five(CardSet cards);

// ---------------------------------------------------------------------------------------
// Fast incremental evaluation.

// Per-rank weights: all sums of <= 7 ranks (<= 4 of a rank) are distinct (greedy search).
inline constexpr std::array<std::uint32_t, kMaxRanks> kRankWeights = {
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520};
inline constexpr std::uint32_t kMaxRankSum = 4 * kRankWeights[12] + 3 * kRankWeights[11];
inline constexpr int kSuitCounterShift = 32;
inline constexpr std::uint64_t kSuitCounterStart = std::uint64_t{0x3333} << kSuitCounterShift;
inline constexpr std::uint64_t kFlushCheckMask = std::uint64_t{0x8888} << kSuitCounterShift;

// What one card adds to EvalHand::key (rank weight + one on its suit's counter) and to
// EvalHand::suit_ranks (its bit).
inline constexpr std::array<std::uint64_t, kMaxCards> kCardKeys = [] {
  std::array<std::uint64_t, kMaxCards> k{};
  for (int c = 0; c < kMaxCards; ++c)
    k[c] = kRankWeights[rank_of(static_cast<Card>(c))] +
           (std::uint64_t{1} << (kSuitCounterShift + 4 * suit_of(static_cast<Card>(c))));
  return k;
}();
inline constexpr std::array<std::uint64_t, kMaxCards> kCardSuitRanks = [] {
  std::array<std::uint64_t, kMaxCards> m{};
  for (int c = 0; c < kMaxCards; ++c)
    m[c] = std::uint64_t{1} << (16 * suit_of(static_cast<Card>(c)) + rank_of(static_cast<Card>(c)));
  return m;
}();

// A set of at most 7 distinct cards being built up. Cards must not repeat.
struct EvalHand {
  std::uint64_t key = kSuitCounterStart;  // rank-weight sum | suit counters
  std::uint64_t suit_ranks = 0;           // 13-bit rank mask of suit s at bit 16 * s

  constexpr EvalHand add(Card c) const {
    return {key + kCardKeys[c], suit_ranks | kCardSuitRanks[c]};
  }
  // Union of two disjoint partial hands (each built from EvalHand{}).
  constexpr EvalHand merge(EvalHand o) const {
    return {key + o.key - kSuitCounterStart, suit_ranks | o.suit_ranks};
  }
  static constexpr EvalHand of(CardSet cards) {
    EvalHand h;
    for (std::uint64_t m = cards.mask(); m != 0; m &= m - 1)
      h = h.add(static_cast<Card>(std::countr_zero(m)));
    return h;
  }
  int size() const { return std::popcount(suit_ranks); }
};

// What one card adds to an EvalHand (key part without the counters' start value); the same
// as kCardKeys / kCardSuitRanks, as pairs.
inline constexpr std::array<EvalHand, kMaxCards> kCardDeltas = [] {
  std::array<EvalHand, kMaxCards> d{};
  for (int c = 0; c < kMaxCards; ++c) d[c] = {kCardKeys[c], kCardSuitRanks[c]};
  return d;
}();

namespace detail {
// The evaluator's tables live in static storage so that hot loops address them directly
// (no pointer loads). Filled once by HandEvaluator's constructor, read-only afterwards.
inline constexpr int kRowShift = 12;  // rows of 4,096 rank sums
inline constexpr int kNumRows = static_cast<int>(kMaxRankSum >> kRowShift) + 1;  // 4,491
// Packed size of the row-displacement table for kRankWeights and kRowShift (first fit,
// fullest rows first); the constructor checks that the packing fits.
inline constexpr int kRankTableSize = 224533;
struct EvalTables {
  alignas(64) std::array<std::uint32_t, kNumRows> row_offsets;                // 18 KB
  alignas(64) std::array<HandRank, kRankTableSize> ranks;                     // 439 KB, by rank sum
  alignas(64) std::array<HandRank, std::size_t{1} << kMaxRanks> flush_ranks;  // 16 KB, by mask
};
extern EvalTables eval_tables;
}  // namespace detail

class HandEvaluator {
 public:
  // The tables, built once on first use (thread-safe).
  static const HandEvaluator& instance();

  // Rank of the best five of a 5..7 card hand.
  HandRank rank(const EvalHand& h) const {
    if (h.key & kFlushCheckMask) [[unlikely]]
      return detail::eval_tables.flush_ranks[(h.suit_ranks >> (16 * flush_suit(h.key))) & 0x1FFF];
    return rank_of_sum(static_cast<std::uint32_t>(h.key));
  }

  // Rank of 5..7 cards given as an array: the incremental path (one EvalHand::add per card,
  // then rank(EvalHand)). Summing only the keys and rebuilding the flush suit's ranks from
  // the cards in the rare flush case was 0.85 times as fast (docs/hand-evaluator.md): the
  // second loop kept the call from being inlined and unrolled, and the OR into suit_ranks
  // is free beside the key's add.
  HandRank rank(const Card* cards, int n) const {
    if (n == 7)  // the common case spelled out: the same code as seven adds at the call site
      return rank(EvalHand{}
                      .add(cards[0])
                      .add(cards[1])
                      .add(cards[2])
                      .add(cards[3])
                      .add(cards[4])
                      .add(cards[5])
                      .add(cards[6]));
    EvalHand h;
    for (int i = 0; i < n; ++i) h = h.add(cards[i]);
    return rank(h);
  }

  // Rank of a set of 5..7 cards.
  HandRank rank(CardSet cards) const {
    std::uint64_t key = kSuitCounterStart;
    for (std::uint64_t m = cards.mask(); m != 0; m &= m - 1) key += kCardKeys[std::countr_zero(m)];
    if (key & kFlushCheckMask) [[unlikely]]
      return detail::eval_tables.flush_ranks[cards.suit_ranks(flush_suit(key))];
    return rank_of_sum(static_cast<std::uint32_t>(key));
  }

  // Rank of the best non-flush five of a rank multiset given by its rank sum (5..7 cards).
  static HandRank rank_of_sum(std::uint32_t sum) {
    using namespace detail;
    return eval_tables.ranks[sum + eval_tables.row_offsets[sum >> kRowShift]];
  }

  static constexpr std::size_t table_bytes() { return sizeof(detail::EvalTables); }

  HandEvaluator(const HandEvaluator&) = delete;
  HandEvaluator& operator=(const HandEvaluator&) = delete;

 private:
  HandEvaluator();
  static int flush_suit(std::uint64_t key) {
    return (std::countr_zero(key & kFlushCheckMask) - kSuitCounterShift - 3) >> 2;
  }
};

}  // namespace hulhe
