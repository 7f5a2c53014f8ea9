#include "game/equity/equity_tables.h"

#include <array>
#include <bit>
#include <mutex>
#include <vector>

namespace hulhe::equity {
namespace {

struct BinomialTable {
  std::array<std::array<std::int64_t, 53>, 53> c{};
  BinomialTable() {
    for (int n = 0; n <= 52; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
  }
};
const BinomialTable kBinomial;

// All board rank multisets, in the order of their index.
std::vector<std::array<int, 5>> all_board_ranks() {
  std::vector<std::array<int, 5>> boards(kNumBoardRankMultisets);
  for (int a = 0; a < kMaxRanks; ++a)
    for (int b = a; b < kMaxRanks; ++b)
      for (int c = b; c < kMaxRanks; ++c)
        for (int d = c; d < kMaxRanks; ++d)
          for (int e = d; e < kMaxRanks; ++e) {
            const std::array<int, 5> ranks{a, b, c, d, e};
            boards[static_cast<std::size_t>(board_rank_index(ranks.data()))] = ranks;
          }
  return boards;
}

struct Storage {
  std::vector<std::array<int, 5>> boards = all_board_ranks();
  std::vector<HandRank> rank_value;
  std::array<std::once_flag, kNumHoleRankPairs> column_built;
  std::vector<HandRank> flush_value;
  std::vector<std::uint8_t> category;
  EquityTables view{};

  Storage()
      : rank_value(static_cast<std::size_t>(kNumBoardRankMultisets) * kNumHoleRankPairs, 0),
        flush_value(1U << kMaxRanks, 0),
        category(kNumHandRanks + 1, 0) {
    const HandEvaluator& ev = HandEvaluator::instance();
    for (unsigned mask = 0; mask < (1U << kMaxRanks); ++mask) {
      const int n = std::popcount(mask);
      if (n < 5 || n > 7) continue;
      EvalHand cards;
      for (int r = 0; r < kMaxRanks; ++r)
        if ((mask >> r) & 1U) cards = cards.add(make_card(r, 0));
      flush_value[mask] = ev.rank(cards);
    }
    for (int r = 1; r <= kNumHandRanks; ++r)
      category[static_cast<std::size_t>(r)] =
          static_cast<std::uint8_t>(category_of(static_cast<HandRank>(r)));
    view = {flush_value.data(), category.data()};
  }

  void build_column(int h1, int h2) {
    const HandEvaluator& ev = HandEvaluator::instance();
    HandRank* column = rank_value.data() +
                       static_cast<std::size_t>(hole_rank_index(h1, h2)) * kNumBoardRankMultisets;
    for (std::size_t i = 0; i < boards.size(); ++i) {
      std::array<int, kMaxRanks> count{};
      for (int r : boards[i]) ++count[static_cast<std::size_t>(r)];
      ++count[static_cast<std::size_t>(h1)];
      ++count[static_cast<std::size_t>(h2)];
      // Deal suits round-robin: cards of one rank get distinct suits and no suit gets more
      // than two of the seven cards, so no flush is possible.
      EvalHand cards;
      int next_suit = 0;
      bool valid = true;
      for (int r = 0; r < kMaxRanks; ++r) {
        if (count[static_cast<std::size_t>(r)] > kMaxSuits) valid = false;
        for (int k = 0; k < count[static_cast<std::size_t>(r)] && valid; ++k)
          cards = cards.add(make_card(r, next_suit++ % kMaxSuits));
      }
      column[i] = valid ? ev.rank(cards) : 0;
    }
  }
};

Storage& storage() {
  static Storage s;
  return s;
}

}  // namespace

int board_rank_index(const int* sorted_ranks) {
  int index = 0;
  for (int i = 0; i < 5; ++i) index += static_cast<int>(kBinomial.c[sorted_ranks[i] + i][i + 1]);
  return index;
}

const EquityTables& equity_tables() {
  return storage().view;
}

const HandRank* EquityTables::rank_column(int hole_index) const {
  Storage& s = storage();
  // Invert hole_rank_index: the largest r2 with r2 (r2 + 1) / 2 <= index.
  int r2 = 0;
  while ((r2 + 1) * (r2 + 2) / 2 <= hole_index) ++r2;
  const int r1 = hole_index - r2 * (r2 + 1) / 2;
  std::call_once(s.column_built[static_cast<std::size_t>(hole_index)],
                 [&] { s.build_column(r1, r2); });
  return s.rank_value.data() + static_cast<std::size_t>(hole_index) * kNumBoardRankMultisets;
}

}  // namespace hulhe::equity
