#include "resolving/range_solver_walk.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

#include "util/input_error.h"

namespace hulhe {

RangeSubgame::RangeSubgame(const BettingTree& tr, std::int32_t rt, std::span<const Card> board,
                           RangeSolverOptions o)
    : tree(tr),
      root(rt),
      options(o),
      game(tr.game()),
      all(enumerate_private_hands(tr.game())),
      boards(tr.game(), tr.node(rt).round, board),
      hands(all, boards.level(0)[0].mask),
      nodes(flatten_betting_tree(tr)) {
  n = hands.size();
  root_round = tr.node(rt).round;
  slot.assign(all.size(), -1);
  for (std::int32_t i = 0; i < n; ++i) slot[hands.full[i]] = i;
  // Table layout: each decision node, all boards of its level, actions, hands.
  offset.assign(tr.nodes().size(), -1);
  std::vector<std::int32_t> stack{rt};
  const auto depth_below = [&](auto&& self, std::int32_t node) -> int {
    const FlatNode& f = nodes[node];
    if (f.kind != NodeKind::kDecision) return 1;
    int d = 0;
    for (int k = 0; k < f.num_actions; ++k) d = std::max(d, self(self, f.child[k]));
    return d + 1;
  };
  while (!stack.empty()) {
    const std::int32_t i = stack.back();
    stack.pop_back();
    const FlatNode& f = nodes[i];
    if (f.kind != NodeKind::kDecision) continue;
    decision.push_back(i);
    offset[i] = table_size;
    table_size += static_cast<std::int64_t>(boards.level(level_of(i)).size()) * n * f.num_actions;
    for (int k = f.num_actions - 1; k >= 0; --k) stack.push_back(f.child[k]);
  }
  std::sort(decision.begin(), decision.end());
  const auto& last = boards.level(boards.num_levels() - 1);
  showdown.reserve(last.size());
  for (const SubgameBoard& b : last) showdown.emplace_back(game, all, hands, b.mask);
  max_depth = depth_below(depth_below, rt) + 1;
  plan_of.assign(tr.nodes().size(), -1);
  const int last_round = root_round + boards.num_levels() - 1;
  const auto add_plan = [&](std::int32_t node) {
    RangeLastRoundPlan plan;
    if (!options.last_round_lanes || !make_range_last_round_plan(nodes, node, plan)) return;
    plan_of[node] = static_cast<std::int32_t>(last_round_plans.size());
    last_round_plans.push_back(std::move(plan));
  };
  if (root_round == last_round) add_plan(rt);
  for (const std::int32_t i : decision) {
    const FlatNode& f = nodes[i];
    for (int k = 0; k < f.num_actions; ++k) {
      const FlatNode& c = nodes[f.child[k]];
      if (c.kind == NodeKind::kDecision && c.round != f.round && c.round == last_round)
        add_plan(f.child[k]);
    }
  }
  for (int p = 0; p < 2; ++p) ranges[p].assign(n, 0.0);
}

namespace {

// The memory of freed tables, kept by the thread that freed them for its next table of the
// same size. Re-solves come one after another (an agent's decisions; `exploit --resolve`'s
// thousands a flop), each with ~145 MiB of tables on a HULHE turn (regrets, averages, and
// the averages again after the gadget's values): fresh pages from the kernel cost a fault
// each, ~10% of a re-solve's time here, where zeroing kept memory is one pass.
class SpareTables {
 public:
  ~SpareTables() {
    for (Spare& s : spare_) std::free(s.memory);
  }
  // Zeroed memory of `bytes`: kept memory of that size, or calloc's (null when out of memory).
  void* take(std::size_t bytes) {
    for (Spare& s : spare_)
      if (s.memory != nullptr && s.bytes == bytes) {
        void* m = s.memory;
        s.memory = nullptr;
        std::memset(m, 0, bytes);
        return m;
      }
    return std::calloc(bytes, 1);
  }
  // Keeps `memory` if a slot is free, else frees it.
  void give(void* memory, std::size_t bytes) {
    for (Spare& s : spare_)
      if (s.memory == nullptr) {
        s = {memory, bytes};
        return;
      }
    std::free(memory);
  }
  static SpareTables& of_this_thread() {
    thread_local SpareTables spare;
    return spare;
  }

 private:
  struct Spare {
    void* memory = nullptr;
    std::size_t bytes = 0;
  };
  std::array<Spare, 3> spare_{};  // a solver's two tables and one more
};

// A table of zeros: memory a freed table of the same size left to this thread, zeroed, or
// calloc's fresh pages (zero without a pass, faulted in where the walks first write them).
template <typename Real>
class ZeroTable {
 public:
  explicit ZeroTable(std::int64_t size) : size_(size) { reset(); }
  // Every entry back to 0.
  void reset() {
    data_.reset();
    data_.reset(static_cast<Real*>(SpareTables::of_this_thread().take(bytes())));
    if (size_ > 0 && !data_) throw std::bad_alloc();
  }
  Real* data() { return data_.get(); }
  const Real* data() const { return data_.get(); }
  Real& operator[](std::int64_t i) { return data_.get()[i]; }
  const Real& operator[](std::int64_t i) const { return data_.get()[i]; }
  std::int64_t size() const { return size_; }

 private:
  std::size_t bytes() const { return static_cast<std::size_t>(size_) * sizeof(Real); }
  struct Free {
    std::size_t bytes;
    void operator()(Real* p) const { SpareTables::of_this_thread().give(p, bytes); }
  };
  std::int64_t size_;
  std::unique_ptr<Real, Free> data_{nullptr, Free{bytes()}};
};

// Per-depth scratch, in units of n values: child values (3), σ per hand and action (3), the
// child's reach, the two reaches and the value of one chance deal.
constexpr int kSlots = 10;

template <typename Real>
class Walk final : public RangeSolverWalk {
 public:
  explicit Walk(const RangeSubgame& g)
      : g_(g), n_(g.n), regrets_(g.table_size), averages_(g.table_size) {
    live_.resize(g.boards.num_levels());
    for (int k = 0; k < g.boards.num_levels(); ++k) {
      const auto& level = g.boards.level(k);
      live_[k].resize(level.size() * n_);
      for (std::size_t b = 0; b < level.size(); ++b)
        for (std::int32_t i = 0; i < n_; ++i)
          live_[k][b * n_ + i] = g.all.masks[g.hands.full[i]].intersects(level[b].mask) ? 0 : 1;
    }
    workers_.resize(std::max(1, g.options.threads));
    std::size_t entries = 0;
    int showdown_width = 0, fold_width = 0;
    for (const RangeLastRoundPlan& plan : g.last_round_plans) {
      entries = std::max(entries, plan.entries.size());
      showdown_width = std::max(showdown_width, plan.showdown_width);
      fold_width = std::max(fold_width, plan.fold_width);
    }
    const auto n = static_cast<std::size_t>(n_);
    for (auto& w : workers_) {
      w.scratch.assign(static_cast<std::size_t>(g.max_depth) * kSlots * n, Real(0));
      w.reach.assign(entries * n, Real(0));
      w.value.assign(entries * n, Real(0));
      w.sigma.assign(entries * kNumActionKinds * n, Real(0));
      w.rt_of.assign(entries, nullptr);
      w.ro_of.assign(entries, nullptr);
      // Zero at first, then only reaches and values: a plan's unused lanes hold finite
      // numbers, as the lane kernels need.
      w.showdown_reach.assign(showdown_width * n, Real(0));
      w.showdown_value.assign(showdown_width * n, Real(0));
      w.fold_reach.assign(fold_width * n, Real(0));
      w.fold_value.assign(fold_width * n, Real(0));
    }
    reset_gadget();
  }

  void iteration() override {
    ++t_;
    Pass p;
    p.cfr = true;
    const double td = static_cast<double>(t_);
    if (g_.options.algorithm == RangeSolverOptions::Algorithm::kCfrPlus) {
      p.plus = true;
      p.avg_weight = static_cast<Real>(td);
    } else {
      p.plus = false;
      const double ta = std::pow(td, g_.options.alpha), tb = std::pow(td, g_.options.beta);
      p.pos_discount = static_cast<Real>(ta / (ta + 1.0));
      p.neg_discount = static_cast<Real>(tb / (tb + 1.0));
      p.avg_discount = static_cast<Real>(std::pow(td / (td + 1.0), g_.options.gamma));
    }
    std::vector<Real> out(n_);
    for (int traverser = 0; traverser < 2; ++traverser) {
      p.traverser = traverser;
      p.average = g_.options.averaged < 0 || g_.options.averaged == traverser;
      run_pass(p, true, out.data());
    }
  }

  std::int64_t iterations() const override { return t_; }

  void clear() override {
    if (t_ > 0) regrets_.reset();  // no iteration: the regrets are still 0
    averages_.reset();
    reset_gadget();
    t_ = 0;
  }

  void reset_gadget() override {
    gadget_regrets_.assign(g_.gadget_player < 0 ? 0
                           : g_.gadget_kind == RangeSolverGadget::kMaxMargin
                               ? static_cast<std::size_t>(n_)
                               : 2 * static_cast<std::size_t>(n_),
                           0.0);
  }

  std::int64_t table_bytes() const override {
    return static_cast<std::int64_t>((regrets_.size() + averages_.size()) * sizeof(Real));
  }

  void root_values(RangeWalkMode mode, int player, double* out) override {
    Pass p;
    p.best_response = mode == RangeWalkMode::kBestResponse;
    p.traverser = player;
    std::vector<Real> v(n_);
    run_pass(p, false, v.data());
    std::copy(v.begin(), v.end(), out);
  }

  void average(std::int32_t node, std::int32_t board, std::int32_t hand,
               std::span<double> out) const override {
    const int a = g_.nodes[node].num_actions;
    const std::int64_t base = g_.offset[node] + static_cast<std::int64_t>(board) * n_ * a + hand;
    for (int k = 0; k < a; ++k) out[k] = averages_[base + static_cast<std::int64_t>(k) * n_];
  }

  void set_average(std::int32_t node, std::int32_t board, std::int32_t hand,
                   std::span<const double> probabilities) override {
    const int a = g_.nodes[node].num_actions;
    const std::int64_t base = g_.offset[node] + static_cast<std::int64_t>(board) * n_ * a + hand;
    for (int k = 0; k < a; ++k)
      averages_[base + static_cast<std::int64_t>(k) * n_] = static_cast<Real>(probabilities[k]);
  }

 private:
  struct Worker {
    std::vector<Real> scratch;
    // The last round's walk in phases (last_round()), per plan entry: the reach that changed
    // there, the values, σ; and the terminals' reaches and values in lanes, hand-major.
    std::vector<Real> reach, value, sigma;
    std::vector<const Real*> rt_of, ro_of;
    std::vector<Real> showdown_reach, showdown_value, fold_reach, fold_value;
  };
  // What one pass does: a CFR update (current strategies, regrets and averages written), or
  // an evaluation of the averages (a best response for the traverser, or its average too).
  struct Pass {
    bool cfr = false, best_response = false;
    int traverser = 0;
    Real pos_discount = 1, neg_discount = 1, avg_discount = 1, avg_weight = 1;
    bool plus = true;     // CFR+ (floor, weight t) rather than DCFR
    bool average = true;  // a CFR pass adds to the traverser's average strategy
  };

  Real* sc(Worker& w, int depth, int slot) const {
    return w.scratch.data() + (static_cast<std::int64_t>(depth) * kSlots + slot) * n_;
  }

  // σ of every hand at (node, board): regret matching (current) or the average. Action-major
  // ([action][hand]) with loops over hands innermost, so that each one vectorises.
  void strategy(std::int32_t node, std::int32_t board, bool current, Real* sigma) const {
    const int a = g_.nodes[node].num_actions;
    const std::int64_t base = g_.offset[node] + static_cast<std::int64_t>(board) * n_ * a;
    const Real* table = (current ? regrets_.data() : averages_.data()) + base;
    if (a == 3)
      current ? normalise<3, true>(table, sigma) : normalise<3, false>(table, sigma);
    else if (a == 2)
      current ? normalise<2, true>(table, sigma) : normalise<2, false>(table, sigma);
    else
      current ? normalise<1, true>(table, sigma) : normalise<1, false>(table, sigma);
  }
  // One pass over the hands, the A actions' entries of a hand side by side in registers.
  // `Positive`: regret matching (negative entries count as 0).
  template <int A, bool Positive>
  void normalise(const Real* __restrict table, Real* __restrict sigma) const {
    const std::int32_t n = n_;
    const Real uniform = Real(1) / static_cast<Real>(A);
    for (std::int32_t h = 0; h < n; ++h) {
      Real x[A];
      Real sum = 0;
      for (int k = 0; k < A; ++k) {
        x[k] = table[static_cast<std::int64_t>(k) * n + h];
        if constexpr (Positive) x[k] = x[k] > 0 ? x[k] : Real(0);
        sum += x[k];
      }
      const Real inverse = sum > 0 ? Real(1) / sum : Real(0);
      for (int k = 0; k < A; ++k)
        sigma[static_cast<std::int64_t>(k) * n + h] = sum > 0 ? x[k] * inverse : uniform;
    }
  }

  void walk(Worker& w, const Pass& p, std::int32_t node, std::int32_t board, const Real* rt,
            const Real* ro, Real* out, int depth, bool top) {
    const std::int32_t n = n_;
    if (const std::int32_t plan = g_.plan_of[node]; plan >= 0) {
      last_round(w, p, g_.last_round_plans[plan], board, rt, ro, out);
      return;
    }
    const FlatNode& f = g_.nodes[node];
    if (f.kind == NodeKind::kFold) {
      const Real* live = live_[g_.level_of(node)].data() + static_cast<std::int64_t>(board) * n;
      range_fold_values(g_.hands, live, ro, static_cast<Real>(f.win[p.traverser]), out);
      return;
    }
    if (f.kind == NodeKind::kShowdown) {
      range_showdown_values(g_.hands, g_.showdown[board], ro, static_cast<Real>(f.win[p.traverser]),
                            static_cast<Real>(f.lose[p.traverser]), out);
      return;
    }
    const int a = f.num_actions;
    Real* sigma = sc(w, depth, 3);
    Real* child_reach = sc(w, depth, 6);
    const bool own = f.player == p.traverser;
    if (!(own && p.best_response)) strategy(node, board, p.cfr, sigma);
    for (int k = 0; k < a; ++k) {
      Real* v = sc(w, depth, k);
      const std::int32_t c = f.child[k];
      const Real* rt_c = rt;
      const Real* ro_c = ro;
      const Real* sigk = sigma + static_cast<std::int64_t>(k) * n;
      if (own) {
        // Only a CFR pass needs the traverser's own reach (for the average).
        if (p.cfr) {
          for (std::int32_t h = 0; h < n; ++h) child_reach[h] = rt[h] * sigk[h];
          rt_c = child_reach;
        }
      } else {
        for (std::int32_t h = 0; h < n; ++h) child_reach[h] = ro[h] * sigk[h];
        ro_c = child_reach;
      }
      if (g_.nodes[c].round != f.round)
        chance(w, p, c, board, rt_c, ro_c, v, depth + 1, top);
      else
        walk(w, p, c, board, rt_c, ro_c, v, depth + 1, top);
    }
    const Real* v[kNumActionKinds] = {};
    for (int k = 0; k < a; ++k) v[k] = sc(w, depth, k);
    combine(p, node, board, sigma, v, rt, out);
  }

  // A decision node's values from its children's `v`, with σ its strategy (unset for the
  // traverser's in a best response): their sum at the opponent's, the max or σ's mix at the
  // traverser's, whose regrets and average a CFR pass updates (rt: the traverser's reach).
  void combine(const Pass& p, std::int32_t node, std::int32_t board, const Real* sigma,
               const Real* const* v, const Real* rt, Real* out) {
    const std::int32_t n = n_;
    const FlatNode& f = g_.nodes[node];
    const int a = f.num_actions;
    const bool own = f.player == p.traverser;
    if (!own) {
      for (std::int32_t h = 0; h < n; ++h) out[h] = v[0][h];
      for (int k = 1; k < a; ++k)
        for (std::int32_t h = 0; h < n; ++h) out[h] += v[k][h];
      return;
    }
    if (p.best_response) {
      for (std::int32_t h = 0; h < n; ++h) out[h] = v[0][h];
      for (int k = 1; k < a; ++k)
        for (std::int32_t h = 0; h < n; ++h) out[h] = std::max(out[h], v[k][h]);
      return;
    }
    for (std::int32_t h = 0; h < n; ++h) out[h] = sigma[h] * v[0][h];
    for (int k = 1; k < a; ++k) {
      const Real* sigk = sigma + static_cast<std::int64_t>(k) * n;
      for (std::int32_t h = 0; h < n; ++h) out[h] += sigk[h] * v[k][h];
    }
    if (!p.cfr) return;
    const std::int64_t base = g_.offset[node] + static_cast<std::int64_t>(board) * n * a;
    Real* r = regrets_.data() + base;
    Real* s = averages_.data() + base;
    // Hands that touch the board have reach and values 0, so their regrets and averages stay
    // 0 without a test.
    for (int k = 0; k < a; ++k) {
      const Real* vk = v[k];
      Real* rk = r + static_cast<std::int64_t>(k) * n;
      Real* sk = s + static_cast<std::int64_t>(k) * n;
      const Real* sigk = sigma + static_cast<std::int64_t>(k) * n;
      if (p.plus) {
        for (std::int32_t h = 0; h < n; ++h) {
          const Real x = rk[h] + (vk[h] - out[h]);
          rk[h] = x > 0 ? x : Real(0);
        }
      } else {
        for (std::int32_t h = 0; h < n; ++h) {
          const Real x = rk[h] + (vk[h] - out[h]);
          rk[h] = x * (x > 0 ? p.pos_discount : p.neg_discount);
        }
      }
      if (!p.average) continue;
      for (std::int32_t h = 0; h < n; ++h)
        sk[h] = (sk[h] + p.avg_weight * rt[h] * sigk[h]) * p.avg_discount;
    }
  }

  // The last round below a plan's root (range_last_round_plan.h), in three phases: the
  // reaches down the decision nodes, every terminal's values at once in lanes, the values
  // back up. Each node sees the vectors the recursion would give it, so the result is the
  // same bits.
  void last_round(Worker& w, const Pass& p, const RangeLastRoundPlan& plan, std::int32_t board,
                  const Real* rt, const Real* ro, Real* out) {
    const std::int32_t n = n_;
    const auto count = static_cast<std::int32_t>(plan.entries.size());
    const int sw = plan.showdown_width, fw = plan.fold_width;
    const auto slot = [&](std::vector<Real>& v, std::int32_t e, std::int64_t per) {
      return v.data() + static_cast<std::int64_t>(e) * per;
    };
    w.rt_of[0] = rt;
    w.ro_of[0] = ro;
    for (std::int32_t e = 0; e < count; ++e) {
      const FlatNode& f = g_.nodes[plan.entries[e].node];
      if (f.kind != NodeKind::kDecision) continue;
      const bool own = f.player == p.traverser;
      Real* sigma = slot(w.sigma, e, kNumActionKinds * static_cast<std::int64_t>(n));
      if (!(own && p.best_response)) strategy(plan.entries[e].node, board, p.cfr, sigma);
      const Real* rt_e = w.rt_of[e];
      const Real* ro_e = w.ro_of[e];
      for (int k = 0; k < f.num_actions; ++k) {
        const std::int32_t c = plan.children[e][k];
        const FlatNode& fc = g_.nodes[plan.entries[c].node];
        const Real* sigk = sigma + static_cast<std::int64_t>(k) * n;
        if (fc.kind != NodeKind::kDecision) {
          // The opponent's reach at the terminal, into its lane.
          const bool showdown = fc.kind == NodeKind::kShowdown;
          const int width = showdown ? sw : fw;
          Real* lane = (showdown ? w.showdown_reach : w.fold_reach).data() + plan.entries[c].lane;
          if (own)
            for (std::int32_t h = 0; h < n; ++h)
              lane[static_cast<std::int64_t>(h) * width] = ro_e[h];
          else
            for (std::int32_t h = 0; h < n; ++h)
              lane[static_cast<std::int64_t>(h) * width] = ro_e[h] * sigk[h];
          continue;
        }
        w.rt_of[c] = rt_e;
        w.ro_of[c] = ro_e;
        Real* reach = slot(w.reach, c, n);
        if (own) {
          if (p.cfr) {
            for (std::int32_t h = 0; h < n; ++h) reach[h] = rt_e[h] * sigk[h];
            w.rt_of[c] = reach;
          }
        } else {
          for (std::int32_t h = 0; h < n; ++h) reach[h] = ro_e[h] * sigk[h];
          w.ro_of[c] = reach;
        }
      }
    }
    const int t = p.traverser;
    const Real* live =
        live_[g_.boards.num_levels() - 1].data() + static_cast<std::int64_t>(board) * n;
    Real fold_payoff[kMostLastRoundLanes];
    for (int k = 0; k < fw; ++k) fold_payoff[k] = static_cast<Real>(plan.fold_payoff[t][k]);
    showdown_lanes(sw, g_.showdown[board], w.showdown_reach.data(), plan.win[t].data(),
                   plan.lose[t].data(), w.showdown_value.data());
    fold_lanes(fw, live, w.fold_reach.data(), fold_payoff, w.fold_value.data());
    for (std::int32_t e = count - 1; e >= 0; --e) {
      const FlatNode& f = g_.nodes[plan.entries[e].node];
      if (f.kind != NodeKind::kDecision) continue;
      const Real* v[kNumActionKinds] = {};
      for (int k = 0; k < f.num_actions; ++k) {
        const std::int32_t c = plan.children[e][k];
        const FlatNode& fc = g_.nodes[plan.entries[c].node];
        Real* value = slot(w.value, c, n);
        v[k] = value;
        if (fc.kind == NodeKind::kDecision) continue;
        const bool showdown = fc.kind == NodeKind::kShowdown;
        const int width = showdown ? sw : fw;
        const Real* lane =
            (showdown ? w.showdown_value : w.fold_value).data() + plan.entries[c].lane;
        for (std::int32_t h = 0; h < n; ++h) value[h] = lane[static_cast<std::int64_t>(h) * width];
      }
      combine(p, plan.entries[e].node, board,
              slot(w.sigma, e, kNumActionKinds * static_cast<std::int64_t>(n)), v, w.rt_of[e],
              e == 0 ? out : slot(w.value, e, n));
    }
  }

  void showdown_lanes(int width, const RangeShowdown& order, const Real* reach, const double* win,
                      const double* lose, Real* out) const {
    switch (width) {
      case 4:
        return range_showdown_lanes<Real, 4>(g_.hands, order, reach, win, lose, out);
      case 8:
        return range_showdown_lanes<Real, 8>(g_.hands, order, reach, win, lose, out);
      case 12:
        return range_showdown_lanes<Real, 12>(g_.hands, order, reach, win, lose, out);
      default:
        return range_showdown_lanes<Real, 16>(g_.hands, order, reach, win, lose, out);
    }
  }
  void fold_lanes(int width, const Real* live, const Real* reach, const Real* payoff,
                  Real* out) const {
    switch (width) {
      case 4:
        return range_fold_lanes<Real, 4>(g_.hands, live, reach, payoff, out);
      case 8:
        return range_fold_lanes<Real, 8>(g_.hands, live, reach, payoff, out);
      case 12:
        return range_fold_lanes<Real, 12>(g_.hands, live, reach, payoff, out);
      default:
        return range_fold_lanes<Real, 16>(g_.hands, live, reach, payoff, out);
    }
  }

  // `node` starts the next round below board `board`: deal every child board.
  void chance(Worker& w, const Pass& p, std::int32_t node, std::int32_t board, const Real* rt,
              const Real* ro, Real* out, int depth, bool top) {
    const std::int32_t n = n_;
    const int parent_level = g_.level_of(node) - 1;
    const SubgameBoard& b = g_.boards.level(parent_level)[board];
    const std::int32_t count = g_.boards.children_per_board(parent_level);
    const Real scale =
        static_cast<Real>(1.0 / static_cast<double>(g_.boards.compatible_children(parent_level)));
    const int threads = std::max(1, g_.options.threads);
    if (top && threads > 1 && count > 1 &&
        static_cast<std::int64_t>(count) * n >= g_.options.parallel_work) {
      chance_values_.resize(static_cast<std::size_t>(count) * n);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
      for (std::int32_t i = 0; i < count; ++i) {
        Worker& mine = workers_[omp_get_thread_num()];
        deal(mine, p, node, b.first_child + i, rt, ro,
             chance_values_.data() + static_cast<std::int64_t>(i) * n, depth);
      }
      std::fill(out, out + n, Real(0));
      for (std::int32_t i = 0; i < count; ++i) {
        const Real* v = chance_values_.data() + static_cast<std::int64_t>(i) * n;
        for (std::int32_t h = 0; h < n; ++h) out[h] += v[h];
      }
    } else {
      std::fill(out, out + n, Real(0));
      Real* v = sc(w, depth, 9);
      for (std::int32_t i = 0; i < count; ++i) {
        deal(w, p, node, b.first_child + i, rt, ro, v, depth);
        for (std::int32_t h = 0; h < n; ++h) out[h] += v[h];
      }
    }
    for (std::int32_t h = 0; h < n; ++h) out[h] *= scale;
  }

  // One deal of a chance node: the reaches without the hands that touch the new cards.
  void deal(Worker& w, const Pass& p, std::int32_t node, std::int32_t child, const Real* rt,
            const Real* ro, Real* out, int depth) {
    const std::int32_t n = n_;
    const Real* live = live_[g_.level_of(node)].data() + static_cast<std::int64_t>(child) * n;
    Real* rt_c = sc(w, depth, 7);
    Real* ro_c = sc(w, depth, 8);
    for (std::int32_t h = 0; h < n; ++h) {
      rt_c[h] = live[h] * rt[h];
      ro_c[h] = live[h] * ro[h];
    }
    walk(w, p, node, child, rt_c, ro_c, out, depth, false);
  }

  // The reach at the root of `position`: its range, or the gadget's: per hand the probability
  // of entering (resolve), or the distribution over the hands it enters with (max-margin).
  void root_reach(int position, Real* out) const {
    const std::vector<double>& range = g_.ranges[position];
    if (position != g_.gadget_player) {
      for (std::int32_t h = 0; h < n_; ++h) out[h] = static_cast<Real>(range[h]);
      return;
    }
    if (g_.gadget_kind == RangeSolverGadget::kMaxMargin) {
      double sum = 0.0;
      for (std::int32_t h = 0; h < n_; ++h) sum += std::max(0.0, gadget_regrets_[h]);
      for (std::int32_t h = 0; h < n_; ++h)
        out[h] = static_cast<Real>(sum > 0 ? std::max(0.0, gadget_regrets_[h]) / sum
                                           : 1.0 / static_cast<double>(n_));
      return;
    }
    for (std::int32_t h = 0; h < n_; ++h)
      out[h] = static_cast<Real>(enter_probability(gadget_regrets_.data() + 2 * h));
  }

  // Regret matching over the resolve gadget's two choices [terminate, enter]: σ(enter).
  static double enter_probability(const double* r) {
    const double t = std::max(0.0, r[0]), e = std::max(0.0, r[1]);
    return t + e > 0 ? e / (t + e) : 0.5;
  }

  static double updated_regret(const Pass& p, double x) {
    if (p.plus) return x > 0 ? x : 0.0;
    return x * static_cast<double>(x > 0 ? p.pos_discount : p.neg_discount);
  }

  void run_pass(const Pass& p, bool use_gadget, Real* out) {
    Worker& w = workers_[0];
    std::vector<Real> rt(n_), ro(n_);
    if (use_gadget) {
      root_reach(p.traverser, rt.data());
      root_reach(1 - p.traverser, ro.data());
    } else {
      for (std::int32_t h = 0; h < n_; ++h) {
        rt[h] = static_cast<Real>(g_.ranges[p.traverser][h]);
        ro[h] = static_cast<Real>(g_.ranges[1 - p.traverser][h]);
      }
    }
    walk(w, p, g_.root, 0, rt.data(), ro.data(), out, 0, true);
    if (!use_gadget || !p.cfr || p.traverser != g_.gadget_player) return;
    const std::vector<double>& terminate = g_.terminate_values;
    if (g_.gadget_kind == RangeSolverGadget::kMaxMargin) {
      // One choice among the hands, each worth its margin's opposite, out(o) − T(o): regret
      // matching drives the re-solver to the strategy whose smallest margin is largest.
      double mean = 0.0;
      for (std::int32_t h = 0; h < n_; ++h)
        mean += static_cast<double>(rt[h]) * (static_cast<double>(out[h]) - terminate[h]);
      for (std::int32_t h = 0; h < n_; ++h)
        gadget_regrets_[h] = updated_regret(
            p, gadget_regrets_[h] + (static_cast<double>(out[h]) - terminate[h]) - mean);
      return;
    }
    // The gadget's own regrets: terminate (T) against enter (the subgame's value).
    for (std::int32_t h = 0; h < n_; ++h) {
      double* r = gadget_regrets_.data() + 2 * h;
      const double enter = enter_probability(r);
      const double v[2] = {terminate[h], static_cast<double>(out[h])};
      const double mean = (1.0 - enter) * v[0] + enter * v[1];
      for (int k = 0; k < 2; ++k) r[k] = updated_regret(p, r[k] + (v[k] - mean));
    }
  }

  const RangeSubgame& g_;
  const std::int32_t n_;
  ZeroTable<Real> regrets_, averages_;
  std::vector<std::vector<Real>> live_;  // [level][board * n + h]: 1, or 0 (touches the board)
  std::vector<Worker> workers_;
  std::vector<Real> chance_values_;     // per child board of a parallel chance node
  std::vector<double> gadget_regrets_;  // resolve: [o][T, enter]; max-margin: [o]
  std::int64_t t_ = 0;
};

}  // namespace

std::unique_ptr<RangeSolverWalk> make_range_solver_walk(const RangeSubgame& subgame) {
  if (subgame.options.precision == RangeSolverOptions::Precision::kSingle)
    return std::make_unique<Walk<float>>(subgame);
  return std::make_unique<Walk<double>>(subgame);
}

}  // namespace hulhe
