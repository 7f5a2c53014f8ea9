#pragma once
// One deal of a 2-player game drawn from a seed, as the sampling CFR variants need it: the
// hole cards of both positions, the whole board, each position's bucket in every round
// (looked up once per deal, so the tree walk itself never calls the abstraction) and the
// showdown result. Every random choice of a Monte Carlo CFR iteration comes from a
// SplitMix64 stream seeded by (run seed, iteration number) alone, which is what makes a
// 1-thread run deterministic and a resumed run continue bit-for-bit.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"
#include "game/card.h"
#include "game/game_definition.h"
#include "solver/strategy_tables.h"
#include "util/split_mix64.h"

namespace hulhe {

struct SampledDeal {
  std::array<std::array<Card, kMaxHoleCards>, 2> hole{};         // by position
  std::array<Card, kMaxBoardCards> board{};                      // all rounds' board cards
  std::array<std::array<std::int32_t, kMaxRounds>, 2> bucket{};  // [position][round]
  // +1: position 0 wins the showdown, -1: position 1 wins, 0: split pot.
  int showdown = 0;
};

class DealSampler {
 public:
  // Throws InputError unless the game has 2 players and enough cards for a deal.
  DealSampler(const GameDefinition& game, const CardAbstraction& abstraction);

  // Deals hole cards and the full board uniformly at random (partial Fisher-Yates) and fills
  // in buckets and the showdown result.
  void deal(SplitMix64& rng, SampledDeal& out) const;

  // Buckets and showdown of given cards (used by deal and by tests).
  void evaluate(SampledDeal& deal) const;

  int cards_per_deal() const { return 2 * game_.num_hole_cards + num_board_cards_; }

 private:
  std::int32_t showdown_rank(const SampledDeal& deal, int position) const;
  void build_small_deck_ranks(int showdown_cards);

  GameDefinition game_;
  const CardAbstraction& abstraction_;
  int num_board_cards_ = 0;
  bool use_evaluate_ = false;  // 52-card deck: the table-driven 7-card evaluator
  // Small decks: rank of every showdown hand, indexed by the colex rank of its cards'
  // positions in the deck, so dealing never calls the (allocating) generic ranker.
  std::vector<std::int32_t> small_deck_rank_;
  std::array<std::int8_t, kMaxCards> deck_position_{};
  std::array<std::array<std::int32_t, 8>, kMaxCards + 1> binomial_{};
  std::array<Card, kMaxCards> deck_{};
  int deck_size_ = 0;
};

// Where a sampled iteration reads regrets and writes its updates: two views of the tables,
// chosen by run_sampled_iterations below; the walks are templates over them.
//
// DirectTables: one thread, plain arithmetic (deterministic).
// Both are templates over the tables' element type T (float or double, strategy_tables.h).
template <typename T>
struct DirectTables {
  T* regrets;
  T* average_sums;
  double regret(std::int64_t i) const { return regrets[i]; }
  void add_regret(std::int64_t i, double v) const { regrets[i] += static_cast<T>(v); }
  void add_average(std::int64_t i, double v) const { average_sums[i] += static_cast<T>(v); }
};

// SharedTables: several threads on the one set of tables. Lock-free updates in the style of
// Pluribus: relaxed atomic load, then relaxed store of the sum (std::atomic_ref, so no
// undefined behaviour and clean under the sanitizers). When two threads update the same entry at
// the same instant one update can be lost; with millions of information sets that is rare, and it
// only adds a little noise to a sampled estimate. (fetch_add would lose nothing but costs a locked
// compare-and-swap loop per update: 5x slower on 2 threads in Leduc. Per-thread deltas merged
// between batches were tried too: race-free, but the barriers cost more than they save on small
// games.) On tiny tables (Kuhn, Leduc) the threads fight over the same cache lines, so more threads
// do not help there; the gain is on abstractions with millions of information sets.
template <typename T>
struct SharedTables {
  T* regrets;
  T* average_sums;
  double regret(std::int64_t i) const {
    return std::atomic_ref<T>(regrets[i]).load(std::memory_order_relaxed);
  }
  static void add(T* x, double v) {
    std::atomic_ref<T> ref(*x);
    ref.store(ref.load(std::memory_order_relaxed) + static_cast<T>(v), std::memory_order_relaxed);
  }
  void add_regret(std::int64_t i, double v) const { add(regrets + i, v); }
  void add_average(std::int64_t i, double v) const { add(average_sums + i, v); }
};

// Runs fn(t, view) for t = first .. first + count - 1 on `threads` OpenMP threads, with the
// view that suits the thread count and the tables' precision (see above). `fn` must accept
// every view type (a generic lambda).
template <typename IterationFn>
void run_sampled_iterations(StrategyTables& tables, std::int64_t first, std::int64_t count,
                            int threads, IterationFn&& fn) {
  tables.visit([&]<typename T>(TableArrays<T> arrays) {
    if (threads <= 1 || count < 2 * threads) {
      const DirectTables<T> view{arrays.regrets, arrays.average_sums};
      for (std::int64_t t = first; t < first + count; ++t) fn(t, view);
      return;
    }
    const SharedTables<T> view{arrays.regrets, arrays.average_sums};
    // Small chunks keep threads busy to the end; iterations are independent apart from the
    // tables they share.
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256)
    for (std::int64_t i = 0; i < count; ++i) fn(first + i, view);
  });
}

// Regret matching (Hart & Mas-Colell 2000): positive regrets normalised, else uniform.
template <typename Tables>
inline void regret_matching(const Tables& tables, std::int64_t offset, int num_actions,
                            double* sigma) {
  double sum = 0.0;
  for (int a = 0; a < num_actions; ++a) {
    const double r = tables.regret(offset + a);
    sigma[a] = r > 0.0 ? r : 0.0;
    sum += sigma[a];
  }
  if (sum > 0.0) {
    const double inv = 1.0 / sum;
    for (int a = 0; a < num_actions; ++a) sigma[a] *= inv;
  } else {
    for (int a = 0; a < num_actions; ++a) sigma[a] = 1.0 / num_actions;
  }
}

}  // namespace hulhe
