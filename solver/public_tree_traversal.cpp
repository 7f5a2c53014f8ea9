#include "solver/public_tree_traversal.h"

#include <omp.h>

#include <algorithm>
#include <string>

#include "game/input_error.h"

namespace hulhe {

PublicTreeTraversal::PublicTreeTraversal(const BettingTree& tree,
                                         const CardAbstraction& abstraction,
                                         const StrategyTables& layout, std::int64_t max_board_hands)
    : tree_(tree),
      hands_(enumerate_private_hands(tree.game())),
      boards_(enumerate_public_boards(tree.game(), max_board_hands)),
      n_(hands_.size()),
      num_rounds_(tree.game().num_rounds),
      table_size_(layout.size()) {
  const GameDefinition& game = tree.game();
  // Bucket of every hand on every board, -1 where the hand shares a card with the board.
  for (int r = 0; r < num_rounds_; ++r) {
    const std::int32_t nb = boards_.num_boards(r);
    buckets_[r].assign(static_cast<std::size_t>(nb) * n_, -1);
    for (std::int32_t b = 0; b < nb; ++b)
      for (std::int32_t h = 0; h < n_; ++h) {
        if (hands_.masks[h].intersects(boards_.masks[r][b])) continue;
        buckets_[r][static_cast<std::size_t>(b) * n_ + h] =
            abstraction.bucket(r, hands_.cards[h].data(), boards_.cards[r][b].data());
      }
  }
  const int last = num_rounds_ - 1;
  showdown_.reserve(boards_.num_boards(last));
  for (std::int32_t b = 0; b < boards_.num_boards(last); ++b)
    showdown_.push_back(make_showdown_order(game, hands_, boards_.masks[last][b]));

  nodes_.resize(tree.nodes().size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const BettingNode& bn = tree.nodes()[i];
    WalkNode& w = nodes_[i];
    w.kind = bn.kind;
    w.round = bn.round;
    w.player = bn.player;
    w.num_actions = bn.num_actions;
    w.child = bn.child;
    if (bn.kind == NodeKind::kDecision) {
      w.table_offset = layout.offset(bn.round, bn.id_in_round, 0);
    } else if (bn.kind == NodeKind::kFold) {
      const int folder = bn.player;
      w.payoff[folder] = -bn.committed[folder];
      w.payoff[1 - folder] = bn.committed[folder];
    } else {
      if (bn.round != last)
        throw InputError("game '" + game.name +
                         "': a showdown before the last round (all-in) is not supported");
      for (int p = 0; p < 2; ++p) {
        w.payoff[p] = bn.committed[1 - p];
        w.lose[p] = -bn.committed[p];
      }
    }
  }
  max_depth_ = compute_depth(tree.root()) + num_rounds_ + 1;
  std::int32_t max_children = 0;
  for (int r = 0; r + 1 < num_rounds_; ++r)
    max_children = std::max(max_children, boards_.children_per_board[r]);
  chance_values_.assign(static_cast<std::size_t>(max_children) * n_, 0.0);
  parallel_work_ = static_cast<std::int64_t>(max_children) * n_;
  reserve_workers(1);
}

int PublicTreeTraversal::compute_depth(std::int32_t node) const {
  int d = 0;
  for (int a = 0; a < kNumActionKinds; ++a)
    if (tree_.node(node).child[a] >= 0) d = std::max(d, compute_depth(tree_.node(node).child[a]));
  return d + 1;
}

void PublicTreeTraversal::reserve_workers(int workers) {
  if (static_cast<int>(workers_.size()) >= workers) return;
  workers_.resize(workers);
  for (Workspace& w : workers_)
    w.scratch.resize(static_cast<std::size_t>(max_depth_ + 1) * kBlock * n_);
}

void PublicTreeTraversal::sample_chain(SplitMix64& rng, BoardChain& chain) const {
  chain.fill(0);
  for (int r = 0; r + 1 < num_rounds_; ++r)
    chain[r + 1] = boards_.first_child[r][chain[r]] +
                   static_cast<std::int32_t>(rng.below(boards_.children_per_board[r]));
}

template <PublicTreeTraversal::Mode M>
void PublicTreeTraversal::walk(Workspace& ws, std::int32_t node_index, int round,
                               std::int32_t board, const double* reach_t, const double* reach_o,
                               double* out, int depth) {
  const WalkNode& nd = nodes_[node_index];
  if (nd.round > round) {
    chance<M>(ws, node_index, round, board, reach_t, reach_o, out, depth);
    return;
  }
  const std::int32_t n = n_;
  const int t = ws.traverser;
  if (nd.kind == NodeKind::kFold) {
    fold_values(hands_, buckets(round, board), reach_o, nd.payoff[t], out);
    return;
  }
  if (nd.kind == NodeKind::kShowdown) {
    showdown_values(hands_, showdown_[board], reach_o, nd.payoff[t], nd.lose[t], out);
    return;
  }
  // Scratch of this depth: sigma (3n) | child values (3n) | child reach (n).
  double* sigma = ws.scratch.data() + static_cast<std::size_t>(depth) * kBlock * n;
  double* cv = sigma + 3 * n;
  double* child_reach = sigma + 6 * n;
  const int A = nd.num_actions;
  const std::int32_t* bucket = buckets(round, board);
  const double* strat = ws.strategy + nd.table_offset;
  for (std::int32_t h = 0; h < n; ++h) {
    if (bucket[h] >= 0) {
      const double* s = strat + static_cast<std::int64_t>(bucket[h]) * A;
      for (int a = 0; a < A; ++a) sigma[a * n + h] = s[a];
    } else {
      for (int a = 0; a < A; ++a) sigma[a * n + h] = 0.0;
    }
  }
  if (nd.player == t) {
    for (int a = 0; a < A; ++a) {
      if constexpr (M == Mode::kCfr) {
        for (std::int32_t h = 0; h < n; ++h) child_reach[h] = reach_t[h] * sigma[a * n + h];
        walk<M>(ws, nd.child[a], round, board, child_reach, reach_o, cv + a * n, depth + 1);
      } else {
        walk<M>(ws, nd.child[a], round, board, reach_t, reach_o, cv + a * n, depth + 1);
      }
    }
    if constexpr (M == Mode::kBestResponse) {
      for (std::int32_t h = 0; h < n; ++h) {
        double best = cv[h];
        for (int a = 1; a < A; ++a) best = std::max(best, cv[a * n + h]);
        out[h] = best;
      }
    } else {
      for (std::int32_t h = 0; h < n; ++h) {
        double v = 0.0;
        for (int a = 0; a < A; ++a) v += sigma[a * n + h] * cv[a * n + h];
        out[h] = v;
      }
    }
    if constexpr (M == Mode::kCfr) {
      // Counterfactual regrets (Zinkevich et al. 2007): cv already carries pi_-i.
      double* regret = ws.regrets + nd.table_offset;
      double* avg = ws.average_sums + nd.table_offset;
      const double w = ws.average_weight;
      for (std::int32_t h = 0; h < n; ++h) {
        if (bucket[h] < 0) continue;
        const std::int64_t o = static_cast<std::int64_t>(bucket[h]) * A;
        for (int a = 0; a < A; ++a) regret[o + a] += cv[a * n + h] - out[h];
        if (w > 0.0 && reach_t[h] > 0.0)
          for (int a = 0; a < A; ++a) avg[o + a] += w * reach_t[h] * sigma[a * n + h];
      }
    }
    return;
  }
  // Opponent's node: its reach splits over actions; a subtree it never reaches is worth 0
  // to the traverser and can be skipped unless the traverser still accumulates averages.
  bool traverser_live = false;
  if constexpr (M == Mode::kCfr) {
    if (ws.average_weight > 0.0)
      for (std::int32_t h = 0; h < n && !traverser_live; ++h) traverser_live = reach_t[h] > 0.0;
  }
  std::fill(out, out + n, 0.0);
  for (int a = 0; a < A; ++a) {
    double live = 0.0;
    for (std::int32_t h = 0; h < n; ++h) {
      child_reach[h] = reach_o[h] * sigma[a * n + h];
      live += child_reach[h];
    }
    if (live == 0.0 && !traverser_live) continue;
    walk<M>(ws, nd.child[a], round, board, reach_t, child_reach, cv, depth + 1);
    for (std::int32_t h = 0; h < n; ++h) out[h] += cv[h];
  }
}

template <PublicTreeTraversal::Mode M>
void PublicTreeTraversal::chance(Workspace& ws, std::int32_t node_index, int round,
                                 std::int32_t board, const double* reach_t, const double* reach_o,
                                 double* out, int depth) {
  const std::int32_t n = n_;
  const std::int32_t first = boards_.first_child[round][board];
  const std::int32_t count = boards_.children_per_board[round];
  const double compatible = static_cast<double>(boards_.compatible_children[round]);
  std::fill(out, out + n, 0.0);
  // Hands that share a card with the new board cards drop out of both reach vectors.
  auto restrict_reach = [&](Workspace& w, std::int32_t child, double* rt, double* ro) {
    const std::int32_t* vb = buckets(round + 1, child);
    for (std::int32_t h = 0; h < n; ++h) {
      const bool ok = vb[h] >= 0;
      rt[h] = ok ? reach_t[h] : 0.0;
      ro[h] = ok ? reach_o[h] : 0.0;
    }
    (void)w;
  };
  if (ws.sampled != nullptr) {
    // Public chance sampling: one child stands for all `count`, an unbiased estimate.
    const std::int32_t child = (*ws.sampled)[round + 1];
    double* rt = ws.scratch.data() + static_cast<std::size_t>(depth) * kBlock * n;
    double* ro = rt + n;
    double* cv = rt + 2 * n;
    restrict_reach(ws, child, rt, ro);
    walk<M>(ws, node_index, round + 1, child, rt, ro, cv, depth + 1);
    const double scale = count / compatible;
    for (std::int32_t h = 0; h < n; ++h) out[h] = scale * cv[h];
    return;
  }
  if (ws.threads > 1 && !omp_in_parallel()) {
    // Split the boards across threads; thread 0 keeps writing into the caller's arrays,
    // the others into their own buffers (summed after the pass).
#pragma omp parallel for num_threads(ws.threads) schedule(dynamic, 1)
    for (std::int32_t c = 0; c < count; ++c) {
      const int tid = omp_get_thread_num();
      Workspace& w = workers_[tid];
      double* rt = w.scratch.data() + static_cast<std::size_t>(depth) * kBlock * n;
      double* ro = rt + n;
      restrict_reach(w, first + c, rt, ro);
      walk<M>(w, node_index, round + 1, first + c, rt, ro,
              chance_values_.data() + static_cast<std::size_t>(c) * n, depth + 1);
    }
    for (std::int32_t c = 0; c < count; ++c)
      for (std::int32_t h = 0; h < n; ++h)
        out[h] += chance_values_[static_cast<std::size_t>(c) * n + h];
  } else {
    double* rt = ws.scratch.data() + static_cast<std::size_t>(depth) * kBlock * n;
    double* ro = rt + n;
    double* cv = rt + 2 * n;
    for (std::int32_t c = 0; c < count; ++c) {
      restrict_reach(ws, first + c, rt, ro);
      walk<M>(ws, node_index, round + 1, first + c, rt, ro, cv, depth + 1);
      for (std::int32_t h = 0; h < n; ++h) out[h] += cv[h];
    }
  }
  const double inv = 1.0 / compatible;
  for (std::int32_t h = 0; h < n; ++h) out[h] *= inv;
}

template <PublicTreeTraversal::Mode M>
double PublicTreeTraversal::run_root(Workspace& ws) {
  // Every hand is possible at the root: reach 1 for each (chance's 1/n is the normaliser).
  std::vector<double> ones(n_, 1.0), values(n_, 0.0);
  walk<M>(ws, tree_.root(), 0, 0, ones.data(), ones.data(), values.data(), 0);
  double sum = 0.0;
  for (double v : values) sum += v;
  return sum / (static_cast<double>(n_) * static_cast<double>(hands_.compatible_opponent_hands));
}

namespace {

void setup(auto& ws, const CfrPass& pass) {
  ws.traverser = pass.traverser;
  ws.strategy = pass.strategy;
  ws.regrets = pass.regrets;
  ws.average_sums = pass.average_sums;
  ws.average_weight = pass.average_weight;
  ws.sampled = pass.sampled;
  ws.threads = pass.threads;
}

}  // namespace

double PublicTreeTraversal::cfr_pass(const CfrPass& pass) {
  const int threads = pass.sampled != nullptr || num_rounds_ < 2 || !parallel_worthwhile()
                          ? 1
                          : std::max(1, pass.threads);
  reserve_workers(threads);
  for (int t = 0; t < threads; ++t) {
    Workspace& w = workers_[t];
    setup(w, pass);
    w.threads = threads;
    if (t > 0) {
      w.regret_buffer.assign(table_size_, 0.0);
      w.average_buffer.assign(table_size_, 0.0);
      w.regrets = w.regret_buffer.data();
      w.average_sums = w.average_buffer.data();
    }
  }
  const double value = run_root<Mode::kCfr>(workers_[0]);
  for (int t = 1; t < threads; ++t) {
    const Workspace& w = workers_[t];
    for (std::int64_t i = 0; i < table_size_; ++i) {
      pass.regrets[i] += w.regret_buffer[i];
      pass.average_sums[i] += w.average_buffer[i];
    }
  }
  return value;
}

double PublicTreeTraversal::cfr_pass_on(int worker, const CfrPass& pass) {
  Workspace& w = workers_[worker];
  setup(w, pass);
  w.threads = 1;
  return run_root<Mode::kCfr>(w);
}

double PublicTreeTraversal::best_response_value(int responder, const double* strategy,
                                                int threads) {
  threads = parallel_worthwhile() ? std::max(1, threads) : 1;
  reserve_workers(threads);
  for (int t = 0; t < threads; ++t) {
    Workspace& w = workers_[t];
    w.traverser = responder;
    w.strategy = strategy;
    w.sampled = nullptr;
    w.threads = threads;
    w.average_weight = 0.0;
  }
  return run_root<Mode::kBestResponse>(workers_[0]);
}

double PublicTreeTraversal::expected_value(int player, const double* strategy) {
  Workspace& w = workers_[0];
  w.traverser = player;
  w.strategy = strategy;
  w.sampled = nullptr;
  w.threads = 1;
  w.average_weight = 0.0;
  return run_root<Mode::kExpectedValue>(w);
}

}  // namespace hulhe
