#include "abstraction/features/river_strength.h"

#include <omp.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "abstraction/features/hand_features.h"
#include "abstraction/features/hand_strength.h"
#include "game/hand_indexer.h"

namespace hulhe {

const std::array<HolePair, kNumHolePairs>& hole_pairs() {
  static const std::array<HolePair, kNumHolePairs> pairs = [] {
    std::array<HolePair, kNumHolePairs> p{};
    for (int hi = 1; hi < kMaxCards; ++hi)
      for (int lo = 0; lo < hi; ++lo)
        p[hole_pair_index(static_cast<Card>(lo), static_cast<Card>(hi))] = {static_cast<Card>(lo),
                                                                            static_cast<Card>(hi)};
    return p;
  }();
  return pairs;
}

namespace {

// The 24 permutations of the four suits.
std::array<std::array<int, 4>, 24> suit_permutations() {
  std::array<std::array<int, 4>, 24> perms{};
  std::array<int, 4> p = {0, 1, 2, 3};
  int n = 0;
  do perms[n++] = p;
  while (std::next_permutation(p.begin(), p.end()));
  return perms;
}

std::uint64_t permuted_mask(std::uint64_t mask, const std::array<int, 4>& perm) {
  std::uint64_t out = 0;
  while (mask != 0) {
    const int c = std::countr_zero(mask);
    mask &= mask - 1;
    out |= std::uint64_t{1} << make_card(rank_of(static_cast<Card>(c)), perm[c % 4]);
  }
  return out;
}

}  // namespace

std::vector<std::array<Card, 5>> canonical_boards(int num_cards) {
  if (num_cards < 3 || num_cards > 5)
    throw std::invalid_argument("canonical_boards: num_cards must be 3, 4 or 5, got " +
                                std::to_string(num_cards));
  const auto perms = suit_permutations();
  std::vector<std::array<Card, 5>> boards;
  std::array<int, 5> c{};
  // Plain enumeration of all C(52, n) boards (at most 2.6M); a board is its class's
  // representative when no suit permutation gives a smaller mask.
  auto visit = [&](int n) {
    std::uint64_t mask = 0;
    for (int i = 0; i < n; ++i) mask |= std::uint64_t{1} << c[i];
    for (const auto& perm : perms)
      if (permuted_mask(mask, perm) < mask) return;
    std::array<Card, 5> b{};
    for (int i = 0; i < n; ++i) b[i] = static_cast<Card>(c[i]);
    boards.push_back(b);
  };
  for (c[0] = 0; c[0] < kMaxCards; ++c[0])
    for (c[1] = c[0] + 1; c[1] < kMaxCards; ++c[1])
      for (c[2] = c[1] + 1; c[2] < kMaxCards; ++c[2]) {
        if (num_cards == 3) {
          visit(3);
          continue;
        }
        for (c[3] = c[2] + 1; c[3] < kMaxCards; ++c[3]) {
          if (num_cards == 4) {
            visit(4);
            continue;
          }
          for (c[4] = c[3] + 1; c[4] < kMaxCards; ++c[4]) visit(5);
        }
      }
  return boards;
}

RiverBoardSweep::RiverBoardSweep(std::vector<std::uint8_t> pair_cluster, int clusters)
    : pair_cluster_(std::move(pair_cluster)), clusters_(clusters) {
  if (clusters_ < 1 || clusters_ > 255)
    throw std::invalid_argument("RiverBoardSweep: clusters must be in 1..255");
  if (pair_cluster_.size() != kNumHolePairs)
    throw std::invalid_argument("RiverBoardSweep: need one cluster per hole pair (1326)");
  for (auto k : pair_cluster_)
    if (k >= clusters_) throw std::invalid_argument("RiverBoardSweep: cluster out of range");
  live_.reserve(kNumHolePairs);
  sorted_.reserve(kNumHolePairs);
  unsorted_.reserve(kNumHolePairs);
  const std::size_t per_card = static_cast<std::size_t>(kMaxCards) * clusters_;
  total_card_.assign(per_card, 0);
  weaker_card_.assign(per_card, 0);
  group_card_.assign(per_card, 0);
  total_.assign(clusters_, 0);
  weaker_.assign(clusters_, 0);
  group_.assign(clusters_, 0);
}

RiverBoardSweep::RiverBoardSweep()
    : RiverBoardSweep(std::vector<std::uint8_t>(kNumHolePairs, 0), 1) {}

void RiverBoardSweep::run(const Card* board, float* out) {
  const int k_count = clusters_;
  const auto& pairs = hole_pairs();
  const HandEvaluator& evaluator = HandEvaluator::instance();
  CardSet board_set;
  EvalHand board_hand;
  for (int i = 0; i < 5; ++i) {
    board_set.insert(board[i]);
    board_hand = board_hand.add(board[i]);
  }

  std::fill(total_card_.begin(), total_card_.end(), 0);
  std::fill(weaker_card_.begin(), weaker_card_.end(), 0);
  std::fill(total_.begin(), total_.end(), 0);
  std::fill(weaker_.begin(), weaker_.end(), 0);
  live_.clear();
  unsorted_.clear();
  for (int p = 0; p < kNumHolePairs; ++p) {
    const HolePair hp = pairs[p];
    if (board_set.contains(hp.low) || board_set.contains(hp.high)) continue;
    live_.push_back(static_cast<std::int16_t>(p));
    const HandRank rank = evaluator.rank(board_hand.add(hp.low).add(hp.high));
    unsorted_.push_back(static_cast<std::uint32_t>(rank) << 11 | static_cast<unsigned>(p));
    const int k = pair_cluster_[p];
    ++total_[k];
    ++total_card_[hp.low * k_count + k];
    ++total_card_[hp.high * k_count + k];
  }
  sort_by_rank();
  if (k_count == 1) {
    sweep<true>(out);
  } else {
    sweep<false>(out);
  }
}

// LSD radix sort of the packed (rank << 11 | pair) keys on the 13 rank bits, 7 then 6 bits:
// two linear passes instead of a comparison sort (ranks < 8192).
void RiverBoardSweep::sort_by_rank() {
  const std::size_t n = unsorted_.size();
  sorted_.resize(n);
  std::array<std::uint32_t, 129> low{};
  std::array<std::uint32_t, 65> high{};
  for (const std::uint32_t key : unsorted_) {
    ++low[((key >> 11) & 0x7F) + 1];
    ++high[(key >> 18) + 1];
  }
  for (int b = 0; b < 128; ++b) low[b + 1] += low[b];
  for (int b = 0; b < 64; ++b) high[b + 1] += high[b];
  for (const std::uint32_t key : unsorted_) sorted_[low[(key >> 11) & 0x7F]++] = key;
  for (std::size_t i = 0; i < n; ++i) unsorted_[high[sorted_[i] >> 18]++] = sorted_[i];
  sorted_.swap(unsorted_);
}

// The upward sweep over rank groups. kPlain: one cluster holding every pair, where every
// hand has C(45, 2) = 990 opponents and the loop over clusters disappears.
template <bool kPlain>
void RiverBoardSweep::sweep(float* out) {
  const auto& pairs = hole_pairs();
  const int k_count = kPlain ? 1 : clusters_;
  const std::size_t n = sorted_.size();
  for (std::size_t begin = 0; begin < n;) {
    const std::uint32_t rank = sorted_[begin] >> 11;
    std::size_t end = begin + 1;
    while (end < n && (sorted_[end] >> 11) == rank) ++end;
    // Members of [begin, end) tie with each other and beat everything counted in weaker_.
    for (std::size_t i = begin; i < end; ++i) {
      const int p = static_cast<int>(sorted_[i] & 0x7FF);
      const int k = kPlain ? 0 : pair_cluster_[p];
      ++group_[k];
      ++group_card_[pairs[p].low * k_count + k];
      ++group_card_[pairs[p].high * k_count + k];
    }
    for (std::size_t i = begin; i < end; ++i) {
      const int p = static_cast<int>(sorted_[i] & 0x7FF);
      const int lo = pairs[p].low * k_count;
      const int hi = pairs[p].high * k_count;
      // Inclusion-exclusion: opponents sharing a card with p are subtracted per card; the
      // only pair holding both of p's cards is p itself, subtracted twice, added back once
      // (which also drops p from its own tie group).
      if constexpr (kPlain) {
        const int wins = weaker_[0] - weaker_card_[lo] - weaker_card_[hi];
        const int ties = group_[0] - group_card_[lo] - group_card_[hi] + 1;
        out[p] = (static_cast<float>(wins) + 0.5F * static_cast<float>(ties)) / 990.0F;
      } else {
        const int own = pair_cluster_[p];
        float* dst = out + static_cast<std::size_t>(p) * k_count;
        for (int k = 0; k < k_count; ++k) {
          const int self = own == k ? 1 : 0;
          const int opponents = total_[k] - total_card_[lo + k] - total_card_[hi + k] + self;
          const int wins = weaker_[k] - weaker_card_[lo + k] - weaker_card_[hi + k];
          const int ties = group_[k] - group_card_[lo + k] - group_card_[hi + k] + self;
          dst[k] = opponents > 0 ? (static_cast<float>(wins) + 0.5F * static_cast<float>(ties)) /
                                       static_cast<float>(opponents)
                                 : 0.0F;
        }
      }
    }
    for (std::size_t i = begin; i < end; ++i) {
      const int p = static_cast<int>(sorted_[i] & 0x7FF);
      const int k = kPlain ? 0 : pair_cluster_[p];
      const int lo = pairs[p].low * k_count + k;
      const int hi = pairs[p].high * k_count + k;
      --group_[k];
      --group_card_[lo];
      --group_card_[hi];
      ++weaker_[k];
      ++weaker_card_[lo];
      ++weaker_card_[hi];
    }
    begin = end;
  }
}

FeatureMatrix preflop_strength_histograms(int bins, int threads) {
  if (bins < 1) throw std::invalid_argument("preflop_strength_histograms: bins must be positive");
  const HandIndexer& preflop = HandIndexer::holdem(0);
  const auto boards = canonical_boards(5);
  const auto perms = suit_permutations();
  const auto& pairs = hole_pairs();
  const int hands = static_cast<int>(preflop.size());
  std::vector<int> pair_hand(kNumHolePairs), combos(hands, 0);
  for (int p = 0; p < kNumHolePairs; ++p) {
    const Card hole[2] = {pairs[p].low, pairs[p].high};
    pair_hand[p] = static_cast<int>(preflop.index(hole));
    ++combos[pair_hand[p]];
  }
  // counts[h * bins + b]: over every (combo of h, board) pair, how many land in bin b. A
  // board class of size w contributes w times its representative: relabelling suits maps the
  // combos of h onto themselves, so each board of the class yields the same multiset of bins.
  const std::size_t cells = static_cast<std::size_t>(hands) * bins;
  std::vector<std::int64_t> counts(cells, 0);
  const int num_boards = static_cast<int>(boards.size());
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    RiverBoardSweep sweep;
    std::vector<float> board_hs(kNumHolePairs);
    std::vector<std::int64_t> local(cells, 0);
#pragma omp for schedule(dynamic, 64)
    for (int b = 0; b < num_boards; ++b) {
      const auto& board = boards[b];
      std::uint64_t mask = 0;
      for (int i = 0; i < 5; ++i) mask |= std::uint64_t{1} << board[i];
      // Class size = 24 / |stabiliser|.
      int fixed = 0;
      for (const auto& perm : perms) fixed += permuted_mask(mask, perm) == mask ? 1 : 0;
      const std::int64_t weight = 24 / fixed;
      sweep.run(board.data(), board_hs.data());
      for (const std::int16_t p : sweep.live_pairs())
        local[static_cast<std::size_t>(pair_hand[p]) * bins + strength_bin(board_hs[p], bins)] +=
            weight;
    }
#pragma omp critical
    for (std::size_t i = 0; i < cells; ++i) counts[i] += local[i];
  }
  // Per combo: the class total divided by the class's combos, scaled as strength_histogram
  // scales its float counts (C(50, 5) boards per hand).
  constexpr std::int64_t kBoards = 2118760;
  const float scale = 1.0F / static_cast<float>(kBoards);
  FeatureMatrix m;
  m.rows = hands;
  m.cols = bins;
  m.data.resize(cells);
  for (int h = 0; h < hands; ++h)
    for (int b = 0; b < bins; ++b) {
      const std::size_t cell = static_cast<std::size_t>(h) * bins + b;
      m.data[cell] = static_cast<float>(counts[cell] / combos[h]) * scale;
    }
  return m;
}

std::vector<float> river_hand_strength(int threads) {
  std::vector<float> hs(HandIndexer::holdem(3).size());
  sweep_canonical_river_boards(
      RiverBoardSweep(), threads,
      [&hs](int, std::uint64_t index, const float* value) { hs[index] = *value; }, [](int) {});
  return hs;
}

}  // namespace hulhe
