#include "best_response/holdem/holdem_last_round.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <span>
#include <string>

#include "best_response/holdem/limit_last_round_kernel.h"
#include "game/betting_tree.h"
#include "game/hand_evaluator.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

constexpr int kCards = kMaxCards;
constexpr std::size_t kMaxVectors = 64;
// Hands per block of the last-round walk: its per-block arrays stay in L1/L2.
constexpr std::int32_t kBlock = 16;

using limit_last_round::lanes_max;

// Preorder node indices of the subtree below `i` (all in i's round: the last one).
void preorder(const BettingTree& tree, std::int32_t i, std::vector<std::int32_t>& out) {
  out.push_back(i);
  const BettingNode& b = tree.node(i);
  if (b.kind != NodeKind::kDecision) return;
  for (int a = 0; a < b.num_actions; ++a) preorder(tree, b.child[a], out);
}

std::string shape_of(const BettingTree& tree, const std::vector<std::int32_t>& nodes) {
  std::string s;
  for (std::int32_t i : nodes) {
    const BettingNode& b = tree.node(i);
    s += static_cast<char>('0' + static_cast<int>(b.kind));
    s += static_cast<char>('0' + b.player);
    s += static_cast<char>('0' + b.num_actions);
    for (int a = 0; a < b.num_actions; ++a) s += action_char(b.actions[a]);
    s += ';';
  }
  return s;
}

}  // namespace

template <typename Real>
HoldemLastRound<Real>::HoldemLastRound(const Policy& opp, const Policy* fixed,
                                       const PrivateHands& hands,
                                       const std::vector<std::int32_t>& entries, bool unrolled)
    : opp_(opp), fixed_(fixed), hands_(hands) {
  const BettingTree& tree = opp.tree();
  const GameDefinition& game = tree.game();
  round_ = game.num_rounds - 1;
  n_ = hands.size();
  E_ = static_cast<std::int32_t>(entries.size());
  opp_buckets_ = opp.abstraction().num_buckets(round_);
  fix_buckets_ = fixed != nullptr ? fixed->abstraction().num_buckets(round_) : 0;
  full_deck_ = game.deck_size() == kMaxCards;
  deck_ = game.deck();

  // Entries grouped by subtree shape (limit games: one group), 8 to a chunk.
  std::map<std::string, std::vector<std::int32_t>> groups;
  std::vector<std::vector<std::int32_t>> nodes_of(E_);
  for (std::int32_t e = 0; e < E_; ++e) {
    preorder(tree, entries[e], nodes_of[e]);
    groups[shape_of(tree, nodes_of[e])].push_back(e);
  }
  std::int64_t slots = 0;
  std::vector<double> p(kNumActionKinds);
  for (const auto& [shape, members] : groups) {
    const std::vector<std::int32_t>& shape_nodes = nodes_of[members[0]];
    // Strategy slots of the decision positions of this shape.
    std::vector<std::int32_t> pos_slot(shape_nodes.size(), -1);
    std::int32_t per_chunk = 0;
    for (std::size_t k = 0; k < shape_nodes.size(); ++k) {
      const BettingNode& b = tree.node(shape_nodes[k]);
      if (b.kind != NodeKind::kDecision) continue;
      pos_slot[k] = per_chunk;
      per_chunk += b.num_actions;
    }
    for (std::size_t first = 0; first < members.size(); first += kLanes) {
      Chunk c;
      c.entry.fill(-1);
      c.table = slots;
      std::vector<std::vector<std::int32_t>> lane_nodes(kLanes);
      for (int l = 0; l < kLanes && first + l < members.size(); ++l) {
        c.entry[l] = members[first + l];
        lane_nodes[l] = nodes_of[members[first + l]];
      }
      slots += per_chunk;
      // The strategies, [slot][bucket][lane].
      strategy_.assign(static_cast<std::size_t>(per_chunk) * opp_buckets_, Lanes{});  // local
      if (fixed_ != nullptr)
        fixed_strategy_.resize(static_cast<std::size_t>(slots) * fix_buckets_, Lanes{});
      for (std::size_t k = 0; k < shape_nodes.size(); ++k) {
        if (pos_slot[k] < 0) continue;
        for (int l = 0; l < kLanes; ++l) {
          if (c.entry[l] < 0) continue;
          const BettingNode& b = tree.node(lane_nodes[l][k]);
          const auto A = static_cast<std::size_t>(b.num_actions);
          auto fill = [&](const Policy& pol, std::int32_t nb, std::vector<Lanes>& table,
                          std::int64_t base) {
            for (std::int32_t bk = 0; bk < nb; ++bk) {
              pol.action_probabilities(round_, b.id_in_round, bk, std::span<double>(p.data(), A));
              for (std::size_t a = 0; a < A; ++a)
                table[(static_cast<std::size_t>(base + pos_slot[k]) + a) * nb + bk][l] =
                    static_cast<Real>(p[a]);
            }
          };
          fill(opp_, opp_buckets_, strategy_, 0);
          if (fixed_ != nullptr) fill(*fixed_, fix_buckets_, fixed_strategy_, c.table);
        }
      }
      for (int seat = 0; seat < 2; ++seat) {
        if (unrolled) c.limit[seat] = compile_limit(shape_nodes, seat, c, lane_nodes, pos_slot);
        if (c.limit[seat].cap > 0) continue;  // the interpreted program is not needed
        c.program[seat] = compile(shape_nodes, seat, c, lane_nodes, pos_slot);
        if (c.program[seat].vec.size() > kMaxVectors)
          throw InputError("the last round of game '" + game.name + "' is too deep");
      }
      chunks_.push_back(std::move(c));
    }
  }
  strategy_ = std::vector<Lanes>();  // the programs hold their own copies
}

template <typename Real>
typename HoldemLastRound<Real>::Lanes HoldemLastRound<Real>::terminal_coef(
    const Chunk& c, const std::vector<std::vector<std::int32_t>>& lane_nodes, std::size_t k,
    int seat) const {
  const BettingTree& tree = opp_.tree();
  Lanes coef{};
  for (int l = 0; l < kLanes; ++l) {
    if (c.entry[l] < 0) continue;
    const BettingNode& nl = tree.node(lane_nodes[l][k]);
    if (nl.kind == NodeKind::kFold) {
      const int folder = nl.player;
      coef[l] = static_cast<Real>(folder == seat ? -nl.committed[seat] : nl.committed[folder]);
    } else {
      if (nl.committed[0] != nl.committed[1])
        throw InputError("a showdown with unequal pots in game '" + tree.game().name + "'");
      coef[l] = static_cast<Real>(nl.committed[seat]);
    }
  }
  return coef;
}

template <typename Real>
bool HoldemLastRound<Real>::sums_to_one(const Chunk& c, std::int64_t slot, int A) const {
  const std::size_t nb = static_cast<std::size_t>(opp_buckets_);
  for (std::size_t b = 0; b < nb; ++b)
    for (int l = 0; l < kLanes; ++l) {
      if (c.entry[l] < 0) continue;
      double s = 0.0;
      for (int a = 0; a < A; ++a) s += strategy_[static_cast<std::size_t>(slot + a) * nb + b][l];
      if (std::abs(s - 1.0) > 8.0 * std::numeric_limits<Real>::epsilon()) return false;
    }
  return true;
}

// The unrolled kernel applies when the subtree is the plan's (a limit last round with a cap
// the kernel is compiled for) and the opponent's probabilities sum to 1 everywhere (its last
// action's reach is formed as the rest).
template <typename Real>
typename HoldemLastRound<Real>::LimitProgram HoldemLastRound<Real>::compile_limit(
    const std::vector<std::int32_t>& shape_nodes, int seat, const Chunk& c,
    const std::vector<std::vector<std::int32_t>>& lane_nodes,
    const std::vector<std::int32_t>& pos_slot) const {
  namespace llr = limit_last_round;
  LimitProgram lp;
  const BettingTree& tree = opp_.tree();
  const int cap = tree.game().max_raises[round_];
  if (cap < llr::kMinCap || cap > llr::kMaxCap) return lp;
  const bool responder_first = tree.node(shape_nodes[0]).player == seat;
  const llr::Plan plan = llr::make_plan(cap, responder_first);
  if (static_cast<std::size_t>(plan.num_positions) != shape_nodes.size()) return lp;
  std::map<std::int32_t, std::int32_t> pos_of;
  for (std::size_t k = 0; k < shape_nodes.size(); ++k)
    pos_of[shape_nodes[k]] = static_cast<std::int32_t>(k);
  for (std::size_t k = 0; k < shape_nodes.size(); ++k) {
    const BettingNode& b = tree.node(shape_nodes[k]);
    const llr::PlanPosition& q = plan.pos[k];
    switch (q.kind) {
      case llr::PositionKind::kFold:
        if (b.kind != NodeKind::kFold) return lp;
        continue;
      case llr::PositionKind::kShowdown:
        if (b.kind != NodeKind::kShowdown) return lp;
        continue;
      default:
        break;
    }
    if (b.kind != NodeKind::kDecision || b.num_actions != q.num_children ||
        (b.player == seat) != (q.kind == llr::PositionKind::kResponder) || pos_slot[k] != q.slot)
      return lp;
    for (int a = 0; a < b.num_actions; ++a)
      if (pos_of[b.child[a]] != q.child[a]) return lp;
    if (q.kind == llr::PositionKind::kOpponent && !sums_to_one(c, pos_slot[k], b.num_actions))
      return lp;
  }
  const std::size_t nb = static_cast<std::size_t>(opp_buckets_);
  const std::size_t C = static_cast<std::size_t>(plan.columns);
  lp.sigma.assign(nb * C, Lanes{});
  for (std::size_t k = 0; k < shape_nodes.size(); ++k) {
    const llr::PlanPosition& q = plan.pos[k];
    if (q.kind == llr::PositionKind::kFold || q.kind == llr::PositionKind::kShowdown) {
      lp.coef.push_back(terminal_coef(c, lane_nodes, k, seat));
      continue;
    }
    if (q.kind != llr::PositionKind::kOpponent) continue;
    for (int a = 0; a + 1 < q.num_children; ++a) {
      const int col = plan.vec[plan.pos[q.child[a]].vec].column;
      const auto slot = static_cast<std::size_t>(pos_slot[k] + a);
      for (std::size_t b = 0; b < nb; ++b) lp.sigma[b * C + col] = strategy_[slot * nb + b];
    }
  }
  lp.cap = cap;
  lp.responder_first = responder_first;
  lp.num_direct = plan.num_direct;
  lp.num_swept = plan.num_swept;
  return lp;
}

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
  auto slot_zero = [&](std::int64_t slot) {
    for (std::size_t b = 0; b < nb; ++b)
      for (int l = 0; l < kLanes; ++l)
        if (strategy_[static_cast<std::size_t>(slot - c.table) * nb + b][l] != 0.0) return false;
    return true;
  };
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
      if (slot_zero(slot)) {
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
  for (const FormOp& op : prog.form) {
    if (op.row < 0) continue;
    const auto slot = static_cast<std::size_t>(prog.vec[op.dst].slot - c.table);
    for (std::size_t b = 0; b < nb; ++b)
      prog.sigma[b * prog.columns + op.row] = strategy_[slot * nb + b];
  }
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
void HoldemLastRound<Real>::prepare(Scratch& s, const Card* board, CardSet mask, int known,
                                    int fresh, const FlopClasses* suits) const {
  const CardAbstraction& ao = opp_.abstraction();
  std::array<Card, kMaxCards> pool{};
  int m = 0;
  for (Card c : deck_)
    if (!mask.contains(c)) pool[m++] = c;
  const auto deals = static_cast<std::int32_t>(binomial(m, fresh));
  const std::size_t cap = static_cast<std::size_t>(deals) * n_;
  for (auto* v : {&s.hand, &s.bucket_opp, &s.bucket_fix, &s.group_end, &s.by_hand}) v->resize(cap);
  s.rank_index.assign(n_, -1);
  s.card_a.resize(cap);
  s.card_b.resize(cap);
  s.deal_size.clear();
  s.deal_weight.clear();
  const bool symmetric = suits != nullptr && s.stabilizer.size() > 1;
  std::array<Card, kMaxBoardCards> full{};
  std::copy(board, board + known, full.begin());
  std::array<int, kMaxBoardCards> pos{};
  for (int i = 0; i < fresh; ++i) pos[i] = i;
  const HandEvaluator& ev = HandEvaluator::instance();
  for (std::int32_t next = 0; next < deals; ++next) {
    CardSet dealt;
    for (int i = 0; i < fresh; ++i) {
      full[known + i] = pool[pos[i]];
      dealt.insert(pool[pos[i]]);
    }
    const CardSet dm = mask | dealt;
    const std::int32_t weight = symmetric ? deal_orbit_size(*suits, s.stabilizer, dealt) : 1;
    const auto d = static_cast<std::int32_t>(s.deal_size.size());
    if (weight == 0) {
      next_k_subset(pos, fresh, m);
      continue;
    }
    s.ranked.clear();
    const EvalHand eb = EvalHand::of(dm);
    for (std::int32_t h = 0; h < n_; ++h) {
      if (hands_.masks[h].intersects(dm)) continue;
      const std::int32_t r = full_deck_
                                 ? ev.rank(eb.add(hands_.cards[h][0]).add(hands_.cards[h][1]))
                                 : rank_cards_acpc(dm | hands_.masks[h]);
      s.ranked.emplace_back(r, h);
    }
    std::sort(s.ranked.begin(), s.ranked.end());
    const auto m_d = static_cast<std::int32_t>(s.ranked.size());
    s.deal_size.push_back(m_d);
    s.deal_weight.push_back(static_cast<double>(weight));
    const std::size_t o = static_cast<std::size_t>(d) * n_;
    for (std::int32_t i = 0; i < m_d; ++i) {
      const std::int32_t h = s.ranked[i].second;
      s.hand[o + i] = h;
      s.card_a[o + i] = hands_.cards[h][0];
      s.card_b[o + i] = hands_.cards[h][1];
      s.bucket_opp[o + i] = ao.bucket(round_, hands_.cards[h].data(), full.data());
      s.bucket_fix[o + i] = fixed_ != nullptr ? fixed_->abstraction().bucket(
                                                    round_, hands_.cards[h].data(), full.data())
                                              : 0;
    }
    // Hand-index order: hands of one first card are consecutive (enumerate_private_hands),
    // so the limit kernel's per-card totals keep that card's sums in registers.
    for (std::int32_t i = 0; i < m_d; ++i) s.rank_index[s.ranked[i].second] = i;
    for (std::int32_t h = 0, k = 0; h < n_; ++h)
      if (s.rank_index[h] >= 0) {
        s.by_hand[o + k++] = s.rank_index[h];
        s.rank_index[h] = -1;
      }
    for (std::int32_t i = m_d; i > 0;) {
      std::int32_t j = i - 1;
      while (j > 0 && s.ranked[j - 1].first == s.ranked[i - 1].first) --j;
      for (std::int32_t k = j; k < i; ++k) s.group_end[o + k] = i;
      i = j;
    }
    next_k_subset(pos, fresh, m);
  }
}

template <typename Real>
void HoldemLastRound<Real>::accumulate(Scratch& s, const Card* board, CardSet mask, int known,
                                       int fresh, const double* reach, const std::uint8_t* live,
                                       double* out, const FlopClasses* suits) const {
  s.stabilizer.clear();
  if (suits != nullptr && fresh > 0) s.stabilizer = board_stabilizer(*suits, mask);
  const bool symmetric = s.stabilizer.size() > 1;
  prepare(s, board, mask, known, fresh, suits);
  const auto deals = static_cast<std::int32_t>(s.deal_size.size());
  s.reach.resize(n_);
  s.acc.resize(n_);
  for (int t = 0; t < 2; ++t)
    for (const Chunk& c : chunks_) {
      bool any = false;
      for (int l = 0; l < kLanes; ++l) any |= c.entry[l] >= 0 && live[t * E_ + c.entry[l]] != 0;
      if (!any) continue;
      for (std::int32_t h = 0; h < n_; ++h) s.reach[h] = Lanes{};
      for (int l = 0; l < kLanes; ++l) {
        if (c.entry[l] < 0 || live[t * E_ + c.entry[l]] == 0) continue;
        const double* r = reach + (static_cast<std::size_t>(t) * E_ + c.entry[l]) * n_;
        for (std::int32_t h = 0; h < n_; ++h) s.reach[h][l] = static_cast<Real>(r[h]);
      }
      std::fill(s.acc.begin(), s.acc.end(), Lanes{});
      walk_chunk(s, c, t, deals);
      for (int l = 0; l < kLanes; ++l) {
        if (c.entry[l] < 0 || live[t * E_ + c.entry[l]] == 0) continue;
        double* o = out + (static_cast<std::size_t>(t) * E_ + c.entry[l]) * n_;
        if (!symmetric) {
          for (std::int32_t h = 0; h < n_; ++h) o[h] += s.acc[h][l];
          continue;
        }
        // Each walked deal stood for its orbit: Σ_π V(π h) / |G| (canonical_flops.h).
        const double inv = 1.0 / static_cast<double>(s.stabilizer.size());
        for (std::int32_t h = 0; h < n_; ++h) {
          double x = 0.0;
          for (std::int32_t p : s.stabilizer) x += s.acc[suits->hand_perm[p][h]][l];
          o[h] += x * inv;
        }
      }
    }
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
    const std::int32_t m = s.deal_size[d];
    const std::int32_t* hand = s.hand.data() + o;
    const std::int32_t* bko = s.bucket_opp.data() + o;
    const std::int32_t* bkf = s.bucket_fix.data() + o;
    const std::uint8_t* ca = s.card_a.data() + o;
    const std::uint8_t* cbd = s.card_b.data() + o;
    const std::int32_t* gend = s.group_end.data() + o;
    const Lanes weight = Lanes{} + static_cast<Real>(s.deal_weight[d]);

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

template <typename Real>
bool HoldemLastRound<Real>::unrolled() const {
  for (const Chunk& c : chunks_)
    for (const LimitProgram& lp : c.limit)
      if (lp.cap == 0) return false;
  return true;
}

template <typename Real>
void HoldemLastRound<Real>::walk_limit(Scratch& s, const Chunk& c, int seat,
                                       std::int32_t deals) const {
  namespace llr = limit_last_round;
  const LimitProgram& lp = c.limit[seat];
  s.card_total.resize(kCards * static_cast<std::size_t>(lp.num_direct));
  s.card_below.resize(kCards * static_cast<std::size_t>(lp.num_swept));
  s.below_block.resize(static_cast<std::size_t>(n_) * static_cast<std::size_t>(lp.num_swept));
  llr::KernelArgs<Lanes> a;
  a.deals = deals;
  a.stride = static_cast<std::size_t>(n_);
  a.deal_size = s.deal_size.data();
  a.deal_weight = s.deal_weight.data();
  a.hand = s.hand.data();
  a.bucket_opp = s.bucket_opp.data();
  a.bucket_fix = s.bucket_fix.data();
  a.card_a = s.card_a.data();
  a.card_b = s.card_b.data();
  a.group_end = s.group_end.data();
  a.by_hand = s.by_hand.data();
  a.reach = s.reach.data();
  a.acc = s.acc.data();
  a.sigma = lp.sigma.data();
  a.coef = lp.coef.data();
  a.fixed = fixed_strategy_.data();
  a.fixed_buckets = static_cast<std::size_t>(fix_buckets_);
  a.table = c.table;
  a.card_total = s.card_total.data();
  a.card_below = s.card_below.data();
  a.group_below = s.below_block.data();
  // One instantiation per cap, seat order and mode.
  auto run = [&]<int Cap>() {
    if (fixed_ == nullptr) {
      if (lp.responder_first)
        llr::walk<Real, Lanes, Cap, true, true>(a);
      else
        llr::walk<Real, Lanes, Cap, false, true>(a);
    } else {
      if (lp.responder_first)
        llr::walk<Real, Lanes, Cap, true, false>(a);
      else
        llr::walk<Real, Lanes, Cap, false, false>(a);
    }
  };
  static_assert(llr::kMinCap == 1 && llr::kMaxCap == 4);
  switch (lp.cap) {
    case 1:
      run.template operator()<1>();
      break;
    case 2:
      run.template operator()<2>();
      break;
    case 3:
      run.template operator()<3>();
      break;
    default:
      run.template operator()<4>();
      break;
  }
}

template class HoldemLastRound<float>;
template class HoldemLastRound<double>;

}  // namespace hulhe
