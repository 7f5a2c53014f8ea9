#include "game/hand_indexer.h"

#include <algorithm>
#include <bit>
#ifdef __BMI2__
#include <immintrin.h>
#endif
#include <stdexcept>
#include <string>

namespace hulhe {
namespace {

constexpr int kRanks = kMaxRanks;

struct SmallBinomials {  // C(n, k) for n, k <= 13
  std::array<std::array<std::uint32_t, kRanks + 1>, kRanks + 1> c{};
  constexpr SmallBinomials() {
    for (int n = 0; n <= kRanks; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
  }
};
constexpr SmallBinomials kBinom;

// Colex rank of a rank set: sum over its members r_1 < r_2 < ... of C(r_i, i).
struct ColexTable {
  std::array<std::uint16_t, 1U << kRanks> rank{};
  constexpr ColexTable() {
    for (unsigned m = 0; m < (1U << kRanks); ++m) {
      unsigned v = 0;
      int i = 0;
      for (int r = 0; r < kRanks; ++r)
        if ((m >> r) & 1U) v += kBinom.c[r][++i];
      rank[m] = static_cast<std::uint16_t>(v);
    }
  }
};
constexpr ColexTable kColex;

// C(n, k) for k <= 4 (multisets of at most four suits), n possibly large.
constexpr std::uint64_t choose_small_k(std::uint64_t n, int k) {
  switch (k) {
    case 0:
      return 1;
    case 1:
      return n;
    case 2:
      return n < 2 ? 0 : n * (n - 1) / 2;
    case 3:
      return n < 3 ? 0 : n * (n - 1) / 2 * (n - 2) / 3;
    default:
      return n < 4 ? 0 : n * (n - 1) / 2 * (n - 2) / 3 * (n - 3) / 4;
  }
}

// C(n, m) for m <= 4 without branches (m varies from hand to hand in index()); exact because
// each product of j consecutive integers is divisible by j!.
inline std::uint64_t choose_upto4(std::uint64_t n, int m) {
  const std::uint64_t c2 = n * (n - 1) / 2, c3 = c2 * (n - 2) / 3, c4 = c3 * (n - 3) / 4;
  const std::array<std::uint64_t, 5> c = {1, n, c2, c3, c4};
  return c[m];
}

// Removes the bits of `used` from `m` (m and used disjoint), closing the gaps: m's ranks
// renumbered among the ranks not in `used`.
inline unsigned squeeze(unsigned m, unsigned used) {
#ifdef __BMI2__
  return _pext_u32(m, ~used & ((1U << kRanks) - 1));
#else
  while (used != 0) {
    const int b = 31 - std::countl_zero(used);  // highest first keeps lower positions valid
    used ^= 1U << b;
    const unsigned low = (1U << b) - 1;
    m = (m & low) | ((m >> 1) & ~low);
  }
  return m;
#endif
}

// Inverse of squeeze: spreads the bits of m over the positions not in `used`.
inline unsigned spread(unsigned m, unsigned used) {
  unsigned out = 0;
  for (int r = 0, j = 0; r < kRanks && (m >> j) != 0; ++r) {
    if ((used >> r) & 1U) continue;
    if ((m >> j) & 1U) out |= 1U << r;
    ++j;
  }
  return out;
}

// The k-subset of ranks with colex rank `v`.
inline unsigned colex_unrank(std::uint32_t v, int k) {
  unsigned m = 0;
  for (int i = k; i >= 1; --i) {
    int c = i - 1;
    while (c + 1 < kRanks && kBinom.c[c + 1][i] <= v) ++c;
    v -= kBinom.c[c][i];
    m |= 1U << c;
  }
  return m;
}

// Sorting network, descending.
inline void sort4_desc(std::uint64_t* k) {
  auto cx = [&](int a, int b) {  // min/max compile to conditional moves, not branches
    const std::uint64_t hi = std::max(k[a], k[b]), lo = std::min(k[a], k[b]);
    k[a] = hi;
    k[b] = lo;
  };
  cx(0, 1);
  cx(2, 3);
  cx(0, 2);
  cx(1, 3);
  cx(1, 2);
}

constexpr int kIndexBits = 40;  // a suit's index fits in 40 bits; its shape goes above

}  // namespace

HandIndexer::HandIndexer(std::vector<int> cards_per_group)
    : cards_per_group_(std::move(cards_per_group)) {
  num_groups_ = static_cast<int>(cards_per_group_.size());
  if (num_groups_ < 1 || num_groups_ > kMaxGroups)
    throw std::invalid_argument("HandIndexer: 1 to 8 groups of cards");
  for (int n : cards_per_group_) {
    if (n < 1) throw std::invalid_argument("HandIndexer: every group needs a card");
    num_cards_ += n;
  }
  if (num_cards_ > 8) throw std::invalid_argument("HandIndexer: at most 8 cards");

  num_shapes_ = 1;
  for (int g = 0; g < num_groups_; ++g) {
    shape_stride_[g] = num_shapes_;
    num_shapes_ *= cards_per_group_[g] + 1;
  }
  auto count_in = [&](int shape, int g) {
    return shape / shape_stride_[g] % (cards_per_group_[g] + 1);
  };
  shape_size_.assign(num_shapes_, 0);
  for (int s = 0; s < num_shapes_; ++s) {
    std::uint64_t size = 1;
    int avail = kRanks;
    for (int g = 0; g < num_groups_; ++g) {
      const int c = count_in(s, g);
      size *= c <= avail ? kBinom.c[avail][c] : 0;
      avail -= c;
    }
    shape_size_[s] = avail >= 0 ? size : 0;
  }

  // Enumerate configurations: shapes s0 >= s1 >= s2 >= s3 whose counts add up per group.
  const std::uint64_t keys = std::uint64_t(num_shapes_) * num_shapes_ * num_shapes_ * num_shapes_;
  config_of_key_.assign(keys, -1);
  std::array<int, kSuits> s{};
  for (s[0] = 0; s[0] < num_shapes_; ++s[0])
    for (s[1] = 0; s[1] <= s[0]; ++s[1])
      for (s[2] = 0; s[2] <= s[1]; ++s[2])
        for (s[3] = 0; s[3] <= s[2]; ++s[3]) {
          bool ok = true;
          for (int g = 0; g < num_groups_ && ok; ++g) {
            int total = 0;
            for (int x : s) total += count_in(x, g);
            ok = total == cards_per_group_[g];
          }
          for (int x : s) ok = ok && shape_size_[x] > 0;
          if (!ok) continue;
          IndexTerms terms{};
          terms.offset = size_;
          std::uint64_t size = 1;
          for (int i = 0; i < kSuits;) {
            int j = i;
            while (j < kSuits && s[j] == s[i]) ++j;
            for (int t = 0; t < j - i; ++t) {
              terms.radix[i + t] = size;
              terms.extra[i + t] = static_cast<std::uint8_t>(j - i - 1 - t);
              terms.choose[i + t] = static_cast<std::uint8_t>(j - i - t);
            }
            size *= choose_small_k(shape_size_[s[i]] + (j - i) - 1, j - i);
            i = j;
          }
          index_terms_.push_back(terms);
          config_of_key_[((s[0] * num_shapes_ + s[1]) * num_shapes_ + s[2]) * num_shapes_ + s[3]] =
              static_cast<std::int32_t>(config_shapes_.size());
          config_shapes_.push_back(s);
          config_offset_.push_back(size_);
          size_ += size;
        }
}

const HandIndexer& HandIndexer::holdem(int round) {
  switch (round) {
    case 0: {
      static const HandIndexer preflop({2});
      return preflop;
    }
    case 1: {
      static const HandIndexer flop({2, 3});
      return flop;
    }
    case 2: {
      static const HandIndexer turn({2, 4});
      return turn;
    }
    case 3: {
      static const HandIndexer river({2, 5});
      return river;
    }
    default:
      throw std::invalid_argument("HandIndexer::holdem: round " + std::to_string(round));
  }
}

namespace {

// Suit `suit`'s ranks in a group's mask.
unsigned suit_bits(std::uint64_t mask, int suit) {
  return static_cast<unsigned>(mask >> (16 * suit)) & 0x1FFFU;
}

}  // namespace

HandIndexer::GroupMasks HandIndexer::group_masks(const Card* cards, bool last_short) const {
  // A register per group, not an array of suits: no store-to-load forwarding stalls when
  // cards share a suit.
  GroupMasks masks{};
  for (int g = 0, i = 0; g < num_groups_; ++g) {
    std::uint64_t m = 0;
    for (int end = i + cards_per_group_[g] - (last_short && g == num_groups_ - 1 ? 1 : 0); i < end;
         ++i)
      m |= std::uint64_t{1} << (16 * suit_of(cards[i]) + rank_of(cards[i]));
    masks[g] = m;
  }
  return masks;
}

HandIndexer::SuitPrefix HandIndexer::suit_prefix(const GroupMasks& masks, int suit,
                                                 int groups) const {
  SuitPrefix p;
  for (int g = 0; g < groups; ++g) {
    const unsigned m = suit_bits(masks[g], suit);
    const int count = std::popcount(m);
    p.index += p.radix * kColex.rank[squeeze(m, p.used)];
    p.radix *= kBinom.c[kRanks - std::popcount(p.used)][count];
    p.used |= m;
    p.shape += count * shape_stride_[g];
  }
  return p;
}

std::uint64_t HandIndexer::suit_key(const SuitPrefix& prefix, unsigned m) const {
  return (std::uint64_t(prefix.shape + std::popcount(m) * shape_stride_[num_groups_ - 1])
          << kIndexBits) |
         (prefix.index + prefix.radix * kColex.rank[squeeze(m, prefix.used)]);
}

std::uint64_t HandIndexer::index_of_keys(std::array<std::uint64_t, kSuits> keys) const {
  sort4_desc(keys.data());
  std::array<int, kSuits> shapes;
  for (int i = 0; i < kSuits; ++i) shapes[i] = static_cast<int>(keys[i] >> kIndexBits);
  const std::int32_t config =
      config_of_key_[((shapes[0] * num_shapes_ + shapes[1]) * num_shapes_ + shapes[2]) *
                         num_shapes_ +
                     shapes[3]];
  // Multiset rank of each run of equal shapes with indices a_0 >= ... >= a_{k-1}: the colex
  // rank of the strictly decreasing a_t + (k - 1 - t), i.e. sum of C(a_t + k - 1 - t, k - t).
  const IndexTerms& terms = index_terms_[config];
  constexpr std::uint64_t kIndexMask = (std::uint64_t{1} << kIndexBits) - 1;
  std::uint64_t result = terms.offset;
  for (int i = 0; i < kSuits; ++i)
    result +=
        terms.radix[i] * choose_upto4((keys[i] & kIndexMask) + terms.extra[i], terms.choose[i]);
  return result;
}

std::uint64_t HandIndexer::index(const Card* cards) const {
  const GroupMasks masks = group_masks(cards, false);
  const int last = num_groups_ - 1;
  std::array<std::uint64_t, kSuits> suit_keys;
  for (int suit = 0; suit < kSuits; ++suit)
    suit_keys[suit] = suit_key(suit_prefix(masks, suit, last), suit_bits(masks[last], suit));
  return index_of_keys(suit_keys);
}

void HandIndexer::index_each_last_card(const Card* cards, std::uint64_t* out) const {
  // index()'s per-suit keys with the last group one card short, and what a card of that
  // suit added to the last group makes of its key; then per card the same sort and sum.
  const int last = num_groups_ - 1;
  const GroupMasks masks = group_masks(cards, true);
  std::array<std::uint64_t, kSuits> base_keys;
  std::array<SuitPrefix, kSuits> prefix;
  std::array<unsigned, kSuits> last_mask, all_used;
  for (int suit = 0; suit < kSuits; ++suit) {
    prefix[suit] = suit_prefix(masks, suit, last);
    last_mask[suit] = suit_bits(masks[last], suit);
    all_used[suit] = prefix[suit].used | last_mask[suit];
    base_keys[suit] = suit_key(prefix[suit], last_mask[suit]);
  }
  for (int suit = 0; suit < kSuits; ++suit) {
    for (int rank = 0; rank < kRanks; ++rank) {
      const unsigned bit = 1U << rank;
      if (all_used[suit] & bit) continue;
      std::array<std::uint64_t, kSuits> keys = base_keys;
      keys[suit] = suit_key(prefix[suit], last_mask[suit] | bit);
      out[make_card(rank, suit)] = index_of_keys(keys);
    }
  }
}

void HandIndexer::unindex(std::uint64_t index, Card* cards) const {
  if (index >= size_) throw std::out_of_range("HandIndexer::unindex: index out of range");
  const auto config = static_cast<std::size_t>(
      std::upper_bound(config_offset_.begin(), config_offset_.end(), index) -
      config_offset_.begin() - 1);
  const std::array<int, kSuits>& shapes = config_shapes_[config];
  std::uint64_t rem = index - config_offset_[config];

  std::array<std::uint64_t, kSuits> suit_index{};
  for (int i = 0; i < kSuits;) {
    int j = i + 1;
    while (j < kSuits && shapes[j] == shapes[i]) ++j;
    const int k = j - i;
    const std::uint64_t n = shape_size_[shapes[i]];
    const std::uint64_t run_size = choose_small_k(n + k - 1, k);
    std::uint64_t local = rem % run_size;
    rem /= run_size;
    for (int t = 0; t < k; ++t) {                    // largest b with C(b, k - t) <= local
      std::uint64_t lo = k - t - 1, hi = n + k - 1;  // C(lo) <= local < C(hi)
      while (hi - lo > 1) {
        const std::uint64_t mid = (lo + hi) / 2;
        (choose_small_k(mid, k - t) <= local ? lo : hi) = mid;
      }
      local -= choose_small_k(lo, k - t);
      suit_index[i + t] = lo - (k - 1 - t);
    }
    i = j;
  }

  // Suit i takes the i-th shape; write each group's cards, then sort them.
  std::array<int, kMaxGroups + 1> start{};
  for (int g = 0; g < num_groups_; ++g) start[g + 1] = start[g] + cards_per_group_[g];
  std::array<int, kMaxGroups> filled{};
  for (int suit = 0; suit < kSuits; ++suit) {
    std::uint64_t idx = suit_index[suit];
    unsigned used = 0;
    for (int g = 0; g < num_groups_; ++g) {
      const int count = shapes[suit] / shape_stride_[g] % (cards_per_group_[g] + 1);
      const std::uint32_t size = kBinom.c[kRanks - std::popcount(used)][count];
      const unsigned m = spread(colex_unrank(static_cast<std::uint32_t>(idx % size), count), used);
      idx /= size;
      used |= m;
      for (unsigned b = m; b != 0; b &= b - 1)
        cards[start[g] + filled[g]++] = make_card(std::countr_zero(b), suit);
    }
  }
  for (int g = 0; g < num_groups_; ++g) std::sort(cards + start[g], cards + start[g + 1]);
}

}  // namespace hulhe
