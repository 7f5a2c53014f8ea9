// The interpreted walk of the last round (holdem_last_round.h), for chunks the unrolled limit
// kernel does not serve: compile() turns one seat's subtree of a chunk into a program (the
// opponent's reach vectors, how each is formed, which need per-card sums, renumbered so that
// every list the walk loops over is a dense range) and walk_chunk() runs it over the deals,
// hands in blocks, the program interpreted once per block.
#include <algorithm>
#include <map>
#include <vector>

#include "best_response/holdem/holdem_last_round.h"
#include "best_response/holdem/limit_last_round_kernel.h"
#include "game/betting_tree.h"

namespace hulhe {
namespace {

constexpr int kCards = kMaxCards;
// Hands per block of the last-round walk: its per-block arrays stay in L1/L2.
constexpr std::int32_t kBlock = 16;

using limit_last_round::lanes_max;

}  // namespace

template <typename Real>
typename HoldemLastRound<Real>::Program HoldemLastRound<Real>::compile(
    const std::vector<std::int32_t>& shape_nodes, int seat, const Chunk& c,
    const std::vector<std::vector<std::int32_t>>& lane_nodes,
    const std::vector<std::int32_t>& pos_slot) const {
  const BettingTree& tree = opp_.tree();
  const auto P = static_cast<std::int32_t>(shape_nodes.size());
  std::map<std::int32_t, std::int32_t> pos_of;  // shape node -> position
  for (std::int32_t k = 0; k < P; ++k) pos_of[shape_nodes[k]] = k;
  const std::size_t nb = static_cast<std::size_t>(opp_buckets_);
  Program prog;
  prog.pos.resize(P);
  prog.vec.push_back(ReachVector{});
  std::vector<bool> dead(P, false);
  // Opponent positions whose children's totals may be derived: (parent vector, children).
  std::vector<std::pair<std::int32_t, std::vector<std::int32_t>>> families;
  for (std::int32_t k = 0; k < P; ++k) {
    const BettingNode& b = tree.node(shape_nodes[k]);
    Position& pos = prog.pos[k];
    if (k == 0) pos.vec = 0;
    if (dead[k]) {
      pos.kind = Kind::kZero;
      if (b.kind == NodeKind::kDecision)
        for (int a = 0; a < b.num_actions; ++a) dead[pos_of[b.child[a]]] = true;
      continue;
    }
    if (b.kind == NodeKind::kFold || b.kind == NodeKind::kShowdown) {
      pos.kind = b.kind == NodeKind::kFold ? Kind::kFold : Kind::kShowdown;
      pos.term = static_cast<std::int32_t>(prog.coef.size());
      prog.coef.push_back(terminal_coef(c, lane_nodes, static_cast<std::size_t>(k), seat));
      ReachVector& v = prog.vec[pos.vec];
      v.totals = true;
      if (b.kind == NodeKind::kShowdown) v.showdown = true;
      continue;
    }
    pos.num_children = b.num_actions;
    pos.slot = static_cast<std::int32_t>(c.table + pos_slot[k]);
    for (int a = 0; a < b.num_actions; ++a) pos.child[a] = pos_of[b.child[a]];
    if (b.player == seat) {
      pos.kind = Kind::kResponder;
      for (int a = 0; a < b.num_actions; ++a) prog.pos[pos.child[a]].vec = pos.vec;
      continue;
    }
    pos.kind = Kind::kOpponent;
    std::vector<std::int32_t> children;
    for (int a = 0; a < b.num_actions; ++a) {
      const std::int64_t slot = c.table + pos_slot[k] + a;
      if (never_taken(c, pos_slot[k] + a)) {
        dead[pos.child[a]] = true;
        continue;
      }
      ReachVector v;
      v.parent = pos.vec;
      v.slot = static_cast<std::int32_t>(slot);
      v.family = k;
      prog.pos[pos.child[a]].vec = static_cast<std::int32_t>(prog.vec.size());
      children.push_back(static_cast<std::int32_t>(prog.vec.size()));
      prog.vec.push_back(v);
    }
    if (sums_to_one(c, pos_slot[k], b.num_actions)) families.emplace_back(pos.vec, children);
  }
  // Which vectors are formed per hand: those with terminals and their ancestors.
  const auto V = static_cast<std::int32_t>(prog.vec.size());
  std::vector<bool> needed(V, false);
  for (std::int32_t v = V - 1; v >= 0; --v) {
    if (prog.vec[v].totals) needed[v] = true;
    if (needed[v] && prog.vec[v].parent >= 0) needed[prog.vec[v].parent] = true;
  }
  for (std::int32_t v = 0; v < V; ++v) {
    ReachVector& rv = prog.vec[v];
    if (needed[v]) prog.computed.push_back(v);
    if (rv.showdown) rv.direct = true;
  }
  // Totals of a fold-only vector: parent minus siblings when those are summed anyway.
  for (const auto& [parent, children] : families) {
    if (!prog.vec[parent].direct) continue;
    for (std::int32_t f : children) {
      ReachVector& rv = prog.vec[f];
      if (!rv.totals || rv.showdown) continue;
      bool ok = true;
      for (std::int32_t s : children)
        if (s != f && !prog.vec[s].showdown) ok = false;
      if (!ok) continue;
      rv.derive_from = parent;
      for (std::int32_t s : children)
        if (s != f) rv.derive_minus.push_back(s);
    }
  }
  // The last formed child of an opponent node whose σ sums to 1 is its parent minus its
  // siblings: one subtraction per sibling instead of a strategy line per hand.
  for (const auto& [parent, children] : families) {
    if (children.size() < 2 || children.size() > 3 || !needed[parent]) continue;
    bool all = true;
    for (std::int32_t f : children) all = all && needed[f];
    if (all) prog.vec[children.back()].rest = true;
  }
  for (std::size_t k = 1; k < prog.computed.size(); ++k) {
    const std::int32_t v = prog.computed[k];
    const ReachVector& rv = prog.vec[v];
    FormOp op;
    op.dst = v;
    op.src = rv.parent;
    if (rv.rest) {
      int j = 0;
      for (std::size_t k2 = 1; k2 < prog.computed.size(); ++k2) {
        const std::int32_t u = prog.computed[k2];
        if (u != v && prog.vec[u].family == rv.family) op.minus[j++] = u;
      }
    } else {
      op.row = prog.columns++;
    }
    prog.form.push_back(op);
  }
  prog.sigma.assign(nb * static_cast<std::size_t>(prog.columns), Lanes{});
  for (const FormOp& op : prog.form)
    if (op.row >= 0)
      copy_strategy_column(prog.vec[op.dst].slot - c.table, prog.sigma,
                           static_cast<std::size_t>(prog.columns),
                           static_cast<std::size_t>(op.row));
  for (std::int32_t v = 0; v < V; ++v) {
    ReachVector& rv = prog.vec[v];
    if (!rv.totals) continue;
    if (rv.derive_from >= 0) {
      prog.derived.push_back(v);
    } else {
      rv.direct = true;
      prog.direct.push_back(v);
    }
    if (rv.showdown) prog.swept.push_back(v);
  }
  // Renumber the vectors so that the walk's lists are ranges: swept (showdown) vectors
  // [0, ns), other directly summed ones [ns, nd), derived ones [nd, nd + nf), the rest after.
  // Per-hand loops then run over dense indices.
  std::vector<std::int32_t> order;
  for (std::int32_t v : prog.swept) order.push_back(v);
  for (std::int32_t v : prog.direct)
    if (!prog.vec[v].showdown) order.push_back(v);
  for (std::int32_t v : prog.derived) order.push_back(v);
  std::vector<std::int32_t> to(V, -1);
  for (std::size_t k = 0; k < order.size(); ++k) to[order[k]] = static_cast<std::int32_t>(k);
  for (std::int32_t v = 0; v < V; ++v)
    if (to[v] < 0) {
      to[v] = static_cast<std::int32_t>(order.size());
      order.push_back(v);
    }
  auto map = [&](std::int32_t v) { return v < 0 ? v : to[v]; };
  std::vector<ReachVector> vec(V);
  for (std::int32_t v = 0; v < V; ++v) {
    ReachVector rv = prog.vec[v];
    rv.parent = map(rv.parent);
    rv.derive_from = map(rv.derive_from);
    for (std::int32_t& m : rv.derive_minus) m = map(m);
    vec[to[v]] = std::move(rv);
  }
  prog.vec = std::move(vec);
  for (Position& q : prog.pos) q.vec = map(q.vec);
  for (std::int32_t& v : prog.computed) v = map(v);
  for (FormOp& op : prog.form) {
    op.dst = map(op.dst);
    op.src = map(op.src);
    for (std::int32_t& m : op.minus) m = map(m);
  }
  for (auto* list : {&prog.swept, &prog.direct, &prog.derived})
    for (std::int32_t& v : *list) v = map(v);
  prog.root = to[0];
  // A fold-only vector whose fold sums come by linearity is never formed itself unless
  // another vector is formed from it.
  const auto nd = static_cast<std::int32_t>(prog.direct.size());
  const auto nt = nd + static_cast<std::int32_t>(prog.derived.size());
  std::vector<bool> formed(V, true);
  for (std::int32_t v = nd; v < nt; ++v) formed[v] = false;
  for (auto it = prog.form.rbegin(); it != prog.form.rend(); ++it) {
    if (!formed[it->dst]) continue;
    formed[it->src] = true;
    for (std::int32_t m : it->minus)
      if (m >= 0) formed[m] = true;
  }
  std::erase_if(prog.form, [&](const FormOp& op) { return !formed[op.dst]; });
  // Keep only the strategy columns still read.
  std::vector<Lanes> sigma;
  std::int32_t columns = 0;
  std::vector<std::int32_t> column_of(prog.columns, -1);
  for (FormOp& op : prog.form)
    if (op.row >= 0) {
      column_of[op.row] = columns;
      op.row = columns++;
    }
  sigma.assign(nb * static_cast<std::size_t>(columns), Lanes{});
  for (std::size_t b = 0; b < nb; ++b)
    for (std::int32_t r = 0; r < prog.columns; ++r)
      if (column_of[r] >= 0) sigma[b * columns + column_of[r]] = prog.sigma[b * prog.columns + r];
  prog.sigma = std::move(sigma);
  prog.columns = columns;
  return prog;
}

template <typename Real>
void HoldemLastRound<Real>::walk_chunk(Scratch& s, const Chunk& c, int seat,
                                       std::int32_t deals) const {
  if (c.limit[seat].cap > 0) {
    walk_limit(s, c, seat, deals);
    return;
  }
  const Program& P = c.program[seat];
  const auto V = static_cast<std::size_t>(P.vec.size());
  const auto np = static_cast<std::int32_t>(P.pos.size());
  const FormOp* ops = P.form.data();
  const auto nops = static_cast<std::int32_t>(P.form.size());
  const std::size_t cols = static_cast<std::size_t>(P.columns);
  // Vector ranges (compile): swept [0, ns), directly summed [0, nd), with totals [0, nt).
  const auto ns = static_cast<std::int32_t>(P.swept.size());
  const auto nd = static_cast<std::int32_t>(P.direct.size());
  const auto nt = nd + static_cast<std::int32_t>(P.derived.size());
  const auto NS = static_cast<std::size_t>(ns);
  const auto NT = static_cast<std::size_t>(nt);
  const auto ND = static_cast<std::size_t>(nd);
  // Per-hand rows: hand j of a block at row j. A block is at most kBlock hands unless one
  // group of tied hands is longer, so rows are allotted for n hands.
  const std::size_t n = static_cast<std::size_t>(n_);
  s.card_total.resize(kCards * ND);
  s.card_below.resize(kCards * NS);
  s.total.resize(ND);  // derived vectors need no totals (their fold sums come by linearity)
  s.below.resize(NS);
  s.reach_block.resize(n * V);
  s.fold_block.resize(n * NT);
  s.showdown_block.resize(n * NS);
  s.below_block.resize(n * NS);
  s.value_block.resize(n * static_cast<std::size_t>(np));
  if (s.zero_block.size() != n) s.zero_block.assign(n, Lanes{});  // never written
  Lanes* ct = s.card_total.data();                                // [card][vector < nd]
  Lanes* cb = s.card_below.data();                                // [card][vector < ns]
  Lanes* tot = s.total.data();
  Lanes* below = s.below.data();
  Lanes* rb = s.reach_block.data();     // [hand][vector]: opponent reach
  Lanes* fb = s.fold_block.data();      // [hand][vector < nt]: disjoint reach (fold sums)
  Lanes* db = s.showdown_block.data();  // [hand][vector < ns]: showdown sums (win - lose)
  Lanes* wb = s.below_block.data();     // [hand][vector < ns]: tied groups, W before the group
  Lanes* vb = s.value_block.data();     // [position][hand]: subtree values
  const Lanes* zb = s.zero_block.data();
  const Lanes* sigma = P.sigma.data();
  const Lanes* F = fixed_strategy_.data();
  const std::size_t nbf = static_cast<std::size_t>(fix_buckets_);
  const Lanes* R = s.reach.data();
  Lanes* A = s.acc.data();
  const bool br = fixed_ == nullptr;
  const std::size_t root = static_cast<std::size_t>(P.root);

  // The opponent's reach at every vector for the hands of a block; the program's
  // interpretation (which vector, which strategy column) is paid once per block.
  auto form = [&](const std::int32_t* hand, const std::int32_t* bko, std::int32_t nb) {
    for (std::int32_t j = 0; j < nb; ++j) rb[j * V + root] = R[hand[j]];
    for (std::int32_t k = 0; k < nops; ++k) {
      const FormOp& op = ops[k];
      Lanes* dst = rb + op.dst;
      const Lanes* src = rb + op.src;
      if (op.row >= 0) {
        const Lanes* col = sigma + op.row;
        for (std::int32_t j = 0; j < nb; ++j)
          dst[j * V] = src[j * V] * col[static_cast<std::size_t>(bko[j]) * cols];
      } else if (op.minus[1] < 0) {
        const Lanes* m0 = rb + op.minus[0];
        for (std::int32_t j = 0; j < nb; ++j) dst[j * V] = src[j * V] - m0[j * V];
      } else {
        const Lanes* m0 = rb + op.minus[0];
        const Lanes* m1 = rb + op.minus[1];
        for (std::int32_t j = 0; j < nb; ++j) dst[j * V] = src[j * V] - m0[j * V] - m1[j * V];
      }
    }
  };

  for (std::int32_t d = 0; d < deals; ++d) {
    const std::size_t o = static_cast<std::size_t>(d) * n_;
    const std::int32_t m = s.deals.size[d];
    const std::int32_t* hand = s.deals.hand.data() + o;
    const std::int32_t* bko = s.deals.bucket_opp.data() + o;
    const std::int32_t* bkf = s.deals.bucket_fix.data() + o;
    const std::uint8_t* ca = s.deals.card_a.data() + o;
    const std::uint8_t* cbd = s.deals.card_b.data() + o;
    const std::int32_t* gend = s.deals.group_end.data() + o;
    const Lanes weight = Lanes{} + static_cast<Real>(s.deals.weight[d]);

    // Pre-pass: per-card reach of every directly summed vector; each hand holds two cards,
    // so the total is half the sum over cards.
    std::fill(ct, ct + kCards * ND, Lanes{});
    for (std::int32_t i0 = 0; i0 < m; i0 += kBlock) {
      const std::int32_t nb = std::min(kBlock, m - i0);
      form(hand + i0, bko + i0, nb);
      for (std::int32_t j = 0; j < nb; ++j) {
        Lanes* xa = ct + ca[i0 + j] * ND;
        Lanes* xb = ct + cbd[i0 + j] * ND;
        const Lanes* r = rb + j * V;
        for (std::int32_t k = 0; k < nd; ++k) {
          xa[k] += r[k];
          xb[k] += r[k];
        }
      }
    }
    for (std::int32_t k = 0; k < nd; ++k) tot[k] = Lanes{};
    for (int q = 0; q < kCards; ++q)
      for (std::int32_t k = 0; k < nd; ++k) tot[k] += ct[q * ND + k];
    for (std::int32_t k = 0; k < nd; ++k) tot[k] *= Real{0.5};
    for (std::int32_t k = 0; k < ns; ++k) below[k] = Lanes{};
    std::fill(cb, cb + kCards * NS, Lanes{});

    // Sweep in rank order, block by block; blocks end at the end of a group of tied hands.
    for (std::int32_t i0 = 0; i0 < m;) {
      std::int32_t i1 = i0;
      while (i1 < m && i1 - i0 < kBlock) i1 = gend[i1];
      const std::int32_t nb = i1 - i0;
      const std::uint8_t* a_ = ca + i0;
      const std::uint8_t* b_ = cbd + i0;
      form(hand + i0, bko + i0, nb);
      // Fold sums: the disjoint opponent reach of every vector with totals; a fold-only
      // vector's is its parent's minus its siblings' (the opponent's probabilities sum to 1,
      // and the sum is linear in the reach).
      for (std::int32_t j = 0; j < nb; ++j) {
        const Lanes* xa = ct + a_[j] * ND;
        const Lanes* xb = ct + b_[j] * ND;
        const Lanes* r = rb + j * V;
        Lanes* f = fb + j * NT;
        for (std::int32_t k = 0; k < nd; ++k) f[k] = tot[k] - xa[k] - xb[k] + r[k];
        for (std::int32_t k = nd; k < nt; ++k) {
          const ReachVector& rv = P.vec[k];
          Lanes y = f[rv.derive_from];
          for (std::int32_t sib : rv.derive_minus) y -= f[sib];
          f[k] = y;
        }
      }
      // W: disjoint reach strictly below; W': below or tied (less the hand itself); the
      // showdown sum (win minus lose) is W + W' - (fold sum - own reach).
      for (std::int32_t j = 0; j < nb;) {
        const std::int32_t g1 = gend[i0 + j] - i0;
        if (g1 == j + 1) {
          Lanes* xa = cb + a_[j] * NS;
          Lanes* xb = cb + b_[j] * NS;
          const Lanes* r = rb + j * V;
          const Lanes* f = fb + j * NT;
          Lanes* dd = db + j * NS;
          for (std::int32_t k = 0; k < ns; ++k) {
            const Lanes w = below[k] - xa[k] - xb[k];
            dd[k] = w + w - f[k];
            below[k] += r[k];
            xa[k] += r[k];
            xb[k] += r[k];
          }
          j = g1;
          continue;
        }
        // A group of tied hands: W before adding the group, W' after.
        for (std::int32_t q = j; q < g1; ++q) {
          const Lanes* xa = cb + a_[q] * NS;
          const Lanes* xb = cb + b_[q] * NS;
          Lanes* w = wb + q * NS;
          for (std::int32_t k = 0; k < ns; ++k) w[k] = below[k] - xa[k] - xb[k];
        }
        for (std::int32_t q = j; q < g1; ++q) {
          Lanes* xa = cb + a_[q] * NS;
          Lanes* xb = cb + b_[q] * NS;
          const Lanes* r = rb + q * V;
          for (std::int32_t k = 0; k < ns; ++k) {
            below[k] += r[k];
            xa[k] += r[k];
            xb[k] += r[k];
          }
        }
        for (std::int32_t q = j; q < g1; ++q) {
          const Lanes* xa = cb + a_[q] * NS;
          const Lanes* xb = cb + b_[q] * NS;
          const Lanes* r = rb + q * V;
          const Lanes* f = fb + q * NT;
          const Lanes* w = wb + q * NS;
          Lanes* dd = db + q * NS;
          for (std::int32_t k = 0; k < ns; ++k)
            dd[k] = w[k] + (below[k] - xa[k] - xb[k]) - (f[k] - r[k]);
        }
        j = g1;
      }
      // Values up the subtree: max over the responder's actions (best response) or the fixed
      // strategy's mix, sums over the opponent's. A terminal's value is read where its parent
      // needs it, as its coefficient times its fold or showdown sum.
      struct Source {
        const Lanes* x;
        std::size_t stride;
        Lanes k;
      };
      auto source = [&](std::int32_t p) -> Source {
        const Position& q = P.pos[p];
        switch (q.kind) {
          case Kind::kFold:
            return {fb + q.vec, NT, P.coef[q.term]};
          case Kind::kShowdown:
            return {db + q.vec, NS, P.coef[q.term]};
          case Kind::kZero:
            return {zb, 1, Lanes{}};
          default:
            return {vb + static_cast<std::size_t>(p) * n, 1, Lanes{} + Real{1}};
        }
      };
      for (std::int32_t p = np - 1; p >= 0; --p) {
        const Position& q = P.pos[p];
        if (q.kind != Kind::kOpponent && q.kind != Kind::kResponder) continue;
        Lanes* out = vb + static_cast<std::size_t>(p) * n;
        const Source s0 = source(q.child[0]);
        const Source s1 = q.num_children > 1 ? source(q.child[1]) : Source{zb, 1, Lanes{}};
        const Source s2 = q.num_children > 2 ? source(q.child[2]) : Source{zb, 1, Lanes{}};
        auto at = [](const Source& x, std::int32_t j) { return x.k * x.x[j * x.stride]; };
        if (q.kind == Kind::kOpponent) {
          for (std::int32_t j = 0; j < nb; ++j) out[j] = at(s0, j) + at(s1, j) + at(s2, j);
        } else if (br) {
          if (q.num_children == 1) {
            for (std::int32_t j = 0; j < nb; ++j) out[j] = at(s0, j);
          } else if (q.num_children == 2) {
            for (std::int32_t j = 0; j < nb; ++j) out[j] = lanes_max(at(s0, j), at(s1, j));
          } else {
            for (std::int32_t j = 0; j < nb; ++j)
              out[j] = lanes_max(lanes_max(at(s0, j), at(s1, j)), at(s2, j));
          }
        } else {
          const std::int32_t* bf = bkf + i0;
          const Lanes* f0 = F + static_cast<std::size_t>(q.slot) * nbf;
          const Lanes* f1 = f0 + nbf;
          const Lanes* f2 = q.num_children > 2 ? f1 + nbf : f0;
          for (std::int32_t j = 0; j < nb; ++j) {
            const auto x = static_cast<std::size_t>(bf[j]);
            out[j] = f0[x] * at(s0, j) + f1[x] * at(s1, j) + f2[x] * at(s2, j);
          }
        }
      }
      const Source top = source(0);
      for (std::int32_t j = 0; j < nb; ++j)
        A[hand[i0 + j]] += weight * (top.k * top.x[j * top.stride]);
      i0 = i1;
    }
  }
}

// compile() and walk_chunk() for both precisions (holdem_last_round.cpp instantiates the rest of
// the class).
template HoldemLastRound<float>::Program HoldemLastRound<float>::compile(
    const std::vector<std::int32_t>&, int, const Chunk&,
    const std::vector<std::vector<std::int32_t>>&, const std::vector<std::int32_t>&) const;
template void HoldemLastRound<float>::walk_chunk(Scratch&, const Chunk&, int, std::int32_t) const;
template HoldemLastRound<double>::Program HoldemLastRound<double>::compile(
    const std::vector<std::int32_t>&, int, const Chunk&,
    const std::vector<std::vector<std::int32_t>>&, const std::vector<std::int32_t>&) const;
template void HoldemLastRound<double>::walk_chunk(Scratch&, const Chunk&, int, std::int32_t) const;

}  // namespace hulhe
