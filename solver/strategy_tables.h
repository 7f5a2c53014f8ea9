#pragma once
// Regret and average-strategy tables of the abstract game: two flat arrays of 32-bit floats
// indexed by information set (round, decision node id_in_round, bucket) and action slot.
// The layout is round-major, then node, then bucket, then the node's actions, so an
// information set's actions are contiguous at offset(round, node, bucket).
//
// 32 bits, as Cepheus and open-pure-cfr store them: HULHE tables of 169-9000-9000-9000 hold
// ~130M entries per table, half the memory and cache traffic of doubles. A float carries 24
// significant bits: a cumulative regret or average sum keeps increments down to ~6e-8 of its
// size, so sums stay meaningful for ~10^7 equal-weight additions per entry; the MCCFR runs
// discount their sums (Brown & Sandholm 2019), which keeps them bounded well below that.
// Walks compute in double and only store in float.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"

namespace hulhe {

class StrategyTables {
 public:
  StrategyTables() = default;
  StrategyTables(const BettingTree& tree, const CardAbstraction& abstraction);

  std::int64_t offset(int round, std::int32_t node, std::int32_t bucket) const {
    return node_offset_[round][node] +
           static_cast<std::int64_t>(bucket) * num_actions_[round][node];
  }
  int num_actions(int round, std::int32_t node) const { return num_actions_[round][node]; }
  std::int64_t num_information_sets() const { return num_information_sets_; }
  std::int64_t size() const { return static_cast<std::int64_t>(regrets_.size()); }
  std::size_t memory_bytes() const { return 2 * regrets_.size() * sizeof(float); }
  // Bytes the tables of `tree` over `abstraction` would take, without allocating them.
  static std::size_t memory_needed(const BettingTree& tree, const CardAbstraction& abstraction);
  // Why these tables (e.g. read from a checkpoint) are not laid out for `tree` over
  // `abstraction`, or "" when they are: every node's offset and action count, the
  // information-set count and both tables' sizes must be what the constructor would make.
  std::string shape_mismatch(const BettingTree& tree, const CardAbstraction& abstraction) const;

  std::vector<float>& regrets() { return regrets_; }
  const std::vector<float>& regrets() const { return regrets_; }
  std::vector<float>& average_sums() { return average_sums_; }
  const std::vector<float>& average_sums() const { return average_sums_; }

  // Regret matching (Hart & Mas-Colell 2000): positive regrets normalised, else uniform.
  void current_strategy(std::int64_t offset, int num_actions, double* out) const;
  // Normalised average-strategy sums; uniform where nothing was accumulated.
  void average_strategy(std::int64_t offset, int num_actions, double* out) const;
  // The same for every information set at once, into an array laid out like the tables
  // (full-traversal CFR reads a snapshot of sigma^t from it while it updates the regrets).
  void all_current_strategies(std::vector<double>& out) const;
  void all_average_strategies(std::vector<double>& out) const;
  // Calls f(offset, num_actions) for every information set.
  template <typename F>
  void for_each_information_set(F&& f) const {
    for (int r = 0; r < 4; ++r)
      for (std::size_t id = 0; id < node_offset_[r].size(); ++id) {
        const int a = num_actions_[r][id];
        const std::int64_t end = next_node_offset(r, id);
        for (std::int64_t o = node_offset_[r][id]; o < end; o += a) f(o, a);
      }
  }

  template <typename Archive>
  void serialize(Archive& ar) {
    ar(node_offset_, num_actions_, num_information_sets_, regrets_, average_sums_);
  }

 private:
  std::int64_t next_node_offset(int round, std::size_t id) const {
    if (id + 1 < node_offset_[round].size()) return node_offset_[round][id + 1];
    for (int r = round + 1; r < 4; ++r)
      if (!node_offset_[r].empty()) return node_offset_[r][0];
    return static_cast<std::int64_t>(regrets_.size());
  }

  std::array<std::vector<std::int64_t>, 4> node_offset_;
  std::array<std::vector<std::uint8_t>, 4> num_actions_;
  std::int64_t num_information_sets_ = 0;
  std::vector<float> regrets_;
  std::vector<float> average_sums_;
};

}  // namespace hulhe
