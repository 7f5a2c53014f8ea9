#include "solver/strategy_tables.h"

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

StrategyTables::StrategyTables(const BettingTree& tree, const CardAbstraction& abstraction,
                               TablePrecision precision)
    : precision_(precision) {
  const int rounds = tree.game().num_rounds;
  if (abstraction.num_rounds() != rounds)
    throw InputError("abstraction '" + abstraction.describe() + "' has " +
                     std::to_string(abstraction.num_rounds()) + " rounds, the game has " +
                     std::to_string(rounds));
  std::int64_t offset = 0;
  for (int r = 0; r < rounds; ++r) {
    const std::int32_t nodes = tree.num_decision_nodes(r);
    const std::int32_t buckets = abstraction.num_buckets(r);
    node_offset_[r].resize(nodes);
    num_actions_[r].resize(nodes);
    for (std::int32_t id = 0; id < nodes; ++id) {
      const BettingNode& node = tree.node(tree.decision_node(r, id));
      node_offset_[r][id] = offset;
      num_actions_[r][id] = node.num_actions;
      offset += static_cast<std::int64_t>(buckets) * node.num_actions;
      num_information_sets_ += buckets;
    }
  }
  size_ = offset;
  if (precision_ == TablePrecision::kFloat64) {
    regrets64_.assign(static_cast<std::size_t>(offset), 0.0);
    sums64_.assign(static_cast<std::size_t>(offset), 0.0);
  } else {
    regrets32_.assign(static_cast<std::size_t>(offset), 0.0F);
    sums32_.assign(static_cast<std::size_t>(offset), 0.0F);
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
  std::int64_t offset = 0;
  std::int64_t information_sets = 0;
  for (int r = 0; r < 4; ++r) {
    const std::int32_t nodes = r < rounds ? tree.num_decision_nodes(r) : 0;
    if (node_offset_[r].size() != static_cast<std::size_t>(nodes) ||
        num_actions_[r].size() != static_cast<std::size_t>(nodes))
      return "round " + std::to_string(r) + " has " + std::to_string(node_offset_[r].size()) +
             " decision nodes, the game tree " + std::to_string(nodes);
    const std::int32_t buckets = nodes > 0 ? abstraction.num_buckets(r) : 0;
    for (std::int32_t id = 0; id < nodes; ++id) {
      const int actions = tree.node(tree.decision_node(r, id)).num_actions;
      if (node_offset_[r][id] != offset || num_actions_[r][id] != actions)
        return "round " + std::to_string(r) + " node " + std::to_string(id) +
               " has another offset or action count than the game tree and abstraction give";
      offset += static_cast<std::int64_t>(buckets) * actions;
      information_sets += buckets;
    }
  }
  if (num_information_sets_ != information_sets)
    return std::to_string(num_information_sets_) + " information sets, expected " +
           std::to_string(information_sets);
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

void StrategyTables::all_average_strategies(std::vector<double>& out) const {
  out.resize(static_cast<std::size_t>(size_));
  for_each_information_set(
      [&](std::int64_t offset, int a) { average_strategy(offset, a, out.data() + offset); });
}

}  // namespace hulhe
