#include "public_tree/public_tree_traversal.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <string>

#include "util/combinatorics.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

// Table access of a pass: plain for one walker, relaxed atomics when several share the tables.
// T is the tables' element type (float or double, strategy_tables.h).
template <bool kShared, typename T>
double load(const T* p) {
  if constexpr (kShared)
    return std::atomic_ref<const T>(*p).load(std::memory_order_relaxed);
  else
    return *p;
}

template <bool kShared, typename T>
void add(T* p, double v) {
  if constexpr (kShared) {
    std::atomic_ref<T> ref(*p);
    ref.store(ref.load(std::memory_order_relaxed) + static_cast<T>(v), std::memory_order_relaxed);
  } else {
    *p += static_cast<T>(v);
  }
}

// Entering new board cards: hands that share a card with them (row[h] < 0) drop out of both
// reach vectors.
void restrict_reach(const std::int32_t* row, const double* reach_t, const double* reach_o,
                    std::int32_t n, double* rt, double* ro) {
  for (std::int32_t h = 0; h < n; ++h) {
    const bool ok = row[h] >= 0;
    rt[h] = ok ? reach_t[h] : 0.0;
    ro[h] = ok ? reach_o[h] : 0.0;
  }
}

}  // namespace

PublicTreeTraversal::PublicTreeTraversal(const BettingTree& tree,
                                         const CardAbstraction& abstraction,
                                         const StrategyTables& layout, std::int64_t max_board_hands,
                                         BoardMode mode)
    : tree_(tree),
      abstraction_(abstraction),
      mode_(mode),
      hands_(enumerate_private_hands(tree.game())),
      n_(hands_.size()),
      num_rounds_(tree.game().num_rounds),
      table_size_(layout.size()) {
  const GameDefinition& game = tree.game();
  const int last = num_rounds_ - 1;
  if (mode == BoardMode::kEnumerate) {
    boards_ = enumerate_public_boards(game, max_board_hands);
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
    showdown_.reserve(boards_.num_boards(last));
    for (std::int32_t b = 0; b < boards_.num_boards(last); ++b)
      showdown_.push_back(make_showdown_order(game, hands_, boards_.masks[last][b]));
  } else {
    // Only what a sampled chance node needs: children per board and compatible children.
    boards_.num_rounds = num_rounds_;
    for (int r = 0; r < num_rounds_; ++r) boards_.board_cards[r] = game.total_board_cards(r);
    for (int r = 0; r + 1 < num_rounds_; ++r) {
      const int fresh = game.num_board_cards[r + 1];
      boards_.children_per_board[r] =
          static_cast<std::int32_t>(binomial(game.deck_size() - boards_.board_cards[r], fresh));
      boards_.compatible_children[r] =
          binomial(game.deck_size() - boards_.board_cards[r] - 2 * game.num_hole_cards, fresh);
    }
    deck_ = game.deck();
  }

  nodes_ = flatten_betting_tree(tree, &layout);
  for (const FlatNode& nd : nodes_)
    if (nd.kind == NodeKind::kShowdown && nd.round != last)
      throw InputError("game '" + game.name +
                       "': a showdown before the last round (all-in) is not supported");
  hand_offset_.assign(nodes_.size(), 0);
  if (mode == BoardMode::kEnumerate)
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (nodes_[i].kind == NodeKind::kDecision) {
        hand_offset_[i] = hand_strategy_size_;
        hand_strategy_size_ += static_cast<std::int64_t>(boards_.num_boards(nodes_[i].round)) * n_ *
                               nodes_[i].num_actions;
      }
  sampled_offset_.assign(nodes_.size(), 0);
  action_offset_.assign(nodes_.size(), 0);
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].kind == NodeKind::kDecision) {
      action_offset_[i] = action_size_;
      action_size_ += n_;
      if (nodes_[i].round == last) continue;  // the trunk is never the last round
      sampled_offset_[i] = sampled_size_;
      sampled_size_ += static_cast<std::int64_t>(n_) * nodes_[i].num_actions;
    }
  max_depth_ = compute_depth(tree.root()) + num_rounds_ + 1;
  std::int32_t max_children = 0;
  if (mode == BoardMode::kEnumerate)
    for (int r = 0; r + 1 < num_rounds_; ++r)
      max_children = std::max(max_children, boards_.children_per_board[r]);
  if (mode == BoardMode::kSampleDeck && last > 0)
    max_children = boards_.children_per_board[last - 1];  // prepare_last_round()'s boards
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
  const std::size_t had = workers_.size();
  if (static_cast<int>(had) >= workers) return;
  // Growing moves the workers: their dealt boards stay (the rows' buffers move with them),
  // but a pointer to a worker's own showdown order must follow it.
  std::vector<bool> own_showdown(had);
  for (std::size_t i = 0; i < had; ++i)
    own_showdown[i] = workers_[i].showdown == &workers_[i].dealt_showdown;
  workers_.resize(workers);
  for (std::size_t i = 0; i < had; ++i)
    if (own_showdown[i]) workers_[i].showdown = &workers_[i].dealt_showdown;
  for (std::size_t i = had; i < workers_.size(); ++i) {
    Workspace& w = workers_[i];
    w.scratch.resize(static_cast<std::size_t>(max_depth_ + 1) * kBlock * n_);
    if (mode_ == BoardMode::kSampleDeck)
      for (int r = 0; r < num_rounds_; ++r) w.dealt_rows[r].assign(n_, -1);
  }
}

void PublicTreeTraversal::sample_board(int worker, SplitMix64& rng) {
  Workspace& ws = workers_[worker];
  const int last = num_rounds_ - 1;
  if (mode_ == BoardMode::kEnumerate) {
    // One child of every board, uniformly: the chain of board indices.
    std::int32_t board = 0;
    ws.row[0] = buckets(0, 0);
    for (int r = 0; r < last; ++r) {
      board = boards_.first_child[r][board] +
              static_cast<std::int32_t>(rng.below(boards_.children_per_board[r]));
      ws.row[r + 1] = buckets(r + 1, board);
    }
    ws.showdown = &showdown_[last == 0 ? 0 : board];
    return;
  }
  // Deal the whole board uniformly from the deck (partial Fisher-Yates), then look up every
  // hand's bucket on each round's board once for this pass.
  std::array<Card, kMaxCards> deck{};
  std::copy(deck_.begin(), deck_.end(), deck.begin());
  const int total = boards_.board_cards[last];
  const int size = static_cast<int>(deck_.size());
  std::array<Card, kMaxBoardCards> board{};
  for (int i = 0; i < total; ++i) {
    const int j = i + static_cast<int>(rng.below(static_cast<std::uint32_t>(size - i)));
    std::swap(deck[i], deck[j]);
    board[i] = deck[i];
  }
  ws.dealt_board = board;
  for (int r = 0; r < num_rounds_; ++r) {
    CardSet mask;
    for (int i = 0; i < boards_.board_cards[r]; ++i) mask.insert(board[i]);
    std::int32_t* row = ws.dealt_rows[r].data();
    for (std::int32_t h = 0; h < n_; ++h)
      row[h] = hands_.masks[h].intersects(mask)
                   ? -1
                   : abstraction_.bucket(r, hands_.cards[h].data(), board.data());
    ws.row[r] = row;
    if (r == last) ws.dealt_showdown = make_showdown_order(tree_.game(), hands_, mask);
  }
  ws.showdown = &ws.dealt_showdown;
}

void PublicTreeTraversal::prepare_last_round(int worker) {
  if (mode_ != BoardMode::kSampleDeck || num_rounds_ < 2)
    throw std::logic_error("prepare_last_round: a deal-sampling walker of 2+ rounds only");
  const Workspace& ws = workers_[worker];
  const int last = num_rounds_ - 1;
  const int known = boards_.board_cards[last - 1];
  const int fresh = boards_.board_cards[last] - known;
  CardSet before;
  for (int i = 0; i < known; ++i) before.insert(ws.dealt_board[i]);
  CardSet dealt = before;
  for (int i = known; i < known + fresh; ++i) dealt.insert(ws.dealt_board[i]);
  std::vector<Card> rest;
  for (Card c : deck_)
    if (!before.contains(c)) rest.push_back(c);
  last_boards_ = boards_.children_per_board[last - 1];
  last_rows_.assign(static_cast<std::size_t>(last_boards_) * n_, -1);
  last_showdown_.resize(last_boards_);
  last_dealt_ = -1;
  // The fresh-card subsets of the rest of the deck, in lexicographic order of positions.
  std::array<int, kMaxBoardCards> pick{};
  for (int i = 0; i < fresh; ++i) pick[i] = i;
  const int m = static_cast<int>(rest.size());
  std::array<Card, kMaxBoardCards> board = ws.dealt_board;
  for (std::int32_t b = 0; b < last_boards_; ++b) {
    CardSet mask = before;
    for (int i = 0; i < fresh; ++i) {
      board[known + i] = rest[pick[i]];
      mask.insert(rest[pick[i]]);
    }
    if (mask == dealt) last_dealt_ = b;
    std::int32_t* row = last_rows_.data() + static_cast<std::size_t>(b) * n_;
    for (std::int32_t h = 0; h < n_; ++h)
      if (!hands_.masks[h].intersects(mask))
        row[h] = abstraction_.bucket(last, hands_.cards[h].data(), board.data());
    last_showdown_[b] = make_showdown_order(tree_.game(), hands_, mask);
    next_k_subset(pick, fresh, m);
  }
}

template <PublicTreeTraversal::Mode M, bool kShared, typename T>
void PublicTreeTraversal::walk(Workspace& ws, std::int32_t node_index, int round,
                               std::int32_t board, const double* reach_t, const double* reach_o,
                               double* out, int depth) {
  const FlatNode& nd = nodes_[node_index];
  if (nd.round > round) {
    chance<M, kShared, T>(ws, node_index, round, board, reach_t, reach_o, out, depth);
    return;
  }
  const std::int32_t n = n_;
  const CfrPass& pass = ws.pass;
  const int t = pass.traverser;
  const std::int32_t* bucket = ws.row[round];
  if (nd.kind == NodeKind::kFold) {
    fold_values(hands_, bucket, reach_o, nd.win[t], out);
    return;
  }
  if (nd.kind == NodeKind::kShowdown) {
    showdown_values(hands_, *ws.showdown, reach_o, nd.win[t], nd.lose[t], out);
    return;
  }
  // Scratch of this depth: sigma (3n) | child values (3n) | child reach (n).
  double* sigma = ws.scratch.data() + static_cast<std::size_t>(depth) * kBlock * n;
  double* cv = sigma + 3 * n;
  double* child_reach = sigma + 6 * n;
  const int A = nd.num_actions;
  // Hybrid CFR-BR walks (CfrPass::subgame_round): per-hand strategies of the hybrid player.
  const bool hybrid = pass.subgame_round >= 0;
  const bool trunk = hybrid && round < pass.subgame_round;
  if (hybrid && ((M == Mode::kBestResponse && nd.player == t && trunk) ||
                 (M == Mode::kCfr && nd.player != t))) {
    if (trunk) {
      const double* s =
          (nd.player == t ? pass.responder_trunk_strategy : pass.opponent_trunk_strategy) +
          sampled_offset_[node_index];
      for (std::int32_t h = 0; h < n; ++h)
        for (int a = 0; a < A; ++a) sigma[a * n + h] = bucket[h] >= 0 ? s[h * A + a] : 0.0;
    } else {
      const std::uint8_t* act = pass.opponent_actions + action_offset_[node_index];
      for (std::int32_t h = 0; h < n; ++h)
        for (int a = 0; a < A; ++a) sigma[a * n + h] = bucket[h] >= 0 && act[h] == a ? 1.0 : 0.0;
    }
  } else if (pass.opponent_hand_strategy != nullptr && nd.player != t) {
    // CFR-BR: the opponent acts per real hand, not through the abstraction.
    const double* s = pass.opponent_hand_strategy + hand_offset_[node_index] +
                      static_cast<std::int64_t>(board) * n * A;
    for (std::int32_t h = 0; h < n; ++h)
      for (int a = 0; a < A; ++a) sigma[a * n + h] = bucket[h] >= 0 ? s[h * A + a] : 0.0;
  } else if (pass.strategy != nullptr) {
    const double* strat = pass.strategy + nd.table_offset;
    for (std::int32_t h = 0; h < n; ++h) {
      if (bucket[h] >= 0) {
        const double* s = strat + static_cast<std::int64_t>(bucket[h]) * nd.bucket_stride;
        for (int a = 0; a < A; ++a) sigma[a * n + h] = s[a];
      } else {
        for (int a = 0; a < A; ++a) sigma[a * n + h] = 0.0;
      }
    }
  } else {
    // Regret matching (Hart & Mas-Colell 2000) of the current regrets, per hand.
    const T* regret = pass.regret_table<T>() + nd.table_offset;
    for (std::int32_t h = 0; h < n; ++h) {
      if (bucket[h] < 0) {
        for (int a = 0; a < A; ++a) sigma[a * n + h] = 0.0;
        continue;
      }
      const T* r = regret + static_cast<std::int64_t>(bucket[h]) * nd.bucket_stride;
      double positive[kNumActionKinds];
      double sum = 0.0;
      for (int a = 0; a < A; ++a) {
        const double x = load<kShared>(r + a);
        positive[a] = x > 0.0 ? x : 0.0;
        sum += positive[a];
      }
      for (int a = 0; a < A; ++a) sigma[a * n + h] = sum > 0.0 ? positive[a] / sum : 1.0 / A;
    }
  }
  if (nd.player == t) {
    for (int a = 0; a < A; ++a) {
      if constexpr (M == Mode::kCfr) {
        for (std::int32_t h = 0; h < n; ++h) child_reach[h] = reach_t[h] * sigma[a * n + h];
        walk<M, kShared, T>(ws, nd.child[a], round, board, child_reach, reach_o, cv + a * n,
                            depth + 1);
      } else {
        walk<M, kShared, T>(ws, nd.child[a], round, board, reach_t, reach_o, cv + a * n, depth + 1);
      }
    }
    if constexpr (M == Mode::kBestResponse) {
      if (trunk) {
        // The hybrid's trunk: a regret minimiser, not a max (Johanson et al. 2012, CFR-BR).
        double* regret = pass.responder_trunk_regrets + sampled_offset_[node_index];
        for (std::int32_t h = 0; h < n; ++h) {
          double v = 0.0;
          for (int a = 0; a < A; ++a) v += sigma[a * n + h] * cv[a * n + h];
          out[h] = v;
          if (bucket[h] < 0) continue;
          for (int a = 0; a < A; ++a) regret[h * A + a] += cv[a * n + h] - v;
        }
        return;
      }
      for (std::int32_t h = 0; h < n; ++h) {
        double best = cv[h];
        for (int a = 1; a < A; ++a) best = std::max(best, cv[a * n + h]);
        out[h] = best;
      }
      // The pure response (the first of equal actions), where a caller asks for it: per real
      // information set (exact CFR-BR) or on the dealt board (the hybrid's subgames).
      std::uint8_t* act = pass.response_actions != nullptr && ws.on_dealt_board
                              ? pass.response_actions + action_offset_[node_index]
                              : nullptr;
      double* s = pass.best_response_out != nullptr
                      ? pass.best_response_out + hand_offset_[node_index] +
                            static_cast<std::int64_t>(board) * n * A
                      : nullptr;
      if (act != nullptr || s != nullptr)
        for (std::int32_t h = 0; h < n; ++h) {
          int best = 0;
          for (int a = 1; a < A; ++a)
            if (cv[a * n + h] > cv[best * n + h]) best = a;
          if (act != nullptr) act[h] = static_cast<std::uint8_t>(best);
          if (s != nullptr)
            for (int a = 0; a < A; ++a) s[h * A + a] = bucket[h] >= 0 && a == best ? 1.0 : 0.0;
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
      T* regret = pass.regret_table<T>() + nd.table_offset;
      T* avg = pass.average_table<T>() + nd.table_offset;
      const double w = pass.average_weight, rw = pass.regret_weight;
      for (std::int32_t h = 0; h < n; ++h) {
        if (bucket[h] < 0) continue;
        const std::int64_t o = static_cast<std::int64_t>(bucket[h]) * nd.bucket_stride;
        for (int a = 0; a < A; ++a) add<kShared>(regret + o + a, rw * (cv[a * n + h] - out[h]));
        if (w > 0.0 && reach_t[h] > 0.0)
          for (int a = 0; a < A; ++a) add<kShared>(avg + o + a, w * reach_t[h] * sigma[a * n + h]);
      }
    }
    return;
  }
  // Opponent's node: its reach splits over actions; a subtree it never reaches is worth 0
  // to the traverser and can be skipped unless the traverser still accumulates averages.
  bool traverser_live = false;
  if constexpr (M == Mode::kCfr) {
    if (pass.average_weight > 0.0)
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
    walk<M, kShared, T>(ws, nd.child[a], round, board, reach_t, child_reach, cv, depth + 1);
    for (std::int32_t h = 0; h < n; ++h) out[h] += cv[h];
  }
}

template <PublicTreeTraversal::Mode M, bool kShared, typename T>
void PublicTreeTraversal::chance(Workspace& ws, std::int32_t node_index, int round,
                                 std::int32_t board, const double* reach_t, const double* reach_o,
                                 double* out, int depth) {
  const std::int32_t n = n_;
  const std::int32_t count = boards_.children_per_board[round];
  const double compatible = static_cast<double>(boards_.compatible_children[round]);
  const int last = num_rounds_ - 1;
  // Points workspace `w` at child board `child` of round + 1.
  auto enter = [&](Workspace& w, std::int32_t child) {
    w.row[round + 1] = buckets(round + 1, child);
    if (round + 1 == last) w.showdown = &showdown_[child];
  };
  if (ws.pass.sampled && ws.pass.enumerate_last_round && round + 1 == last) {
    enumerate_last_round<M, kShared, T>(ws, node_index, round, reach_t, reach_o, out, depth);
    return;
  }
  if (ws.pass.sampled) {
    // Public chance sampling: the dealt child stands for all `count`, an unbiased estimate.
    double* rt = ws.scratch.data() + static_cast<std::size_t>(depth) * kBlock * n;
    double* ro = rt + n;
    double* cv = rt + 2 * n;
    restrict_reach(ws.row[round + 1], reach_t, reach_o, n, rt, ro);
    walk<M, kShared, T>(ws, node_index, round + 1, board, rt, ro, cv, depth + 1);
    const double scale = count / compatible;
    for (std::int32_t h = 0; h < n; ++h) out[h] = scale * cv[h];
    return;
  }
  const std::int32_t first = boards_.first_child[round][board];
  std::fill(out, out + n, 0.0);
  if (ws.pass.threads > 1 && !omp_in_parallel()) {
    // Split the boards across threads; thread 0 keeps writing into the caller's arrays,
    // the others into their own buffers (summed after the pass).
#pragma omp parallel for num_threads(ws.pass.threads) schedule(dynamic, 1)
    for (std::int32_t c = 0; c < count; ++c) {
      const int tid = omp_get_thread_num();
      Workspace& w = workers_[tid];
      for (int r = 0; r <= round; ++r) w.row[r] = ws.row[r];
      enter(w, first + c);
      double* rt = w.scratch.data() + static_cast<std::size_t>(depth) * kBlock * n;
      double* ro = rt + n;
      restrict_reach(w.row[round + 1], reach_t, reach_o, n, rt, ro);
      walk<M, kShared, T>(w, node_index, round + 1, first + c, rt, ro,
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
      enter(ws, first + c);
      restrict_reach(ws.row[round + 1], reach_t, reach_o, n, rt, ro);
      walk<M, kShared, T>(ws, node_index, round + 1, first + c, rt, ro, cv, depth + 1);
      for (std::int32_t h = 0; h < n; ++h) out[h] += cv[h];
    }
  }
  const double inv = 1.0 / compatible;
  for (std::int32_t h = 0; h < n; ++h) out[h] *= inv;
}

template <PublicTreeTraversal::Mode M, bool kShared, typename T>
void PublicTreeTraversal::enumerate_last_round(Workspace& ws, std::int32_t node_index, int round,
                                               const double* reach_t, const double* reach_o,
                                               double* out, int depth) {
  const std::int32_t n = n_;
  const int last = num_rounds_ - 1;
  const std::int32_t count = last_boards_;
  // Each board's values go to chance_values_ (summed in board order after the loop, so the
  // result does not depend on the thread count); the walk below writes only response actions,
  // on the dealt board alone.
  auto walk_board = [&](Workspace& w, std::int32_t b) {
    for (int r = 0; r <= round; ++r) w.row[r] = ws.row[r];
    w.row[last] = last_rows_.data() + static_cast<std::size_t>(b) * n;
    w.showdown = &last_showdown_[b];
    w.on_dealt_board = b == last_dealt_;
    double* rt = w.scratch.data() + static_cast<std::size_t>(depth) * kBlock * n;
    double* ro = rt + n;
    restrict_reach(w.row[last], reach_t, reach_o, n, rt, ro);
    walk<M, kShared, T>(w, node_index, last, 0, rt, ro,
                        chance_values_.data() + static_cast<std::size_t>(b) * n, depth + 1);
  };
  const std::int32_t* saved_row = ws.row[last];
  const ShowdownOrder* saved_showdown = ws.showdown;
  if (ws.pass.threads > 1 && !omp_in_parallel()) {
#pragma omp parallel for num_threads(ws.pass.threads) schedule(dynamic, 1)
    for (std::int32_t b = 0; b < count; ++b) walk_board(workers_[omp_get_thread_num()], b);
  } else {
    for (std::int32_t b = 0; b < count; ++b) walk_board(ws, b);
  }
  ws.row[last] = saved_row;
  ws.showdown = saved_showdown;
  ws.on_dealt_board = true;
  std::fill(out, out + n, 0.0);
  for (std::int32_t b = 0; b < count; ++b)
    for (std::int32_t h = 0; h < n; ++h)
      out[h] += chance_values_[static_cast<std::size_t>(b) * n + h];
  const double inv = 1.0 / static_cast<double>(boards_.compatible_children[round]);
  for (std::int32_t h = 0; h < n; ++h) out[h] *= inv;
}

template <PublicTreeTraversal::Mode M, bool kShared, typename T>
double PublicTreeTraversal::run_root(Workspace& ws) {
  // Every hand is possible at the root: reach 1 for each (chance's 1/n is the normaliser).
  std::vector<double> ones(n_, 1.0), values(n_, 0.0);
  if (!ws.pass.sampled) {
    ws.row[0] = buckets(0, 0);
    if (num_rounds_ == 1) ws.showdown = &showdown_[0];
  }
  walk<M, kShared, T>(ws, tree_.root(), 0, 0, ones.data(), ones.data(), values.data(), 0);
  double sum = 0.0;
  for (double v : values) sum += v;
  return sum / (static_cast<double>(n_) * static_cast<double>(hands_.compatible_opponent_hands));
}

double PublicTreeTraversal::cfr_pass(const CfrPass& pass) {
  if (pass.sampled)
    throw std::logic_error("cfr_pass walks every board; sampled passes use cfr_pass_on");
  const int threads = num_rounds_ < 2 || !parallel_worthwhile() ? 1 : std::max(1, pass.threads);
  reserve_workers(threads);
  for (int t = 0; t < threads; ++t) {
    Workspace& w = workers_[t];
    w.pass = pass;
    w.pass.threads = threads;
    w.pass.shared_tables = false;
    if (t > 0) {
      if (pass.wide()) {
        w.regret_buffer64.assign(table_size_, 0.0);
        w.average_buffer64.assign(table_size_, 0.0);
        w.pass.set_arrays(nullptr, nullptr, w.regret_buffer64.data(), w.average_buffer64.data());
      } else {
        w.regret_buffer.assign(table_size_, 0.0F);
        w.average_buffer.assign(table_size_, 0.0F);
        w.pass.set_arrays(w.regret_buffer.data(), w.average_buffer.data(), nullptr, nullptr);
      }
    }
  }
  const double value = pass.wide() ? run_root<Mode::kCfr, false, double>(workers_[0])
                                   : run_root<Mode::kCfr, false, float>(workers_[0]);
  for (int t = 1; t < threads; ++t) {
    const Workspace& w = workers_[t];
    if (pass.wide()) {
      for (std::int64_t i = 0; i < table_size_; ++i) {
        pass.regrets64[i] += w.regret_buffer64[i];
        pass.average_sums64[i] += w.average_buffer64[i];
      }
    } else {
      for (std::int64_t i = 0; i < table_size_; ++i) {
        pass.regrets[i] += w.regret_buffer[i];
        pass.average_sums[i] += w.average_buffer[i];
      }
    }
  }
  return value;
}

double PublicTreeTraversal::cfr_pass_on(int worker, const CfrPass& pass) {
  Workspace& w = workers_[worker];
  w.pass = pass;
  w.pass.threads = 1;
  if (pass.wide())
    return pass.shared_tables ? run_root<Mode::kCfr, true, double>(w)
                              : run_root<Mode::kCfr, false, double>(w);
  return pass.shared_tables ? run_root<Mode::kCfr, true, float>(w)
                            : run_root<Mode::kCfr, false, float>(w);
}

double PublicTreeTraversal::best_response_value(int responder, const double* strategy, int threads,
                                                double* response) {
  threads = parallel_worthwhile() ? std::max(1, threads) : 1;
  reserve_workers(threads);
  CfrPass pass;
  pass.traverser = responder;
  pass.strategy = strategy;
  pass.average_weight = 0.0;
  pass.threads = threads;
  pass.best_response_out = response;
  for (int t = 0; t < threads; ++t) workers_[t].pass = pass;
  return run_root<Mode::kBestResponse, false>(workers_[0]);
}

double PublicTreeTraversal::hybrid_response_pass(const CfrPass& pass) {
  if (!pass.sampled || pass.subgame_round < 0)
    throw std::logic_error("hybrid_response_pass: a sampled pass with a subgame round");
  const int threads = std::max(1, pass.threads);
  reserve_workers(threads);
  for (int t = 0; t < threads; ++t) {
    workers_[t].pass = pass;
    workers_[t].pass.threads = threads;
    workers_[t].pass.shared_tables = false;
    workers_[t].on_dealt_board = true;
  }
  return pass.wide() ? run_root<Mode::kBestResponse, false, double>(workers_[0])
                     : run_root<Mode::kBestResponse, false, float>(workers_[0]);
}

double PublicTreeTraversal::expected_value(int player, const double* strategy) {
  Workspace& w = workers_[0];
  CfrPass pass;
  pass.traverser = player;
  pass.strategy = strategy;
  pass.average_weight = 0.0;
  w.pass = pass;
  return run_root<Mode::kExpectedValue, false>(w);
}

}  // namespace hulhe
