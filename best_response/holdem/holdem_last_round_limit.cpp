// The unrolled limit kernel's side of the last round (holdem_last_round.h): whether a chunk's
// subtree is the plan's (limit_last_round_plan.h) and its program for the kernel, and the
// dispatch to the kernel instantiated for the game's cap, the seat that acts first and the mode
// (best response or head to head; limit_last_round_kernel.h).
#include <map>
#include <vector>

#include "best_response/holdem/holdem_last_round.h"
#include "best_response/holdem/limit_last_round_kernel.h"
#include "game/betting_tree.h"

namespace hulhe {

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
    for (int a = 0; a + 1 < q.num_children; ++a)
      copy_strategy_column(pos_slot[k] + a, lp.sigma, C, plan.vec[plan.pos[q.child[a]].vec].column);
  }
  lp.cap = cap;
  lp.responder_first = responder_first;
  lp.num_direct = plan.num_direct;
  lp.num_swept = plan.num_swept;
  return lp;
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
  s.card_total.resize(kMaxCards * static_cast<std::size_t>(lp.num_direct));
  s.card_below.resize(kMaxCards * static_cast<std::size_t>(lp.num_swept));
  s.below_block.resize(static_cast<std::size_t>(n_) * static_cast<std::size_t>(lp.num_swept));
  llr::KernelArgs<Lanes> a;
  a.num_deals = deals;
  a.deals = &s.deals;
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

// compile_limit(), unrolled() and walk_limit() for both precisions (holdem_last_round.cpp
// instantiates the rest of the class).
template HoldemLastRound<float>::LimitProgram HoldemLastRound<float>::compile_limit(
    const std::vector<std::int32_t>&, int, const Chunk&,
    const std::vector<std::vector<std::int32_t>>&, const std::vector<std::int32_t>&) const;
template bool HoldemLastRound<float>::unrolled() const;
template void HoldemLastRound<float>::walk_limit(Scratch&, const Chunk&, int, std::int32_t) const;
template HoldemLastRound<double>::LimitProgram HoldemLastRound<double>::compile_limit(
    const std::vector<std::int32_t>&, int, const Chunk&,
    const std::vector<std::vector<std::int32_t>>&, const std::vector<std::int32_t>&) const;
template bool HoldemLastRound<double>::unrolled() const;
template void HoldemLastRound<double>::walk_limit(Scratch&, const Chunk&, int, std::int32_t) const;

}  // namespace hulhe
