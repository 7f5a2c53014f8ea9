#pragma once
// How the sampling CFR variants (external and outcome sampling) run their iterations on one
// set of tables: the views through which a walk reads regrets and writes its updates, and
// the loop that hands iterations to threads. The walks are templates over the view.
//
// DirectTables: one thread, plain arithmetic (deterministic: a 1-thread run and its resumed
// continuation are bit-for-bit an uninterrupted run).
//
// SharedTables: several threads on the one set of tables ("hogwild", as Pluribus runs its
// MCCFR). Beyond the preflop, updates are lock-free in place: relaxed atomic load, then
// relaxed store of the sum (std::atomic_ref: no undefined behaviour, clean under the
// sanitizers). Two threads updating one entry at the same instant can lose one update; with
// millions of information sets that is rare and only adds a little noise to a sampled
// estimate (fetch_add would lose nothing but costs a locked compare-and-swap per update: 5x
// slower on 2 threads in Leduc).
//
// The preflop is different: every iteration walks it, so with in-place updates its cache
// lines would move between cores on every iteration (each write needs the line exclusive),
// and at 16 cores that traffic would grow with the core count (docs/solver-threads.md).
// So each thread adds its preflop updates to a private delta (TrunkDelta, a few KB) and
// reads the shared value plus its own delta; every kTrunkMergeIterations iterations, and at
// the end, it adds the touched entries into the shared tables with fetch_add. Between merges
// the shared preflop lines are only read, which every core can cache at once.
#include <atomic>
#include <cstdint>
#include <vector>

#include "public_tree/strategy_tables.h"

namespace hulhe {

// A thread's iterations between two merges of its preflop deltas: about a millisecond of
// HULHE walks, long enough that a merge (one fetch_add per touched entry) costs little.
inline constexpr int kTrunkMergeIterations = 64;

template <typename T>
struct DirectTables {
  T* regrets;
  T* average_sums;
  double regret(std::int64_t i) const { return regrets[i]; }
  void add_regret(std::int64_t i, double v) const { regrets[i] += static_cast<T>(v); }
  void add_average(std::int64_t i, double v) const { average_sums[i] += static_cast<T>(v); }
  // The information set at `i` will be read soon (regrets) and maybe written (sums).
  void prefetch(std::int64_t i) const {
    __builtin_prefetch(regrets + i);
    __builtin_prefetch(average_sums + i, 1);
  }
};

// One thread's pending updates of the entries [0, size) (the preflop).
template <typename T>
class TrunkDelta {
 public:
  explicit TrunkDelta(std::int64_t size)
      : regret_(static_cast<std::size_t>(size), T{}),
        sum_(static_cast<std::size_t>(size), T{}),
        touched_flag_(static_cast<std::size_t>(size), 0) {
    touched_.reserve(static_cast<std::size_t>(size));  // each entry at most once: no growth
  }
  std::int64_t size() const { return static_cast<std::int64_t>(regret_.size()); }
  T regret(std::int64_t i) const { return regret_[i]; }
  void add_regret(std::int64_t i, double v) {
    touch(i);
    regret_[i] += static_cast<T>(v);
  }
  void add_average(std::int64_t i, double v) {
    touch(i);
    sum_[i] += static_cast<T>(v);
  }
  // Adds every touched entry into the shared tables (nothing is lost) and clears.
  void merge_into(T* regrets, T* average_sums) {
    for (const std::int64_t i : touched_) {
      if (regret_[i] != T{}) std::atomic_ref<T>(regrets[i]).fetch_add(regret_[i]);
      if (sum_[i] != T{}) std::atomic_ref<T>(average_sums[i]).fetch_add(sum_[i]);
      regret_[i] = T{};
      sum_[i] = T{};
      touched_flag_[i] = 0;
    }
    touched_.clear();
  }

 private:
  void touch(std::int64_t i) {
    if (touched_flag_[i] == 0) {
      touched_flag_[i] = 1;
      touched_.push_back(i);
    }
  }
  std::vector<T> regret_, sum_;
  std::vector<std::uint8_t> touched_flag_;
  std::vector<std::int64_t> touched_;
};

template <typename T>
struct SharedTables {
  T* regrets;
  T* average_sums;
  // This thread's preflop delta (null: every entry is updated in place, as in tests).
  TrunkDelta<T>* trunk = nullptr;
  std::int64_t trunk_size = 0;

  double regret(std::int64_t i) const {
    const double shared = std::atomic_ref<T>(regrets[i]).load(std::memory_order_relaxed);
    return i < trunk_size ? shared + trunk->regret(i) : shared;
  }
  static void add(T* x, double v) {
    std::atomic_ref<T> ref(*x);
    ref.store(ref.load(std::memory_order_relaxed) + static_cast<T>(v), std::memory_order_relaxed);
  }
  void add_regret(std::int64_t i, double v) const {
    if (i < trunk_size)
      trunk->add_regret(i, v);
    else
      add(regrets + i, v);
  }
  void add_average(std::int64_t i, double v) const {
    if (i < trunk_size)
      trunk->add_average(i, v);
    else
      add(average_sums + i, v);
  }
  void prefetch(std::int64_t i) const {
    __builtin_prefetch(regrets + i);
    __builtin_prefetch(average_sums + i, 1);
  }
};

// Runs fn(t, view) for t = first .. first + count - 1 on `threads` OpenMP threads, with the
// view that suits the thread count and the tables' precision (see above). `fn` must accept
// every view type (a generic lambda). `trunk_rounds`: the rounds whose updates go through
// per-thread deltas (1: the preflop; 0: every entry in place, 2: the flop too; for measuring
// what the deltas save, bench_hulhe_solver).
template <typename IterationFn>
void run_sampled_iterations(StrategyTables& tables, std::int64_t first, std::int64_t count,
                            int threads, IterationFn&& fn, int trunk_rounds = 1) {
  const std::int64_t trunk_size = tables.round_begin(trunk_rounds);
  tables.visit([&]<typename T>(TableArrays<T> arrays) {
    if (threads <= 1 || count < 2 * threads) {
      const DirectTables<T> view{arrays.regrets, arrays.average_sums};
      for (std::int64_t t = first; t < first + count; ++t) fn(t, view);
      return;
    }
#pragma omp parallel num_threads(threads)
    {
      TrunkDelta<T> delta(trunk_size);
      const SharedTables<T> view{arrays.regrets, arrays.average_sums, &delta, trunk_size};
      int since_merge = 0;
      // Small chunks keep threads busy to the end; iterations are independent apart from
      // the tables they share.
#pragma omp for schedule(dynamic, 256) nowait
      for (std::int64_t i = 0; i < count; ++i) {
        fn(first + i, view);
        if (++since_merge == kTrunkMergeIterations) {
          delta.merge_into(arrays.regrets, arrays.average_sums);
          since_merge = 0;
        }
      }
      delta.merge_into(arrays.regrets, arrays.average_sums);
    }
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
