#include "resolving/range_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "resolving/range_solver_walk.h"
#include "util/input_error.h"

namespace hulhe {

struct RangeSolver::Impl {
  RangeSubgame subgame;
  std::unique_ptr<RangeSolverWalk> walk;
  std::array<std::vector<double>, 2> ranges;  // over every hand of the game (range())

  Impl(const BettingTree& tree, std::int32_t root, std::span<const Card> board,
       RangeSolverOptions options)
      : subgame(tree, root, board, options), walk(make_range_solver_walk(subgame)) {
    for (int p = 0; p < 2; ++p) ranges[p].assign(subgame.all.size(), 0.0);
  }

  // Values per hand of the walks to values per hand of the game (0 where a hand touches the
  // root board).
  std::vector<double> root_values(RangeWalkMode mode, int player) const {
    std::vector<double> mine(subgame.n);
    walk->root_values(mode, player, mine.data());
    std::vector<double> out(subgame.all.size(), 0.0);
    for (std::int32_t i = 0; i < subgame.n; ++i) out[subgame.hands.full[i]] = mine[i];
    return out;
  }
};

RangeSolver::RangeSolver(const BettingTree& tree, std::int32_t root, std::span<const Card> board,
                         RangeSolverOptions options) {
  const GameDefinition& g = tree.game();
  if (g.num_players != 2 || g.betting_type != BettingType::kLimit || g.num_hole_cards != 2)
    throw InputError("the range solver needs a 2-player limit hold'em game with 2 hole cards");
  if (root < 0 || root >= static_cast<std::int32_t>(tree.nodes().size()))
    throw InputError("subgame root " + std::to_string(root) + " is not a node of the tree");
  const BettingNode& r = tree.node(root);
  if (r.kind != NodeKind::kDecision || (r.parent >= 0 && tree.node(r.parent).round == r.round))
    throw InputError("subgame root '" + tree.betting_string(root) +
                     "' is not the start of a round");
  impl_ = std::make_unique<Impl>(tree, root, board, options);
}

RangeSolver::~RangeSolver() = default;
RangeSolver::RangeSolver(RangeSolver&&) noexcept = default;
RangeSolver& RangeSolver::operator=(RangeSolver&&) noexcept = default;

const PrivateHands& RangeSolver::hands() const {
  return impl_->subgame.all;
}
const SubgameBoards& RangeSolver::boards() const {
  return impl_->subgame.boards;
}
const BettingTree& RangeSolver::tree() const {
  return impl_->subgame.tree;
}
std::int32_t RangeSolver::root() const {
  return impl_->subgame.root;
}
std::int64_t RangeSolver::iterations() const {
  return impl_->walk->iterations();
}
std::int64_t RangeSolver::table_bytes() const {
  return impl_->walk->table_bytes();
}
bool RangeSolver::contains(std::int32_t node) const {
  const auto& offset = impl_->subgame.offset;
  return node >= 0 && node < static_cast<std::int32_t>(offset.size()) && offset[node] >= 0;
}
const std::vector<std::int32_t>& RangeSolver::decision_nodes() const {
  return impl_->subgame.decision;
}
const std::vector<double>& RangeSolver::range(int position) const {
  return impl_->ranges[position];
}

void RangeSolver::set_range(int position, std::span<const double> range) {
  Impl& m = *impl_;
  RangeSubgame& g = m.subgame;
  if (static_cast<std::int32_t>(range.size()) != g.all.size())
    throw InputError("a range needs " + std::to_string(g.all.size()) + " weights, not " +
                     std::to_string(range.size()));
  for (const double w : range)
    if (!(w >= 0.0) || !std::isfinite(w))
      throw InputError("a range weight is negative or not a number");
  std::fill(m.ranges[position].begin(), m.ranges[position].end(), 0.0);
  for (std::int32_t i = 0; i < g.n; ++i) {
    const std::int32_t h = g.hands.full[i];
    g.ranges[position][i] = range[h];
    m.ranges[position][h] = range[h];
  }
}

void RangeSolver::set_gadget(int position, std::span<const double> terminate_values,
                             RangeSolverGadget kind) {
  RangeSubgame& g = impl_->subgame;
  if (terminate_values.empty()) {
    g.gadget_player = -1;
  } else {
    if (static_cast<std::int32_t>(terminate_values.size()) != g.all.size())
      throw InputError("gadget values need " + std::to_string(g.all.size()) + " entries");
    g.gadget_player = position;
    g.gadget_kind = kind;
    g.terminate_values.resize(g.n);
    for (std::int32_t i = 0; i < g.n; ++i)
      g.terminate_values[i] = terminate_values[g.hands.full[i]];
  }
  impl_->walk->reset_gadget();
}

void RangeSolver::clear() {
  impl_->walk->clear();
}

void RangeSolver::iterate(std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i) impl_->walk->iteration();
}

std::int64_t RangeSolver::iterate_for(double seconds, std::int64_t max_iterations) {
  const auto start = std::chrono::steady_clock::now();
  std::int64_t done = 0;
  do {
    impl_->walk->iteration();
    ++done;
  } while ((max_iterations <= 0 || done < max_iterations) &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
               seconds);
  return done;
}

void RangeSolver::average_strategy(std::int32_t node, std::int32_t board, std::int32_t hand,
                                   std::span<double> out) const {
  const RangeSubgame& g = impl_->subgame;
  const int a = g.nodes[node].num_actions;
  std::array<double, kNumActionKinds> sums{};
  const std::int32_t i = g.slot[hand];
  if (i >= 0) impl_->walk->average(node, board, i, std::span<double>(sums.data(), a));
  // Uniform where the hand never got there (or touches the root board).
  double sum = 0.0;
  for (int k = 0; k < a; ++k) sum += sums[k];
  for (int k = 0; k < a; ++k) out[k] = sum > 0 ? sums[k] / sum : 1.0 / a;
}

void RangeSolver::set_strategy(std::int32_t node, std::int32_t board, std::int32_t hand,
                               std::span<const double> probabilities) {
  const std::int32_t i = impl_->subgame.slot[hand];
  if (i >= 0) impl_->walk->set_average(node, board, i, probabilities);
}

void RangeSolver::set_strategy(int position, const Policy& policy) {
  const RangeSubgame& g = impl_->subgame;
  if (policy.tree().game().hash() != g.game.hash())
    throw InputError("the blueprint is a strategy of another game");
  const CardAbstraction& abstraction = policy.abstraction();
  std::array<double, kNumActionKinds> probs{};
  // Per level: each (board, hand)'s bucket once (a clustered river bucket costs far more than a
  // table read), then every node of the level that `position` plays.
  for (int level = 0; level < g.boards.num_levels(); ++level) {
    std::vector<std::int32_t> nodes;
    for (std::int32_t node : g.decision)
      if (g.tree.node(node).player == position && g.level_of(node) == level) nodes.push_back(node);
    if (nodes.empty()) continue;
    const int round = g.root_round + level;
    const auto& boards = g.boards.level(level);
    for (std::size_t bi = 0; bi < boards.size(); ++bi)
      for (std::int32_t i = 0; i < g.n; ++i) {
        const std::int32_t h = g.hands.full[i];
        if (g.all.masks[h].intersects(boards[bi].mask)) continue;
        const std::int32_t bucket =
            abstraction.bucket(round, g.all.cards[h].data(), boards[bi].cards.data());
        for (std::int32_t node : nodes) {
          const BettingNode& b = g.tree.node(node);
          policy.action_probabilities(round, b.id_in_round, bucket,
                                      std::span<double>(probs.data(), b.num_actions));
          impl_->walk->set_average(node, static_cast<std::int32_t>(bi), i,
                                   std::span<const double>(probs.data(), b.num_actions));
        }
      }
  }
}

std::vector<double> RangeSolver::values(int player) const {
  return impl_->root_values(RangeWalkMode::kEvaluate, player);
}

std::vector<double> RangeSolver::best_response_values(int player) const {
  return impl_->root_values(RangeWalkMode::kBestResponse, player);
}

double RangeSolver::pair_weight() const {
  const Impl& m = *impl_;
  const PrivateHands& hands = m.subgame.all;
  std::array<double, kMaxCards> card{};
  double total = 0.0;
  for (std::int32_t o = 0; o < hands.size(); ++o) {
    total += m.ranges[1][o];
    card[hands.cards[o][0]] += m.ranges[1][o];
    card[hands.cards[o][1]] += m.ranges[1][o];
  }
  double w = 0.0;
  for (std::int32_t h = 0; h < hands.size(); ++h)
    w += m.ranges[0][h] *
         (total - card[hands.cards[h][0]] - card[hands.cards[h][1]] + m.ranges[1][h]);
  return w;
}

double RangeSolver::exploitability() const {
  double sum = 0.0;
  for (int p = 0; p < 2; ++p) {
    const std::vector<double> v = best_response_values(p);
    for (std::size_t h = 0; h < v.size(); ++h) sum += impl_->ranges[p][h] * v[h];
  }
  return sum / (2.0 * pair_weight());
}

}  // namespace hulhe
