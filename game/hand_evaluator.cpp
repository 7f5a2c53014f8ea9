#include "game/hand_evaluator.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <utility>

namespace hulhe {
namespace {

// ---------------------------------------------------------------------------------------
// Rule-based ranking of a rank multiset (plus the ranks of a flush suit, if any). It is the
// reference from which the fast tables are built and what rank_cards_acpc returns. The value
// packs the category (bits 20..23) and up to five tie-break ranks, most important first, as
// rank + 1 in 4-bit fields (0 = no such card): comparing values compares hands, and hands
// with fewer cards simply have fewer tie-breakers, as in the ACPC dealer's rankCardset.

int top_rank(unsigned ranks) {
  return 31 - std::countl_zero(ranks);
}

// Highest card of the best straight in a 13-bit rank mask, or -1; the wheel A-2-3-4-5 is 5-high.
int straight_top(unsigned ranks) {
  for (int top = kMaxRanks - 1; top >= 4; --top) {
    const unsigned run = 0x1FU << (top - 4);
    if ((ranks & run) == run) return top;
  }
  constexpr unsigned kWheel = (1U << 12) | 0xFU;
  return (ranks & kWheel) == kWheel ? 3 : -1;
}

class Value {
 public:
  explicit Value(HandCategory c) : value_(static_cast<std::uint32_t>(c) << 20) {}
  Value& rank(int r) {
    value_ |= static_cast<std::uint32_t>(r + 1) << shift_;
    shift_ -= 4;
    return *this;
  }
  Value& top(unsigned ranks, int n) {  // the n highest ranks of the mask
    for (; n > 0 && ranks != 0; --n) {
      const int r = top_rank(ranks);
      rank(r);
      ranks &= ~(1U << r);
    }
    return *this;
  }
  std::uint32_t get() const { return value_; }

 private:
  std::uint32_t value_;
  int shift_ = 16;
};

std::uint32_t rule_value(const std::array<int, kMaxRanks>& counts, unsigned flush_ranks) {
  unsigned present = 0, pairs = 0, trips = 0, quads = 0;
  for (int r = 0; r < kMaxRanks; ++r) {
    if (counts[r] >= 1) present |= 1U << r;
    if (counts[r] >= 2) pairs |= 1U << r;
    if (counts[r] >= 3) trips |= 1U << r;
    if (counts[r] >= 4) quads |= 1U << r;
  }
  const bool flush = std::popcount(flush_ranks) >= 5;
  if (flush) {
    if (int top = straight_top(flush_ranks); top >= 0)
      return Value(HandCategory::kStraightFlush).rank(top).get();
  }
  if (quads != 0) {
    const int q = top_rank(quads);
    return Value(HandCategory::kFourOfAKind).rank(q).top(present & ~(1U << q), 1).get();
  }
  if (trips != 0) {
    const int t = top_rank(trips);
    if (const unsigned rest = pairs & ~(1U << t); rest != 0)
      return Value(HandCategory::kFullHouse).rank(t).rank(top_rank(rest)).get();
  }
  if (flush) return Value(HandCategory::kFlush).top(flush_ranks, 5).get();
  if (int top = straight_top(present); top >= 0)
    return Value(HandCategory::kStraight).rank(top).get();
  if (trips != 0) {
    const int t = top_rank(trips);
    return Value(HandCategory::kThreeOfAKind).rank(t).top(present & ~(1U << t), 2).get();
  }
  if (pairs != 0) {
    const int p1 = top_rank(pairs);
    if (const unsigned rest = pairs & ~(1U << p1); rest != 0) {
      const int p2 = top_rank(rest);
      return Value(HandCategory::kTwoPair)
          .rank(p1)
          .rank(p2)
          .top(present & ~(1U << p1) & ~(1U << p2), 1)
          .get();
    }
    return Value(HandCategory::kPair).rank(p1).top(present & ~(1U << p1), 3).get();
  }
  return Value(HandCategory::kHighCard).top(present, 5).get();
}

std::uint32_t rule_value(CardSet cards) {
  std::array<int, kMaxRanks> counts{};
  std::array<unsigned, kMaxSuits> suits{};
  for (Card c : cards.cards()) {
    ++counts[rank_of(c)];
    suits[suit_of(c)] |= 1U << rank_of(c);
  }
  std::uint32_t best = rule_value(counts, 0);
  for (unsigned s : suits)  // more than one flush suit needs 10+ cards; take the best
    if (std::popcount(s) >= 5) best = std::max(best, rule_value(counts, s));
  return best;
}

// Calls f(counts) for every rank multiset of exactly n cards with at most 4 of a rank.
template <typename F>
void for_each_rank_multiset(int n, F&& f) {
  std::array<int, kMaxRanks> counts{};
  auto rec = [&](auto&& self, int rank, int left) -> void {
    if (rank == kMaxRanks) {
      if (left == 0) f(counts);
      return;
    }
    for (int k = 0; k <= std::min(4, left); ++k) {
      counts[rank] = k;
      self(self, rank + 1, left - k);
    }
    counts[rank] = 0;
  };
  rec(rec, 0, n);
}

// The 7,462 values of 5-card hands, ascending: HandRank = position + 1.
std::vector<std::uint32_t> five_card_values() {
  std::vector<std::uint32_t> values;
  for_each_rank_multiset(5, [&](const std::array<int, kMaxRanks>& counts) {
    values.push_back(rule_value(counts, 0));
  });
  for (unsigned m = 0; m < (1U << kMaxRanks); ++m) {
    if (std::popcount(m) != 5) continue;
    std::array<int, kMaxRanks> counts{};
    for (int r = 0; r < kMaxRanks; ++r) counts[r] = (m >> r) & 1U;
    values.push_back(rule_value(counts, m));
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() != static_cast<std::size_t>(kNumHandRanks))
    throw std::logic_error("hand evaluator: wrong number of 5-card classes");
  return values;
}

HandRank to_hand_rank(const std::vector<std::uint32_t>& values, std::uint32_t v) {
  return static_cast<HandRank>(std::lower_bound(values.begin(), values.end(), v) - values.begin() +
                               1);
}

// First rank of each category (HandRank ascending); the class counts are 1277 high card,
// 2860 pair, 858 two pair, 858 trips, 10 straights, 1277 flushes, 156 full houses,
// 156 quads, 10 straight flushes.
constexpr std::array<int, kNumHandCategories + 1> kCategoryStart = {1,    1278, 4138, 4996, 5854,
                                                                    5864, 7141, 7297, 7453, 7463};

}  // namespace

detail::EvalTables detail::eval_tables;

HandEvaluator::HandEvaluator() {
  const std::vector<std::uint32_t> values = five_card_values();

  // Flush table: any 5..7 ranks of one suit.
  using namespace detail;
  EvalTables& t = eval_tables;
  t.flush_ranks.fill(0);
  for (unsigned m = 0; m < (1U << kMaxRanks); ++m) {
    if (std::popcount(m) < 5 || std::popcount(m) > 7) continue;
    std::array<int, kMaxRanks> counts{};
    for (int r = 0; r < kMaxRanks; ++r) counts[r] = (m >> r) & 1U;
    t.flush_ranks[m] = to_hand_rank(values, rule_value(counts, m));
  }

  // Non-flush hands of 5..7 cards keyed by their rank-weight sum.
  std::vector<std::pair<std::uint32_t, HandRank>> entries;
  for (int n = 5; n <= 7; ++n) {
    for_each_rank_multiset(n, [&](const std::array<int, kMaxRanks>& counts) {
      std::uint32_t sum = 0;
      for (int r = 0; r < kMaxRanks; ++r) sum += counts[r] * kRankWeights[r];
      entries.emplace_back(sum, to_hand_rank(values, rule_value(counts, 0)));
    });
  }
  // Row displacement (Tarjan and Yao 1979): row = sum >> kRowShift, column = the low bits.
  // Rows are placed fullest first, each at the lowest position where all its columns land
  // on free slots; row_offsets[row] = position - row start (mod 2^32), so that
  // sum + row_offsets[row] is the slot. Free positions are searched 64 at a time on a bitmap.
  constexpr std::uint32_t kColumnMask = (1U << kRowShift) - 1;
  std::vector<std::vector<std::uint32_t>> rows(kNumRows);
  std::vector<std::vector<HandRank>> row_ranks(kNumRows);
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0 && entries[i].first == entries[i - 1].first)
      throw std::logic_error("hand evaluator: two rank multisets share a rank sum");
    rows[entries[i].first >> kRowShift].push_back(entries[i].first & kColumnMask);
    row_ranks[entries[i].first >> kRowShift].push_back(entries[i].second);
  }
  std::vector<std::uint32_t> order(kNumRows);
  for (std::uint32_t r = 0; r < order.size(); ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
    return rows[x].size() > rows[y].size();
  });
  // Bits past the table's end read as used, so no row is placed beyond it.
  constexpr std::size_t kWords = (kRankTableSize + kColumnMask + 1) / 64 + 2;
  std::vector<std::uint64_t> used(kWords, 0);
  for (std::size_t p = kRankTableSize; p < kWords * 64; ++p)
    used[p >> 6] |= std::uint64_t{1} << (p & 63);
  auto window = [&](std::size_t p) {  // used bits p .. p + 63
    const std::size_t w = p >> 6, b = p & 63;
    return b == 0 ? used[w] : (used[w] >> b) | (used[w + 1] << (64 - b));
  };
  t.row_offsets.fill(0);
  t.ranks.fill(0);
  for (std::uint32_t r : order) {
    const std::vector<std::uint32_t>& columns = rows[r];
    if (columns.empty()) break;
    std::size_t position = 0;
    for (std::size_t base = 0;; base += 64) {
      if (base + columns.back() >= kRankTableSize)
        throw std::logic_error("hand evaluator: row-displacement table overflows");
      std::uint64_t busy = 0;
      for (std::uint32_t c : columns)
        if ((busy |= window(base + c)) == ~std::uint64_t{0}) break;
      if (busy != ~std::uint64_t{0}) {
        position = base + static_cast<std::size_t>(std::countr_one(busy));
        break;
      }
    }
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const std::size_t slot = position + columns[k];
      used[slot >> 6] |= std::uint64_t{1} << (slot & 63);
      t.ranks[slot] = row_ranks[r][k];
    }
    t.row_offsets[r] = static_cast<std::uint32_t>(position) - (r << kRowShift);
  }
}

const HandEvaluator& HandEvaluator::instance() {
  static const HandEvaluator evaluator;
  return evaluator;
}

HandRank evaluate(CardSet cards) {
  const int n = cards.size();
  if (n < 5 || n > 7)
    throw std::invalid_argument("evaluate: needs 5 to 7 cards, got " + cards.to_string());
  return HandEvaluator::instance().rank(cards);
}

HandCategory category_of(HandRank rank) {
  int c = 0;
  while (c + 1 < kNumHandCategories && rank >= kCategoryStart[c + 1]) ++c;
  return static_cast<HandCategory>(c);
}

const char* category_name(HandCategory c) {
  static constexpr const char* kNames[kNumHandCategories] = {
      "high card", "pair",       "two pair",       "three of a kind", "straight",
      "flush",     "full house", "four of a kind", "straight flush"};
  return kNames[static_cast<int>(c)];
}

std::int32_t rank_cards_acpc(CardSet cards) {
  return static_cast<std::int32_t>(rule_value(cards));
}

HandCategory category_of_acpc_rank(std::int32_t acpc_rank) {
  // Value packs the category in bits 20..23 (see Value above).
  return static_cast<HandCategory>((static_cast<std::uint32_t>(acpc_rank) >> 20) & 0xFU);
}

std::vector<Card> best_five(CardSet cards) {
  const std::vector<Card> all = cards.cards();
  if (all.size() < 5 || all.size() > 7)
    throw std::invalid_argument("best_five: needs 5 to 7 cards, got " + cards.to_string());
  const int n = static_cast<int>(all.size());
  std::vector<Card> best;
  HandRank best_rank = 0;
  for (unsigned m = 0; m < (1U << n); ++m) {  // every 5-card subset
    if (std::popcount(m) != 5) continue;
    CardSet five;
    for (int i = 0; i < n; ++i)
      if ((m >> i) & 1U) five.insert(all[i]);
    if (const HandRank r = evaluate(five); r > best_rank) {
      best_rank = r;
      best = five.cards();
    }
  }
  return best;
}

}  // namespace hulhe
