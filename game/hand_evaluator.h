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
// Design (our own, in the spirit of OMPEval): a hand is a 64-bit key plus the per-suit rank
// masks. The key's low 32 bits sum a per-rank weight (kRankWeights); the weights were found
// by a greedy search so that every multiset of at most 7 ranks (each rank at most 4 times)
// has a distinct sum (< 2^25). That sum is mapped to the rank of the best non-flush five by a
// "hash, displace" perfect hash (Belazzougui, Botelho & Dietzfelbinger 2009): one multiply
// picks a bucket and a slot, the bucket's displacement is XORed into the slot (2 loads;
// 288 KB of tables, of which the 16 KB of displacements stay in L1). Bits 32.. of the key
// hold one 4-bit counter per suit started at 3, so a counter's top bit is set exactly when
// that suit has >= 5 cards: then the flush suit's 13-bit rank mask indexes an 8192-entry
// flush table instead (with at most 7 cards a flush beats every non-flush hand those cards
// can make).
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

// The best five of 5..7 cards (ascending card ids), e.g. for display.
std::vector<Card> best_five(CardSet cards);

// ---------------------------------------------------------------------------------------
// Fast incremental evaluation.

// Per-rank weights: all sums of <= 7 ranks (<= 4 of a rank) are distinct (greedy search).
inline constexpr std::array<std::uint32_t, kMaxRanks> kRankWeights = {
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520};
inline constexpr int kSuitCounterShift = 32;
inline constexpr std::uint64_t kSuitCounterStart = std::uint64_t{0x3333} << kSuitCounterShift;
inline constexpr std::uint64_t kFlushCheckMask = std::uint64_t{0x8888} << kSuitCounterShift;

// A set of at most 7 distinct cards being built up. Cards must not repeat.
struct EvalHand {
  std::uint64_t key = kSuitCounterStart;  // rank-weight sum | suit counters
  std::uint64_t suit_ranks = 0;           // 13-bit rank mask of suit s at bit 16 * s

  constexpr EvalHand add(Card c) const;
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

// What one card adds to an EvalHand (key part without the counters' start value).
inline constexpr std::array<EvalHand, kMaxCards> kCardDeltas = [] {
  std::array<EvalHand, kMaxCards> d{};
  for (int c = 0; c < kMaxCards; ++c)
    d[c] = {
        kRankWeights[rank_of(static_cast<Card>(c))] +
            (std::uint64_t{1} << (kSuitCounterShift + 4 * suit_of(static_cast<Card>(c)))),
        std::uint64_t{1} << (16 * suit_of(static_cast<Card>(c)) + rank_of(static_cast<Card>(c)))};
  return d;
}();

constexpr EvalHand EvalHand::add(Card c) const {
  return {key + kCardDeltas[c].key, suit_ranks | kCardDeltas[c].suit_ranks};
}

namespace detail {
// The evaluator's tables live in static storage so that hot loops address them directly
// (no pointer loads). Filled once by HandEvaluator's constructor, read-only afterwards.
inline constexpr int kBucketBits = 14;  // hash-and-displace buckets
inline constexpr int kSlotBits = 17;    // 2^17 slots for 73,775 rank-weight sums
inline constexpr int kSlotShift = 20;
inline constexpr std::uint32_t kSlotMask = (1U << kSlotBits) - 1;
// Odd multiplier whose buckets have no two sums on the same slot bits (checked at build).
inline constexpr std::uint64_t kHashMultiplier = 0x9E3779B97F4A7C15;  // 2^64 / golden ratio
struct EvalTables {
  alignas(64) std::array<std::uint8_t, std::size_t{1} << kBucketBits> displacements;  // 16 KB
  alignas(64) std::array<HandRank, std::size_t{1} << kSlotBits> slot_ranks;
  alignas(64) std::array<HandRank, std::size_t{1} << kMaxRanks> flush_ranks;  // by rank mask
};
extern EvalTables eval_tables;
}  // namespace detail

class HandEvaluator {
 public:
  // The tables, built once on first use (thread-safe); ~20 ms.
  static const HandEvaluator& instance();

  // Rank of the best five of a 5..7 card hand.
  HandRank rank(const EvalHand& h) const {
    if (h.key & kFlushCheckMask) [[unlikely]]
      return detail::eval_tables.flush_ranks[(h.suit_ranks >> (16 * flush_suit(h.key))) & 0x1FFF];
    return hashed_rank(static_cast<std::uint32_t>(h.key));
  }

  // Rank of 5..7 cards given as an array: sums only the keys and rebuilds the flush suit's
  // ranks in the rare flush case (faster than building an EvalHand for one-off hands).
  HandRank rank(const Card* cards, int n) const {
    std::uint64_t key = kSuitCounterStart;
    for (int i = 0; i < n; ++i) key += kCardDeltas[cards[i]].key;
    if (key & kFlushCheckMask) [[unlikely]] {
      const int suit = flush_suit(key);
      unsigned ranks = 0;
      for (int i = 0; i < n; ++i)
        if (suit_of(cards[i]) == suit) ranks |= 1U << rank_of(cards[i]);
      return detail::eval_tables.flush_ranks[ranks];
    }
    return hashed_rank(static_cast<std::uint32_t>(key));
  }

  // Rank of a set of 5..7 cards.
  HandRank rank(CardSet cards) const {
    std::uint64_t key = kSuitCounterStart;
    for (std::uint64_t m = cards.mask(); m != 0; m &= m - 1)
      key += kCardDeltas[std::countr_zero(m)].key;
    if (key & kFlushCheckMask) [[unlikely]]
      return detail::eval_tables.flush_ranks[cards.suit_ranks(flush_suit(key))];
    return hashed_rank(static_cast<std::uint32_t>(key));
  }

  static constexpr std::size_t table_bytes() { return sizeof(detail::EvalTables); }

  HandEvaluator(const HandEvaluator&) = delete;
  HandEvaluator& operator=(const HandEvaluator&) = delete;

 private:
  HandEvaluator();
  static int flush_suit(std::uint64_t key) {
    return (std::countr_zero(key & kFlushCheckMask) - kSuitCounterShift - 3) >> 2;
  }
  static HandRank hashed_rank(std::uint32_t sum) {
    using namespace detail;
    const std::uint64_t h = sum * kHashMultiplier;
    const auto bucket = static_cast<std::uint32_t>(h >> (64 - kBucketBits));
    const auto slot =
        (static_cast<std::uint32_t>(h >> kSlotShift) ^ eval_tables.displacements[bucket]) &
        kSlotMask;
    return eval_tables.slot_ranks[slot];
  }
};

}  // namespace hulhe
