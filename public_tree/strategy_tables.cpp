#include "public_tree/strategy_tables.h"

#include <cstdint>
#include <utility>

#include "util/huge_pages.h"
#include "util/input_error.h"

namespace hulhe {

std::string to_string(TablePrecision precision) {
  return precision == TablePrecision::kFloat64 ? "float64" : "float32";
}

bool parse_table_precision(std::string_view text, TablePrecision& out) {
  if (text == "float32") {
    out = TablePrecision::kFloat32;
    return true;
  }
  if (text == "float64") {
    out = TablePrecision::kFloat64;
    return true;
  }
  return false;
}

namespace {

// An empty vector with room for n values on memory advised for 2 MiB pages before it is
// first touched (util/huge_pages.h).
template <typename T>
std::vector<T> reserved_on_huge_pages(std::size_t n) {
  std::vector<T> v;
  v.reserve(n);
  if (n * sizeof(T) >= kMinHugePageAdviceBytes) advise_huge_pages(v.data(), n * sizeof(T));
  return v;
}

// n zeros on advised memory.
template <typename T>
void zeroed_on_huge_pages(std::vector<T>& v, std::size_t n) {
  v = reserved_on_huge_pages<T>(n);
  v.assign(n, T{});
}

// The values of v moved onto advised memory (tables read from a checkpoint).
template <typename T>
void move_to_huge_pages(std::vector<T>& v) {
  if (v.size() * sizeof(T) < kMinHugePageAdviceBytes) return;
  std::vector<T> advised = reserved_on_huge_pages<T>(v.size());
  advised.assign(v.begin(), v.end());
  v.swap(advised);
}

// Offsets of every decision node's bucket 0 in `layout`, and the round strides.
struct LayoutPlan {
  std::array<std::vector<std::int64_t>, 4> node_offset;
  std::array<std::int64_t, 4> round_stride{};
  std::int64_t size = 0;
  std::int64_t information_sets = 0;
};

template <typename ActionsOf>
LayoutPlan plan_layout(TableLayout layout, const std::array<std::int32_t, 4>& buckets,
                       const std::array<std::int32_t, 4>& nodes, ActionsOf&& actions_of) {
  LayoutPlan plan;
  for (int r = 0; r < 4; ++r) {
    plan.node_offset[r].resize(static_cast<std::size_t>(nodes[r]));
    std::int64_t stride = 0;
    for (std::int32_t id = 0; id < nodes[r]; ++id) stride += actions_of(r, id);
    plan.round_stride[r] = stride;
    std::int64_t in_round = 0;
    for (std::int32_t id = 0; id < nodes[r]; ++id) {
      plan.node_offset[r][id] = plan.size + in_round;
      in_round += layout == TableLayout::kBucketMajor
                      ? actions_of(r, id)
                      : static_cast<std::int64_t>(buckets[r]) * actions_of(r, id);
      plan.information_sets += buckets[r];
    }
    plan.size += static_cast<std::int64_t>(buckets[r]) * stride;
  }
  return plan;
}

}  // namespace

StrategyTables::StrategyTables(const BettingTree& tree, const CardAbstraction& abstraction,
                               TablePrecision precision, TableLayout layout)
    : layout_(layout), precision_(precision) {
  const int rounds = tree.game().num_rounds;
  if (abstraction.num_rounds() != rounds)
    throw InputError("abstraction '" + abstraction.describe() + "' has " +
                     std::to_string(abstraction.num_rounds()) + " rounds, the game has " +
                     std::to_string(rounds));
  std::array<std::int32_t, 4> nodes{};
  for (int r = 0; r < rounds; ++r) {
    nodes[r] = tree.num_decision_nodes(r);
    num_buckets_[r] = abstraction.num_buckets(r);
    num_actions_[r].resize(static_cast<std::size_t>(nodes[r]));
    for (std::int32_t id = 0; id < nodes[r]; ++id)
      num_actions_[r][id] = tree.node(tree.decision_node(r, id)).num_actions;
  }
  LayoutPlan plan = plan_layout(layout_, num_buckets_, nodes,
                                [&](int r, std::int32_t id) { return num_actions_[r][id]; });
  node_offset_ = std::move(plan.node_offset);
  round_stride_ = plan.round_stride;
  num_information_sets_ = plan.information_sets;
  size_ = plan.size;
  const auto n = static_cast<std::size_t>(size_);
  if (precision_ == TablePrecision::kFloat64) {
    zeroed_on_huge_pages(regrets64_, n);
    zeroed_on_huge_pages(sums64_, n);
  } else {
    zeroed_on_huge_pages(regrets32_, n);
    zeroed_on_huge_pages(sums32_, n);
  }
}

std::int64_t StrategyTables::round_begin(int round) const {
  std::int64_t begin = 0;
  for (int r = 0; r < round && r < 4; ++r) begin += num_buckets_[r] * round_stride_[r];
  return begin;
}

void StrategyTables::finish_load() {
  for (int r = 0; r < 4; ++r) {
    round_stride_[r] = 0;
    for (const std::uint8_t a : num_actions_[r]) round_stride_[r] += a;
  }
  move_to_huge_pages();
  if (load_version_ >= 4) return;
  // Node-major tables of format versions 2 and 3: a round's block spans its buckets times its
  // actions, from its first node to the next round's first node (or the end).
  for (int r = 0; r < 4; ++r) {
    num_buckets_[r] = 0;
    if (node_offset_[r].empty() || round_stride_[r] == 0) continue;
    std::int64_t end = static_cast<std::int64_t>(
        precision_ == TablePrecision::kFloat64 ? regrets64_.size() : regrets32_.size());
    for (int next = r + 1; next < 4; ++next)
      if (!node_offset_[next].empty()) {
        end = node_offset_[next][0];
        break;
      }
    const std::int64_t span = end - node_offset_[r][0];
    if (span > 0 && span % round_stride_[r] == 0 && span / round_stride_[r] <= INT32_MAX)
      num_buckets_[r] = static_cast<std::int32_t>(span / round_stride_[r]);
  }
}

std::size_t StrategyTables::memory_needed(const BettingTree& tree,
                                          const CardAbstraction& abstraction,
                                          TablePrecision precision) {
  std::size_t entries = 0;
  for (int r = 0; r < tree.game().num_rounds; ++r)
    for (std::int32_t id = 0; id < tree.num_decision_nodes(r); ++id)
      entries += static_cast<std::size_t>(abstraction.num_buckets(r)) *
                 tree.node(tree.decision_node(r, id)).num_actions;
  return 2 * entries * (precision == TablePrecision::kFloat64 ? sizeof(double) : sizeof(float));
}

std::string StrategyTables::shape_mismatch(const BettingTree& tree,
                                           const CardAbstraction& abstraction) const {
  const int rounds = tree.game().num_rounds;
  if (abstraction.num_rounds() != rounds) return "the abstraction's round count differs";
  std::array<std::int32_t, 4> nodes{};
  std::array<std::int32_t, 4> buckets{};
  for (int r = 0; r < 4; ++r) {
    nodes[r] = r < rounds ? tree.num_decision_nodes(r) : 0;
    buckets[r] = nodes[r] > 0 ? abstraction.num_buckets(r) : 0;
    if (node_offset_[r].size() != static_cast<std::size_t>(nodes[r]) ||
        num_actions_[r].size() != static_cast<std::size_t>(nodes[r]))
      return "round " + std::to_string(r) + " has " + std::to_string(node_offset_[r].size()) +
             " decision nodes, the game tree " + std::to_string(nodes[r]);
    if (nodes[r] > 0 && num_buckets_[r] != buckets[r])
      return "round " + std::to_string(r) + " has " + std::to_string(num_buckets_[r]) +
             " buckets, the abstraction " + std::to_string(buckets[r]);
    for (std::int32_t id = 0; id < nodes[r]; ++id)
      if (num_actions_[r][id] != tree.node(tree.decision_node(r, id)).num_actions)
        return "round " + std::to_string(r) + " node " + std::to_string(id) +
               " has another action count than the game tree";
  }
  const LayoutPlan plan = plan_layout(layout_, buckets, nodes,
                                      [&](int r, std::int32_t id) { return num_actions_[r][id]; });
  for (int r = 0; r < 4; ++r)
    if (plan.node_offset[r] != node_offset_[r] || plan.round_stride[r] != round_stride_[r])
      return "round " + std::to_string(r) +
             " has other node offsets than the game tree and abstraction give";
  if (num_information_sets_ != plan.information_sets)
    return std::to_string(num_information_sets_) + " information sets, expected " +
           std::to_string(plan.information_sets);
  const std::int64_t offset = plan.size;
  const bool wide = precision_ == TablePrecision::kFloat64;
  const std::size_t regrets = wide ? regrets64_.size() : regrets32_.size();
  const std::size_t sums = wide ? sums64_.size() : sums32_.size();
  if (static_cast<std::int64_t>(regrets) != offset || static_cast<std::int64_t>(sums) != offset ||
      !(wide ? regrets32_.empty() && sums32_.empty() : regrets64_.empty() && sums64_.empty()))
    return "tables of " + std::to_string(regrets) + " and " + std::to_string(sums) +
           " entries, expected " + std::to_string(offset);
  return "";
}

namespace {

template <typename T>
void regret_matching(const T* r, int num_actions, double* out) {
  double sum = 0.0;
  for (int a = 0; a < num_actions; ++a) {
    out[a] = r[a] > 0.0 ? r[a] : 0.0;
    sum += out[a];
  }
  if (sum > 0.0) {
    for (int a = 0; a < num_actions; ++a) out[a] /= sum;
  } else {
    for (int a = 0; a < num_actions; ++a) out[a] = 1.0 / num_actions;
  }
}

template <typename T>
void normalised(const T* s, int num_actions, double* out) {
  double sum = 0.0;
  for (int a = 0; a < num_actions; ++a) sum += s[a];
  if (sum > 0.0) {
    for (int a = 0; a < num_actions; ++a) out[a] = s[a] / sum;
  } else {
    for (int a = 0; a < num_actions; ++a) out[a] = 1.0 / num_actions;
  }
}

template <typename T>
std::vector<double> widened(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

}  // namespace

void StrategyTables::current_strategy(std::int64_t offset, int num_actions, double* out) const {
  if (precision_ == TablePrecision::kFloat64)
    regret_matching(regrets64_.data() + offset, num_actions, out);
  else
    regret_matching(regrets32_.data() + offset, num_actions, out);
}

void StrategyTables::average_strategy(std::int64_t offset, int num_actions, double* out) const {
  if (precision_ == TablePrecision::kFloat64)
    normalised(sums64_.data() + offset, num_actions, out);
  else
    normalised(sums32_.data() + offset, num_actions, out);
}

std::vector<double> StrategyTables::regret_values() const {
  return precision_ == TablePrecision::kFloat64 ? regrets64_ : widened(regrets32_);
}

std::vector<double> StrategyTables::average_sum_values() const {
  return precision_ == TablePrecision::kFloat64 ? sums64_ : widened(sums32_);
}

void StrategyTables::all_current_strategies(std::vector<double>& out) const {
  out.resize(static_cast<std::size_t>(size_));
  for_each_information_set(
      [&](std::int64_t offset, int a) { current_strategy(offset, a, out.data() + offset); });
}

void StrategyTables::move_to_huge_pages() {
  hulhe::move_to_huge_pages(regrets32_);
  hulhe::move_to_huge_pages(sums32_);
  hulhe::move_to_huge_pages(regrets64_);
  hulhe::move_to_huge_pages(sums64_);
}

}  // namespace hulhe
