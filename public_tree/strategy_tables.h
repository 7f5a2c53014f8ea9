#pragma once
// Regret and average-strategy tables of the abstract game: two flat arrays indexed by
// information set (round, decision node id_in_round, bucket) and action slot. An information
// set's actions are contiguous at offset(round, node, bucket) = node_offset(round, node) +
// bucket * bucket_stride(round, node), in one of two layouts (TableLayout), both round-major:
//  - node-major: node, then bucket, then action (stride = the node's action count). A
//    vector-form walk reads every bucket of one node, so that node's block is contiguous.
//  - bucket-major: bucket, then node, then action (stride = the round's actions per bucket).
//    A sampled deal has one bucket per round, so an external-sampling walk through a round
//    stays inside one block (59 KB at most, on the HULHE river) instead of touching a line in
//    each node's block, spread over the whole table: fewer TLB misses and DRAM pages per
//    iteration. The sampling algorithms use it (default_table_layout, cfr_algorithm.h).
//
// Precision is per table set (TablePrecision), chosen by the algorithm or the config:
//  - float32, as Cepheus and open-pure-cfr store them, for the sampling algorithms at scale:
//    HULHE tables of 169-9000-9000-9000 hold ~130M entries per table, half the memory and
//    cache traffic of doubles; sampled updates are noisy far above a float's rounding, and the
//    MCCFR runs discount their sums (Brown & Sandholm 2019), which keeps them bounded.
//  - float64 for the exact, full-traversal family (CFR, CFR+, DCFR) on small games: a float
//    keeps 24 significant bits, and with linear averaging the sums grow as t^2, so the rounding
//    of 10^5..10^6 additions puts a floor near 1e-5 chips under Leduc CFR+'s exploitability;
//    doubles take it below 1e-7.
// Walks compute in double and store in the table's precision.
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"

namespace hulhe {

enum class TablePrecision : std::uint8_t { kFloat32 = 32, kFloat64 = 64 };
enum class TableLayout : std::uint8_t { kNodeMajor = 0, kBucketMajor = 1 };

// "float32" / "float64".
std::string to_string(TablePrecision precision);
// Parses "float32" or "float64"; false for anything else.
bool parse_table_precision(std::string_view text, TablePrecision& out);

// The element type of each precision.
template <TablePrecision P>
using TableValue = std::conditional_t<P == TablePrecision::kFloat64, double, float>;

// Both tables of one precision as raw arrays, for hot loops templated over T.
template <typename T>
struct TableArrays {
  T* regrets = nullptr;
  T* average_sums = nullptr;
  std::int64_t size = 0;
};

class StrategyTables {
 public:
  StrategyTables() = default;
  StrategyTables(const BettingTree& tree, const CardAbstraction& abstraction,
                 TablePrecision precision = TablePrecision::kFloat32,
                 TableLayout layout = TableLayout::kNodeMajor);

  std::int64_t offset(int round, std::int32_t node, std::int32_t bucket) const {
    return node_offset_[round][node] +
           static_cast<std::int64_t>(bucket) * bucket_stride(round, node);
  }
  // Entries between bucket b and bucket b + 1 of one node.
  std::int64_t bucket_stride(int round, std::int32_t node) const {
    return layout_ == TableLayout::kBucketMajor ? round_stride_[round] : num_actions_[round][node];
  }
  int num_actions(int round, std::int32_t node) const { return num_actions_[round][node]; }
  std::int32_t num_buckets(int round) const { return num_buckets_[round]; }
  TableLayout layout() const { return layout_; }
  // Entries of rounds before `round` (both layouts are round-major): [0, round_begin(1)) is
  // the preflop, which every iteration of a sampling algorithm writes.
  std::int64_t round_begin(int round) const;
  std::int64_t num_information_sets() const { return num_information_sets_; }
  std::int64_t size() const { return size_; }
  TablePrecision precision() const { return precision_; }
  std::size_t bytes_per_value() const { return precision_ == TablePrecision::kFloat64 ? 8 : 4; }
  std::size_t memory_bytes() const {
    return 2 * static_cast<std::size_t>(size_) * bytes_per_value();
  }
  // Bytes the tables of `tree` over `abstraction` would take, without allocating them.
  static std::size_t memory_needed(const BettingTree& tree, const CardAbstraction& abstraction,
                                   TablePrecision precision = TablePrecision::kFloat32);
  // Why these tables (e.g. read from a checkpoint) are not laid out for `tree` over
  // `abstraction`, or "" when they are: every node's offset and action count, the bucket
  // counts, the information-set count and both tables' sizes must be what the constructor
  // would make in the tables' layout.
  std::string shape_mismatch(const BettingTree& tree, const CardAbstraction& abstraction) const;

  // The arrays of the tables' own precision: T must be TableValue<precision()> (a
  // std::logic_error otherwise, a programming error).
  template <typename T>
  std::vector<T>& regrets();
  template <typename T>
  const std::vector<T>& regrets() const;
  template <typename T>
  std::vector<T>& average_sums();
  template <typename T>
  const std::vector<T>& average_sums() const;
  template <typename T>
  TableArrays<T> arrays() {
    return {regrets<T>().data(), average_sums<T>().data(), size_};
  }
  // Calls f(TableArrays<T>) with T the tables' element type: one dispatch, then typed loops.
  template <typename F>
  decltype(auto) visit(F&& f) {
    if (precision_ == TablePrecision::kFloat64) return f(arrays<double>());
    return f(arrays<float>());
  }
  // Entry i of either table, in double (tests, reports; not for hot loops).
  double regret(std::int64_t i) const {
    return precision_ == TablePrecision::kFloat64 ? regrets64_[i] : regrets32_[i];
  }
  double average_sum(std::int64_t i) const {
    return precision_ == TablePrecision::kFloat64 ? sums64_[i] : sums32_[i];
  }
  // Both tables' values in double (comparisons in tests).
  std::vector<double> regret_values() const;
  std::vector<double> average_sum_values() const;

  // Regret matching (Hart & Mas-Colell 2000): positive regrets normalised, else uniform.
  void current_strategy(std::int64_t offset, int num_actions, double* out) const;
  // Normalised average-strategy sums; uniform where nothing was accumulated.
  void average_strategy(std::int64_t offset, int num_actions, double* out) const;
  // The same for every information set at once, into an array laid out like the tables
  // (full-traversal CFR reads a snapshot of sigma^t from it while it updates the regrets).
  void all_current_strategies(std::vector<double>& out) const;
  // Calls f(offset, num_actions) for every information set.
  template <typename F>
  void for_each_information_set(F&& f) const {
    for (int r = 0; r < 4; ++r)
      for (std::size_t id = 0; id < node_offset_[r].size(); ++id) {
        const int a = num_actions_[r][id];
        const std::int64_t stride = bucket_stride(r, static_cast<std::int32_t>(id));
        std::int64_t o = node_offset_[r][id];
        for (std::int32_t b = 0; b < num_buckets_[r]; ++b, o += stride) f(o, a);
      }
  }

  // Checkpoint body (checkpoint.h): the layout, then both tables in the precision set before a
  // load. Format version 4 added the layout byte and the bucket counts; earlier versions are
  // node-major and their bucket counts follow from the node offsets.
  template <typename Archive>
  void save(Archive& ar) const {
    ar(static_cast<std::uint8_t>(layout_), num_buckets_, node_offset_, num_actions_,
       num_information_sets_);
    if (precision_ == TablePrecision::kFloat64)
      ar(regrets64_, sums64_);
    else
      ar(regrets32_, sums32_);
  }
  template <typename Archive>
  void load(Archive& ar) {
    if (load_version_ >= 4) {
      std::uint8_t layout = 0;
      ar(layout, num_buckets_);
      if (layout > 1) throw std::runtime_error("unknown table layout " + std::to_string(layout));
      layout_ = static_cast<TableLayout>(layout);
    }
    ar(node_offset_, num_actions_, num_information_sets_);
    if (precision_ == TablePrecision::kFloat64)
      ar(regrets64_, sums64_);
    else
      ar(regrets32_, sums32_);
    size_ = static_cast<std::int64_t>(precision_ == TablePrecision::kFloat64 ? regrets64_.size()
                                                                             : regrets32_.size());
    finish_load();
  }
  // Before loading tables stored in `precision` by checkpoint format `version`.
  void prepare_load(TablePrecision precision, std::uint32_t version) {
    *this = StrategyTables();
    precision_ = precision;
    load_version_ = version;
  }

 private:
  // Tables are allocated on memory advised for 2 MiB pages (util/huge_pages.h): a sampled
  // walk touches a few lines in many pages, and with 4 KiB pages each costs a TLB miss (a
  // nested page walk in a VM). Loaded tables move there once.
  void move_to_huge_pages();
  // Round strides and, for node-major tables of old checkpoints, the bucket counts.
  void finish_load();

  std::array<std::vector<std::int64_t>, 4> node_offset_;
  std::array<std::vector<std::uint8_t>, 4> num_actions_;
  std::array<std::int32_t, 4> num_buckets_{};
  std::array<std::int64_t, 4> round_stride_{};  // actions of all the round's nodes
  TableLayout layout_ = TableLayout::kNodeMajor;
  std::uint32_t load_version_ = 0;
  std::int64_t num_information_sets_ = 0;
  TablePrecision precision_ = TablePrecision::kFloat32;
  std::int64_t size_ = 0;
  // Only the pair of precision_ is in use; the other stays empty.
  std::vector<float> regrets32_, sums32_;
  std::vector<double> regrets64_, sums64_;
  // `f` or `d`, the one of T, if T is the tables' precision (else std::logic_error).
  template <typename T>
  std::vector<T>& of_precision(std::vector<float>& f, std::vector<double>& d);
};

template <typename T>
std::vector<T>& StrategyTables::of_precision(std::vector<float>& f, std::vector<double>& d) {
  if constexpr (std::is_same_v<T, float>) {
    if (precision_ != TablePrecision::kFloat32) throw std::logic_error("tables are float64");
    return f;
  } else {
    if (precision_ != TablePrecision::kFloat64) throw std::logic_error("tables are float32");
    return d;
  }
}
template <typename T>
std::vector<T>& StrategyTables::regrets() {
  return of_precision<T>(regrets32_, regrets64_);
}
template <typename T>
std::vector<T>& StrategyTables::average_sums() {
  return of_precision<T>(sums32_, sums64_);
}
template <typename T>
const std::vector<T>& StrategyTables::regrets() const {
  return const_cast<StrategyTables*>(this)->regrets<T>();
}
template <typename T>
const std::vector<T>& StrategyTables::average_sums() const {
  return const_cast<StrategyTables*>(this)->average_sums<T>();
}

}  // namespace hulhe
