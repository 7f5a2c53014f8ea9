#include "game/equity/exact_equity.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <map>
#include <unordered_map>

#include "game/equity/equity_tables.h"
#include "util/combinatorics.h"
#include "util/input_error.h"

namespace hulhe::equity {
namespace {

constexpr int kMaxPlayers = 10;
constexpr std::uint64_t kEveryFourthBit = 0x1111111111111ULL;  // bits 0, 4, ..., 48

// Outcome counts of one class of deals over all its boards (signed: corrections subtract).
struct ClassCounts {
  std::int64_t total = 0;
  std::array<std::int64_t, kMaxPlayers> win{};
  std::array<std::array<std::int64_t, kMaxPlayers + 1>, kMaxPlayers> tie{};  // by # sharing
  std::array<std::array<std::int64_t, kNumHandCategories>, kMaxPlayers> category{};
};

// Weighted sums over classes.
struct Tally {
  double total = 0;
  std::array<double, kMaxPlayers> win{}, tie{}, equity{};
  std::array<std::array<double, kNumHandCategories>, kMaxPlayers> category{};

  void add(const ClassCounts& c, double weight, int n) {
    total += weight * static_cast<double>(c.total);
    for (int i = 0; i < n; ++i) {
      double ties = 0, shares = 0;
      for (int k = 2; k <= n; ++k) {
        ties += static_cast<double>(c.tie[i][k]);
        shares += static_cast<double>(c.tie[i][k]) / k;
      }
      win[i] += weight * static_cast<double>(c.win[i]);
      tie[i] += weight * ties;
      equity[i] += weight * (static_cast<double>(c.win[i]) + shares);
      for (int k = 0; k < kNumHandCategories; ++k)
        category[i][k] += weight * static_cast<double>(c.category[i][k]);
    }
  }
  void add(const Tally& o, int n) {
    total += o.total;
    for (int i = 0; i < n; ++i) {
      win[i] += o.win[i];
      tie[i] += o.tie[i];
      equity[i] += o.equity[i];
      for (int k = 0; k < kNumHandCategories; ++k) category[i][k] += o.category[i][k];
    }
  }
};

// Counts the outcomes of all board completions for fixed hole cards (one deal class).
class BoardCounter {
 public:
  BoardCounter(const EquityTables& tables, int n, const CardSet* holes,
               const std::vector<Card>& board, CardSet dead)
      : t_(tables), n_(n) {
    CardSet used = dead;
    for (Card c : board) {
      used.insert(c);
      known_ranks_[num_known_++] = rank_of(c);
      board_suit_[suit_of(c)] |= 1U << rank_of(c);
    }
    std::sort(known_ranks_.begin(), known_ranks_.begin() + num_known_);
    for (int i = 0; i < n; ++i) {
      used = used | holes[i];
      const std::vector<Card> cards = holes[i].cards();
      rank_column_[i] = t_.rank_column(hole_rank_index(rank_of(cards[0]), rank_of(cards[1])));
      for (Card c : cards) hole_suit_[i][suit_of(c)] |= 1U << rank_of(c);
    }
    for (int c = 0; c < kMaxCards; ++c) {
      if (used.contains(static_cast<Card>(c))) continue;
      ++avail_[rank_of(static_cast<Card>(c))];
      deck_suit_[suit_of(static_cast<Card>(c))] |= 1U << rank_of(static_cast<Card>(c));
    }
    to_deal_ = 5 - num_known_;
  }

  void count(ClassCounts& out) {
    out_ = &out;
    int deck = 0;
    for (int a : avail_) deck += a;
    out.total += binomial(deck, to_deal_);

    // 1. Every board as if no flush were possible, grouped by the rank multiset of the cards
    //    still to come; C(avail_r, c_r) ways to pick c_r cards of rank r.
    std::array<int, 5> fixed{};
    std::copy_n(known_ranks_.begin(), num_known_, fixed.begin());
    int scratch[5];
    for_each_multiset(avail_.data(), to_deal_, 0, scratch, 0, 1,
                      [&](const int* ranks, std::int64_t ways) {
                        const int board = board_index(fixed.data(), num_known_, ranks, to_deal_);
                        HandRank v[kMaxPlayers];
                        for (int i = 0; i < n_; ++i) v[i] = rank_value(board, i);
                        add_outcome(v, ways);
                      });

    // 2. Boards with three or more cards of suit s (at most one such suit): enumerate the
    //    new cards of suit s as a rank mask, the others as a rank multiset, and replace the
    //    rank-only outcome by the true one where a flush changes someone's hand.
    for (int s = 0; s < kMaxSuits; ++s) {
      const int on_board = std::popcount(board_suit_[s]);
      std::array<int, kMaxRanks> other_avail = avail_;
      for (int r = 0; r < kMaxRanks; ++r)
        other_avail[r] -= static_cast<int>((deck_suit_[s] >> r) & 1U);
      for (int j = std::max(0, 3 - on_board); j <= to_deal_; ++j) {
        for_each_subset(deck_suit_[s], j, [&](unsigned suited) {
          unsigned flush_mask[kMaxPlayers];
          bool any = false;
          for (int i = 0; i < n_; ++i) {
            flush_mask[i] = board_suit_[s] | suited | hole_suit_[i][s];
            any |= std::popcount(flush_mask[i]) >= 5;
          }
          if (!any) return;
          std::array<int, 5> base = fixed;
          int num_base = num_known_;
          int new_ranks[5];
          int num_new = 0;
          for (unsigned m = suited; m != 0; m &= m - 1) new_ranks[num_new++] = std::countr_zero(m);
          num_base = merge(fixed.data(), num_known_, new_ranks, num_new, base.data());
          for_each_multiset(other_avail.data(), to_deal_ - j, 0, scratch, 0, 1,
                            [&](const int* ranks, std::int64_t ways) {
                              const int board =
                                  board_index(base.data(), num_base, ranks, to_deal_ - j);
                              HandRank plain[kMaxPlayers], best[kMaxPlayers];
                              bool changed = false;
                              for (int i = 0; i < n_; ++i) {
                                plain[i] = best[i] = rank_value(board, i);
                                if (std::popcount(flush_mask[i]) >= 5) {
                                  best[i] = std::max(plain[i], t_.flush_value[flush_mask[i]]);
                                  changed |= best[i] != plain[i];
                                }
                              }
                              if (!changed) return;
                              add_outcome(best, ways);
                              add_outcome(plain, -ways);
                            });
        });
      }
    }
  }

 private:
  HandRank rank_value(int board, int player) const { return rank_column_[player][board]; }

  // Merges two sorted rank lists (total at most 5) into `out`; returns the size.
  static int merge(const int* a, int na, const int* b, int nb, int* out) {
    int i = 0, j = 0, k = 0;
    while (i < na && j < nb) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    while (i < na) out[k++] = a[i++];
    while (j < nb) out[k++] = b[j++];
    return k;
  }
  // Index of the merged multiset of two sorted rank lists of total size 5.
  static int board_index(const int* a, int na, const int* b, int nb) {
    int merged[5];
    merge(a, na, b, nb, merged);
    return board_rank_index(merged);
  }

  // Multisets of k ranks (ascending, from rank r on) with at most cap[r] of rank r; `ways`
  // is the product of C(cap[r], count[r]).
  template <typename F>
  static void for_each_multiset(const int* cap, int k, int r, int* ranks, int filled,
                                std::int64_t ways, F&& f) {
    if (k == 0) {
      f(static_cast<const int*>(ranks - filled), ways);
      return;
    }
    for (; r < kMaxRanks; ++r) {
      const int most = std::min(cap[r], k);
      for (int c = 1; c <= most; ++c) {
        for (int x = 0; x < c; ++x) ranks[x] = r;
        for_each_multiset(cap, k - c, r + 1, ranks + c, filled + c, ways * binomial(cap[r], c), f);
      }
    }
  }

  // Subsets of size k of a 13-bit mask, as masks.
  template <typename F>
  static void for_each_subset(unsigned mask, int k, F&& f, unsigned chosen = 0) {
    if (k == 0) {
      f(chosen);
      return;
    }
    if (std::popcount(mask) < k) return;
    const unsigned low = mask & (~mask + 1);
    for_each_subset(mask & ~low, k - 1, f, chosen | low);  // with the lowest rank
    for_each_subset(mask & ~low, k, f, chosen);            // without it
  }

  void add_outcome(const HandRank* v, std::int64_t ways) {
    HandRank best = 0;
    int winners = 0;
    for (int i = 0; i < n_; ++i) {
      if (v[i] > best) {
        best = v[i];
        winners = 1;
      } else if (v[i] == best) {
        ++winners;
      }
    }
    for (int i = 0; i < n_; ++i) {
      if (v[i] == best) {
        if (winners == 1)
          out_->win[i] += ways;
        else
          out_->tie[i][winners] += ways;
      }
      out_->category[i][t_.category[v[i]]] += ways;
    }
  }

  const EquityTables& t_;
  int n_;
  std::array<int, 5> known_ranks_{};
  int num_known_ = 0;
  std::array<unsigned, kMaxSuits> board_suit_{};
  std::array<const HandRank*, kMaxPlayers> rank_column_{};
  std::array<std::array<unsigned, kMaxSuits>, kMaxPlayers> hole_suit_{};
  std::array<int, kMaxRanks> avail_{};
  std::array<unsigned, kMaxSuits> deck_suit_{};
  int to_deal_ = 0;
  ClassCounts* out_ = nullptr;
};

using Suits = std::array<int, kMaxSuits>;

std::uint64_t permute(std::uint64_t mask, const Suits& perm) {
  std::uint64_t out = 0;
  for (int s = 0; s < kMaxSuits; ++s) out |= ((mask >> s) & kEveryFourthBit) << perm[s];
  return out;
}

using DealKey = std::array<std::uint64_t, kMaxPlayers>;
struct DealKeyHash {
  std::size_t operator()(const DealKey& k) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (std::uint64_t x : k) h = (h ^ x) * 0xBF58476D1CE4E5B9ULL;
    return static_cast<std::size_t>(h ^ (h >> 31));
  }
};

// Suit permutations that fix the board and the dead cards as sets.
std::vector<Suits> symmetries(const EquityRequest& request) {
  const std::uint64_t board = CardSet::of(request.board).mask(), dead = request.dead.mask();
  std::vector<Suits> perms;
  Suits perm{0, 1, 2, 3};
  do {
    if (permute(board, perm) == board && permute(dead, perm) == dead) perms.push_back(perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return perms;
}

}  // namespace

}  // namespace hulhe::equity

namespace hulhe {

ExactWork estimate_exact_work(const EquityRequest& request, int threads) {
  // Seconds a class's boards take for two players, by cards left to deal (0..5), and a
  // deal's visit (canonical key over every symmetry, one hash-table update): measured one
  // thread, load ~6 on 2 vCPUs: random vs random preflop 117 s (68 thousand classes), on
  // the flop 8.8 s and on the turn 3.5 s (1.1 and 1.0 million classes, one symmetry).
  constexpr std::array<double, 6> kClassSeconds = {0.5e-6, 1.4e-6, 6e-6, 1e-4, 5e-4, 1.7e-3};
  constexpr double kDealSeconds = 2e-6, kDealSymmetrySeconds = 5e-9;
  const CardSet blocked = CardSet::of(request.board) | request.dead;
  const int n = static_cast<int>(request.players.size());
  ExactWork w;
  w.deals = 1;
  for (const Range& r : request.players)
    w.deals *= static_cast<double>(r.without(blocked).combos().size());
  const auto perms = static_cast<double>(equity::symmetries(request).size());
  w.classes = std::max(1.0, w.deals / perms);
  const int to_deal = std::clamp(5 - static_cast<int>(request.board.size()), 0, 5);
  w.seconds =
      w.deals * (kDealSeconds + kDealSymmetrySeconds * perms * n) +
      w.classes * kClassSeconds[static_cast<std::size_t>(to_deal)] * n / 2 / std::max(1, threads);
  return w;
}

}  // namespace hulhe

namespace hulhe::equity {

EquityResult exact_equity(const EquityRequest& request) {
  const EquityTables& tables = equity_tables();  // one-time build, not timed
  const auto start = std::chrono::steady_clock::now();
  const int n = static_cast<int>(request.players.size());

  CardSet fixed = request.dead;
  for (Card c : request.board) fixed.insert(c);

  const std::vector<Suits> perms = symmetries(request);

  // Group the players' combinations into suit-isomorphism classes (canonical key = the least
  // image of the tuple of hands), summing the product of weights.
  std::unordered_map<DealKey, double, DealKeyHash> classes;
  std::uint64_t deals = 0;
  DealKey hands{};
  auto visit = [&](auto&& self, int player, CardSet used, double weight) -> void {
    if (player == n) {
      ++deals;
      DealKey best{};
      bool first = true;
      for (const Suits& p : perms) {
        DealKey key{};
        for (int i = 0; i < n; ++i) key[i] = permute(hands[i], p);
        if (first || key < best) best = key;
        first = false;
      }
      classes[best] += weight;
      return;
    }
    for (const WeightedCombo& c : request.players[player].combos()) {
      if (c.cards().intersects(used)) continue;
      hands[player] = c.cards().mask();
      self(self, player + 1, used | c.cards(), weight * c.weight);
    }
  };
  visit(visit, 0, fixed, 1.0);
  if (classes.empty())
    throw InputError(
        "the players' ranges cannot be dealt together (every combination shares a card)");

  std::vector<std::pair<DealKey, double>> ordered(classes.begin(), classes.end());
  std::sort(ordered.begin(), ordered.end());

  // Fixed-size blocks summed in order keep the result independent of the thread count.
  constexpr std::size_t kBlock = 16;
  const std::size_t num_blocks = (ordered.size() + kBlock - 1) / kBlock;
  std::vector<Tally> block_tally(num_blocks);
  const int threads = request.threads > 0 ? request.threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t b = 0; b < num_blocks; ++b) {
    for (std::size_t k = b * kBlock; k < std::min(ordered.size(), (b + 1) * kBlock); ++k) {
      CardSet holes[kMaxPlayers];
      for (int i = 0; i < n; ++i) holes[i] = CardSet(ordered[k].first[i]);
      ClassCounts counts;
      BoardCounter(tables, n, holes, request.board, request.dead).count(counts);
      block_tally[b].add(counts, ordered[k].second, n);
    }
  }
  Tally tally;
  for (const Tally& t : block_tally) tally.add(t, n);

  EquityResult result;
  result.method = EquityMethod::kExact;
  int deck = kMaxCards - fixed.size() - 2 * n;
  result.combinations = deals * static_cast<std::uint64_t>(
                                    binomial(deck, 5 - static_cast<int>(request.board.size())));
  result.total_weight = tally.total;
  for (int i = 0; i < n; ++i) {
    PlayerEquity p;
    p.win_deals = tally.win[i];
    p.tie_deals = tally.tie[i];
    p.equity_deals = tally.equity[i];
    p.win = tally.win[i] / tally.total;
    p.tie = tally.tie[i] / tally.total;
    p.equity = tally.equity[i] / tally.total;
    for (int k = 0; k < kNumHandCategories; ++k)
      p.categories[k] = tally.category[i][k] / tally.total;
    result.players.push_back(p);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace hulhe::equity
