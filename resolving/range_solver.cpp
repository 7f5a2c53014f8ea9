#include "resolving/range_solver.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "public_tree/flat_betting_tree.h"
#include "public_tree/terminal_values.h"
#include "util/input_error.h"

namespace hulhe {

namespace {

enum class Mode { kCfr, kBestResponse, kEvaluate };

// Per-depth scratch, in units of n doubles: child values (3), σ per hand and action (3), the
// child's reach, the two reaches and the value of one chance deal.
constexpr int kSlots = 10;

}  // namespace

struct RangeSolver::Impl {
  const BettingTree& tree;
  std::int32_t root;
  RangeSolverOptions options;
  GameDefinition game;
  PrivateHands hands;
  SubgameBoards boards;
  std::vector<FlatNode> nodes;
  std::int32_t n = 0;
  int root_round = 0;
  std::vector<std::int32_t> decision;            // decision nodes of the subtree
  std::vector<std::int64_t> offset;              // per tree node: table offset of board 0, hand 0
  std::vector<std::vector<std::int32_t>> valid;  // [level][board * n + h]: 0, or -1 (clash)
  std::vector<ShowdownOrder> showdown;           // per board of the last level
  std::vector<double> regrets, averages;
  std::array<std::vector<double>, 2> ranges;
  int gadget_player = -1;
  RangeSolverGadget gadget_kind = RangeSolverGadget::kResolve;
  std::vector<double> terminate_values;  // T(o)
  std::vector<double> gadget_regrets;    // resolve: [o][T, enter]; max-margin: [o]
  std::int64_t t = 0;                    // iterations done
  int max_depth = 0;

  struct Worker {
    std::vector<double> scratch;
    std::vector<double> sum;  // n: strategy()'s per-hand sums
  };
  std::vector<Worker> workers;
  std::vector<double> chance_values;  // per child board of a parallel chance node

  // What one pass does.
  struct Pass {
    Mode mode = Mode::kCfr;
    int traverser = 0;
    double pos_discount = 1.0, neg_discount = 1.0, avg_discount = 1.0, avg_weight = 1.0;
    bool plus = true;  // CFR+ (floor, weight t) rather than DCFR
  };

  Impl(const BettingTree& tr, std::int32_t rt, std::span<const Card> board, RangeSolverOptions o)
      : tree(tr),
        root(rt),
        options(o),
        game(tr.game()),
        hands(enumerate_private_hands(tr.game())),
        boards(tr.game(), tr.node(rt).round, board),
        nodes(flatten_betting_tree(tr)) {}

  std::int32_t level_of(std::int32_t node) const { return nodes[node].round - root_round; }
  double* sc(Worker& w, int depth, int slot) const {
    return w.scratch.data() + (static_cast<std::int64_t>(depth) * kSlots + slot) * n;
  }

  static void regret_matching(const double* r, int a, double* out) {
    double sum = 0.0;
    for (int k = 0; k < a; ++k) sum += r[k] > 0 ? r[k] : 0.0;
    if (sum > 0)
      for (int k = 0; k < a; ++k) out[k] = (r[k] > 0 ? r[k] : 0.0) / sum;
    else
      for (int k = 0; k < a; ++k) out[k] = 1.0 / a;
  }
  static void normalise(const double* s, int a, double* out) {
    double sum = 0.0;
    for (int k = 0; k < a; ++k) sum += s[k];
    if (sum > 0)
      for (int k = 0; k < a; ++k) out[k] = s[k] / sum;
    else
      for (int k = 0; k < a; ++k) out[k] = 1.0 / a;
  }

  // σ of every hand at (node, board): regret matching (current) or the average. Action-major
  // ([action][hand]) and loops over hands innermost, so that each one vectorises.
  void strategy(Worker& w, std::int32_t node, std::int32_t board, bool current,
                double* sigma) const {
    const int a = nodes[node].num_actions;
    const std::int64_t base = offset[node] + static_cast<std::int64_t>(board) * n * a;
    const double* table = (current ? regrets.data() : averages.data()) + base;
    double* sum = w.sum.data();
    std::fill(sum, sum + n, 0.0);
    for (int k = 0; k < a; ++k) {
      const double* x = table + static_cast<std::int64_t>(k) * n;
      double* s = sigma + static_cast<std::int64_t>(k) * n;
      if (current)
        for (std::int32_t h = 0; h < n; ++h) s[h] = x[h] > 0 ? x[h] : 0.0;
      else
        for (std::int32_t h = 0; h < n; ++h) s[h] = x[h];
      for (std::int32_t h = 0; h < n; ++h) sum[h] += s[h];
    }
    const double uniform = 1.0 / a;
    for (std::int32_t h = 0; h < n; ++h) sum[h] = sum[h] > 0 ? 1.0 / sum[h] : 0.0;
    for (int k = 0; k < a; ++k) {
      double* s = sigma + static_cast<std::int64_t>(k) * n;
      for (std::int32_t h = 0; h < n; ++h) s[h] = sum[h] > 0 ? s[h] * sum[h] : uniform;
    }
  }

  void walk(Worker& w, const Pass& p, std::int32_t node, std::int32_t board, const double* rt,
            const double* ro, double* out, int depth, bool top) {
    const FlatNode& f = nodes[node];
    const std::int32_t* ok = valid[level_of(node)].data() + static_cast<std::int64_t>(board) * n;
    if (f.kind == NodeKind::kFold) {
      fold_values(hands, ok, ro, f.win[p.traverser], out);
      return;
    }
    if (f.kind == NodeKind::kShowdown) {
      showdown_values(hands, showdown[board], ro, f.win[p.traverser], f.lose[p.traverser], out);
      return;
    }
    const int a = f.num_actions;
    double* sigma = sc(w, depth, 3);
    double* child_reach = sc(w, depth, 6);
    const bool own = f.player == p.traverser;
    const bool current = p.mode == Mode::kCfr;
    if (!(own && p.mode == Mode::kBestResponse)) strategy(w, node, board, current, sigma);
    for (int k = 0; k < a; ++k) {
      double* v = sc(w, depth, k);
      const std::int32_t c = f.child[k];
      const double* rt_c = rt;
      const double* ro_c = ro;
      if (own) {
        if (p.mode != Mode::kBestResponse) {
          for (std::int32_t h = 0; h < n; ++h) child_reach[h] = rt[h] * sigma[k * n + h];
          rt_c = child_reach;
        }
      } else {
        for (std::int32_t h = 0; h < n; ++h) child_reach[h] = ro[h] * sigma[k * n + h];
        ro_c = child_reach;
      }
      if (nodes[c].round != f.round)
        chance(w, p, c, board, rt_c, ro_c, v, depth + 1, top);
      else
        walk(w, p, c, board, rt_c, ro_c, v, depth + 1, top);
    }
    const double* v[kNumActionKinds] = {};
    for (int k = 0; k < a; ++k) v[k] = sc(w, depth, k);
    if (!own) {
      for (std::int32_t h = 0; h < n; ++h) out[h] = v[0][h];
      for (int k = 1; k < a; ++k)
        for (std::int32_t h = 0; h < n; ++h) out[h] += v[k][h];
      return;
    }
    if (p.mode == Mode::kBestResponse) {
      for (std::int32_t h = 0; h < n; ++h) out[h] = v[0][h];
      for (int k = 1; k < a; ++k)
        for (std::int32_t h = 0; h < n; ++h) out[h] = std::max(out[h], v[k][h]);
      return;
    }
    for (std::int32_t h = 0; h < n; ++h) out[h] = sigma[h] * v[0][h];
    for (int k = 1; k < a; ++k) {
      const double* sigk = sigma + static_cast<std::int64_t>(k) * n;
      for (std::int32_t h = 0; h < n; ++h) out[h] += sigk[h] * v[k][h];
    }
    if (p.mode != Mode::kCfr) return;
    const std::int64_t base = offset[node] + static_cast<std::int64_t>(board) * n * a;
    double* r = regrets.data() + base;
    double* s = averages.data() + base;
    // Hands that clash with the board keep 0 (their values and reach are 0 anyway); the
    // selects instead of branches keep the loops vectorised.
    for (int k = 0; k < a; ++k) {
      const double* vk = v[k];
      double* rk = r + static_cast<std::int64_t>(k) * n;
      double* sk = s + static_cast<std::int64_t>(k) * n;
      const double* sigk = sigma + static_cast<std::int64_t>(k) * n;
      if (p.plus) {
        for (std::int32_t h = 0; h < n; ++h) {
          const double x = rk[h] + (vk[h] - out[h]);
          rk[h] = ok[h] < 0 ? rk[h] : (x > 0 ? x : 0.0);
        }
      } else {
        for (std::int32_t h = 0; h < n; ++h) {
          const double x = rk[h] + (vk[h] - out[h]);
          rk[h] = ok[h] < 0 ? rk[h] : x * (x > 0 ? p.pos_discount : p.neg_discount);
        }
      }
      for (std::int32_t h = 0; h < n; ++h) {
        const double y = (sk[h] + p.avg_weight * rt[h] * sigk[h]) * p.avg_discount;
        sk[h] = ok[h] < 0 ? sk[h] : y;
      }
    }
  }

  // `node` starts the next round below board `board`: deal every child board.
  void chance(Worker& w, const Pass& p, std::int32_t node, std::int32_t board, const double* rt,
              const double* ro, double* out, int depth, bool top) {
    const int parent_level = level_of(node) - 1;
    const SubgameBoard& b = boards.level(parent_level)[board];
    const std::int32_t count = boards.children_per_board(parent_level);
    const double scale = 1.0 / static_cast<double>(boards.compatible_children(parent_level));
    const int threads = std::max(1, options.threads);
    if (top && threads > 1 && count > 1) {
      chance_values.resize(static_cast<std::size_t>(count) * n);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
      for (std::int32_t i = 0; i < count; ++i) {
        Worker& mine = workers[omp_get_thread_num()];
        deal(mine, p, node, b.first_child + i, rt, ro,
             chance_values.data() + static_cast<std::int64_t>(i) * n, depth);
      }
      std::fill(out, out + n, 0.0);
      for (std::int32_t i = 0; i < count; ++i) {
        const double* v = chance_values.data() + static_cast<std::int64_t>(i) * n;
        for (std::int32_t h = 0; h < n; ++h) out[h] += v[h];
      }
    } else {
      std::fill(out, out + n, 0.0);
      double* v = sc(w, depth, 9);
      for (std::int32_t i = 0; i < count; ++i) {
        deal(w, p, node, b.first_child + i, rt, ro, v, depth);
        for (std::int32_t h = 0; h < n; ++h) out[h] += v[h];
      }
    }
    for (std::int32_t h = 0; h < n; ++h) out[h] *= scale;
  }

  // One deal of a chance node: the reaches without the hands that touch the new cards.
  void deal(Worker& w, const Pass& p, std::int32_t node, std::int32_t child, const double* rt,
            const double* ro, double* out, int depth) {
    const std::int32_t* ok = valid[level_of(node)].data() + static_cast<std::int64_t>(child) * n;
    double* rt_c = sc(w, depth, 7);
    double* ro_c = sc(w, depth, 8);
    for (std::int32_t h = 0; h < n; ++h) {
      rt_c[h] = ok[h] < 0 ? 0.0 : rt[h];
      ro_c[h] = ok[h] < 0 ? 0.0 : ro[h];
    }
    walk(w, p, node, child, rt_c, ro_c, out, depth, false);
  }

  int depth_below(std::int32_t node) const {
    const FlatNode& f = nodes[node];
    if (f.kind != NodeKind::kDecision) return 1;
    int d = 0;
    for (int k = 0; k < f.num_actions; ++k) d = std::max(d, depth_below(f.child[k]));
    return d + 1;
  }

  // The reach at the root of `position`: its range, or the gadget's: per hand the probability
  // of entering (resolve), or the distribution over the hands it enters with (max-margin).
  void root_reach(int position, double* out) const {
    if (position != gadget_player) {
      std::copy(ranges[position].begin(), ranges[position].end(), out);
      return;
    }
    if (gadget_kind == RangeSolverGadget::kMaxMargin) {
      double sum = 0.0;
      std::int32_t count = 0;
      for (std::int32_t h = 0; h < n; ++h)
        if (valid[0][h] >= 0) {
          sum += std::max(0.0, gadget_regrets[h]);
          ++count;
        }
      for (std::int32_t h = 0; h < n; ++h)
        out[h] = valid[0][h] < 0 ? 0.0
                 : sum > 0       ? std::max(0.0, gadget_regrets[h]) / sum
                                 : 1.0 / count;
      return;
    }
    for (std::int32_t h = 0; h < n; ++h) {
      double s[2];
      regret_matching(gadget_regrets.data() + 2 * h, 2, s);
      out[h] = valid[0][h] < 0 ? 0.0 : s[1];
    }
  }

  static double updated_regret(const Pass& p, double x) {
    if (p.plus) return x > 0 ? x : 0.0;
    return x * (x > 0 ? p.pos_discount : p.neg_discount);
  }

  void run_pass(const Pass& p, bool use_gadget, double* out) {
    Worker& w = workers[0];
    std::vector<double> rt(n), ro(n);
    if (use_gadget) {
      root_reach(p.traverser, rt.data());
      root_reach(1 - p.traverser, ro.data());
    } else {
      rt = ranges[p.traverser];
      ro = ranges[1 - p.traverser];
    }
    walk(w, p, root, 0, rt.data(), ro.data(), out, 0, true);
    if (!use_gadget || p.mode != Mode::kCfr || p.traverser != gadget_player) return;
    if (gadget_kind == RangeSolverGadget::kMaxMargin) {
      // One choice among the hands, each worth its margin's opposite, out(o) − T(o): regret
      // matching drives the re-solver to the strategy whose smallest margin is largest.
      double mean = 0.0;
      for (std::int32_t h = 0; h < n; ++h) mean += rt[h] * (out[h] - terminate_values[h]);
      for (std::int32_t h = 0; h < n; ++h)
        if (valid[0][h] >= 0)
          gadget_regrets[h] =
              updated_regret(p, gadget_regrets[h] + (out[h] - terminate_values[h]) - mean);
      return;
    }
    // The gadget's own regrets: terminate (T) against enter (the subgame's value).
    for (std::int32_t h = 0; h < n; ++h) {
      if (valid[0][h] < 0) continue;
      double* r = gadget_regrets.data() + 2 * h;
      double s[2];
      regret_matching(r, 2, s);
      const double v[2] = {terminate_values[h], out[h]};
      const double mean = s[0] * v[0] + s[1] * v[1];
      for (int k = 0; k < 2; ++k) r[k] = updated_regret(p, r[k] + (v[k] - mean));
    }
  }

  void iteration() {
    ++t;
    Pass p;
    p.mode = Mode::kCfr;
    if (options.algorithm == RangeSolverOptions::Algorithm::kCfrPlus) {
      p.plus = true;
      p.avg_weight = static_cast<double>(t);
    } else {
      p.plus = false;
      const double td = static_cast<double>(t);
      const double ta = std::pow(td, options.alpha), tb = std::pow(td, options.beta);
      p.pos_discount = ta / (ta + 1.0);
      p.neg_discount = tb / (tb + 1.0);
      p.avg_discount = std::pow(td / (td + 1.0), options.gamma);
    }
    std::vector<double> out(n);
    for (int traverser = 0; traverser < 2; ++traverser) {
      p.traverser = traverser;
      run_pass(p, true, out.data());
    }
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
  Impl& m = *impl_;
  m.n = m.hands.size();
  m.root_round = r.round;
  // Table layout: each decision node, all boards of its level, hands, actions.
  m.offset.assign(tree.nodes().size(), -1);
  std::int64_t size = 0;
  std::vector<std::int32_t> stack{root};
  while (!stack.empty()) {
    const std::int32_t i = stack.back();
    stack.pop_back();
    const FlatNode& f = m.nodes[i];
    if (f.kind != NodeKind::kDecision) continue;
    m.decision.push_back(i);
    m.offset[i] = size;
    size += static_cast<std::int64_t>(m.boards.level(m.level_of(i)).size()) * m.n * f.num_actions;
    for (int k = f.num_actions - 1; k >= 0; --k) stack.push_back(f.child[k]);
  }
  std::sort(m.decision.begin(), m.decision.end());
  m.regrets.assign(size, 0.0);
  m.averages.assign(size, 0.0);
  m.valid.resize(m.boards.num_levels());
  for (int k = 0; k < m.boards.num_levels(); ++k) {
    const auto& level = m.boards.level(k);
    m.valid[k].resize(level.size() * m.n);
    for (std::size_t b = 0; b < level.size(); ++b)
      for (std::int32_t h = 0; h < m.n; ++h)
        m.valid[k][b * m.n + h] = m.hands.masks[h].intersects(level[b].mask) ? -1 : 0;
  }
  const auto& last = m.boards.level(m.boards.num_levels() - 1);
  m.showdown.reserve(last.size());
  for (const SubgameBoard& b : last) m.showdown.push_back(make_showdown_order(g, m.hands, b.mask));
  m.max_depth = m.depth_below(root) + 1;
  m.workers.resize(std::max(1, options.threads));
  for (auto& w : m.workers) {
    w.scratch.assign(static_cast<std::size_t>(m.max_depth) * kSlots * m.n, 0.0);
    w.sum.assign(m.n, 0.0);
  }
  for (int p = 0; p < 2; ++p) m.ranges[p].assign(m.n, 0.0);
}

RangeSolver::~RangeSolver() = default;
RangeSolver::RangeSolver(RangeSolver&&) noexcept = default;
RangeSolver& RangeSolver::operator=(RangeSolver&&) noexcept = default;

const PrivateHands& RangeSolver::hands() const {
  return impl_->hands;
}
const SubgameBoards& RangeSolver::boards() const {
  return impl_->boards;
}
const BettingTree& RangeSolver::tree() const {
  return impl_->tree;
}
std::int32_t RangeSolver::root() const {
  return impl_->root;
}
std::int64_t RangeSolver::iterations() const {
  return impl_->t;
}
std::int64_t RangeSolver::table_bytes() const {
  return static_cast<std::int64_t>((impl_->regrets.size() + impl_->averages.size()) *
                                   sizeof(double));
}
bool RangeSolver::contains(std::int32_t node) const {
  return node >= 0 && node < static_cast<std::int32_t>(impl_->offset.size()) &&
         impl_->offset[node] >= 0;
}
const std::vector<std::int32_t>& RangeSolver::decision_nodes() const {
  return impl_->decision;
}
const std::vector<double>& RangeSolver::range(int position) const {
  return impl_->ranges[position];
}

void RangeSolver::set_range(int position, std::span<const double> range) {
  Impl& m = *impl_;
  if (static_cast<std::int32_t>(range.size()) != m.n)
    throw InputError("a range needs " + std::to_string(m.n) + " weights, not " +
                     std::to_string(range.size()));
  for (std::int32_t h = 0; h < m.n; ++h) {
    if (!(range[h] >= 0.0) || !std::isfinite(range[h]))
      throw InputError("a range weight is negative or not a number");
    m.ranges[position][h] = m.valid[0][h] < 0 ? 0.0 : range[h];
  }
}

void RangeSolver::set_gadget(int position, std::span<const double> terminate_values,
                             RangeSolverGadget kind) {
  Impl& m = *impl_;
  if (terminate_values.empty()) {
    m.gadget_player = -1;
    return;
  }
  if (static_cast<std::int32_t>(terminate_values.size()) != m.n)
    throw InputError("gadget values need " + std::to_string(m.n) + " entries");
  m.gadget_player = position;
  m.terminate_values.assign(terminate_values.begin(), terminate_values.end());
  m.gadget_kind = kind;
  m.gadget_regrets.assign(
      static_cast<std::size_t>(kind == RangeSolverGadget::kMaxMargin ? 1 : 2) * m.n, 0.0);
}

void RangeSolver::clear() {
  Impl& m = *impl_;
  std::fill(m.regrets.begin(), m.regrets.end(), 0.0);
  std::fill(m.averages.begin(), m.averages.end(), 0.0);
  std::fill(m.gadget_regrets.begin(), m.gadget_regrets.end(), 0.0);
  m.t = 0;
}

void RangeSolver::iterate(std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i) impl_->iteration();
}

std::int64_t RangeSolver::iterate_for(double seconds, std::int64_t max_iterations) {
  const auto start = std::chrono::steady_clock::now();
  std::int64_t done = 0;
  do {
    impl_->iteration();
    ++done;
  } while ((max_iterations <= 0 || done < max_iterations) &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
               seconds);
  return done;
}

void RangeSolver::average_strategy(std::int32_t node, std::int32_t board, std::int32_t hand,
                                   std::span<double> out) const {
  const Impl& m = *impl_;
  const int a = m.nodes[node].num_actions;
  const std::int64_t base = m.offset[node] + static_cast<std::int64_t>(board) * m.n * a + hand;
  std::array<double, kNumActionKinds> sums{};
  for (int k = 0; k < a; ++k) sums[k] = m.averages[base + static_cast<std::int64_t>(k) * m.n];
  Impl::normalise(sums.data(), a, out.data());
}

void RangeSolver::set_strategy(std::int32_t node, std::int32_t board, std::int32_t hand,
                               std::span<const double> probabilities) {
  Impl& m = *impl_;
  const int a = m.nodes[node].num_actions;
  const std::int64_t base = m.offset[node] + static_cast<std::int64_t>(board) * m.n * a + hand;
  for (int k = 0; k < a; ++k)
    m.averages[base + static_cast<std::int64_t>(k) * m.n] = probabilities[k];
}

void RangeSolver::set_strategy(int position, const Policy& policy) {
  Impl& m = *impl_;
  if (policy.tree().game().hash() != m.game.hash())
    throw InputError("the blueprint is a strategy of another game");
  const CardAbstraction& abstraction = policy.abstraction();
  std::array<double, kNumActionKinds> probs{};
  // Per level: each (board, hand)'s bucket once (a clustered river bucket costs far more than a
  // table read), then every node of the level that `position` plays.
  for (int level = 0; level < m.boards.num_levels(); ++level) {
    std::vector<std::int32_t> nodes;
    for (std::int32_t node : m.decision)
      if (m.tree.node(node).player == position && m.level_of(node) == level) nodes.push_back(node);
    if (nodes.empty()) continue;
    const int round = m.root_round + level;
    const auto& boards = m.boards.level(level);
    for (std::size_t bi = 0; bi < boards.size(); ++bi)
      for (std::int32_t h = 0; h < m.n; ++h) {
        if (m.valid[level][bi * m.n + h] < 0) continue;
        const std::int32_t bucket =
            abstraction.bucket(round, m.hands.cards[h].data(), boards[bi].cards.data());
        for (std::int32_t node : nodes) {
          const BettingNode& b = m.tree.node(node);
          policy.action_probabilities(round, b.id_in_round, bucket,
                                      std::span<double>(probs.data(), b.num_actions));
          set_strategy(node, static_cast<std::int32_t>(bi), h,
                       std::span<const double>(probs.data(), b.num_actions));
        }
      }
  }
}

std::vector<double> RangeSolver::values(int player) const {
  Impl::Pass p;
  p.mode = Mode::kEvaluate;
  p.traverser = player;
  std::vector<double> out(impl_->n);
  const_cast<Impl&>(*impl_).run_pass(p, false, out.data());
  return out;
}

std::vector<double> RangeSolver::best_response_values(int player) const {
  Impl::Pass p;
  p.mode = Mode::kBestResponse;
  p.traverser = player;
  std::vector<double> out(impl_->n);
  const_cast<Impl&>(*impl_).run_pass(p, false, out.data());
  return out;
}

double RangeSolver::pair_weight() const {
  const Impl& m = *impl_;
  std::array<double, kMaxCards> card{};
  double total = 0.0;
  for (std::int32_t o = 0; o < m.n; ++o) {
    total += m.ranges[1][o];
    card[m.hands.cards[o][0]] += m.ranges[1][o];
    card[m.hands.cards[o][1]] += m.ranges[1][o];
  }
  double w = 0.0;
  for (std::int32_t h = 0; h < m.n; ++h)
    w += m.ranges[0][h] *
         (total - card[m.hands.cards[h][0]] - card[m.hands.cards[h][1]] + m.ranges[1][h]);
  return w;
}

double RangeSolver::exploitability() const {
  double sum = 0.0;
  for (int p = 0; p < 2; ++p) {
    const std::vector<double> v = best_response_values(p);
    for (std::int32_t h = 0; h < impl_->n; ++h) sum += impl_->ranges[p][h] * v[h];
  }
  return sum / (2.0 * pair_weight());
}

}  // namespace hulhe
