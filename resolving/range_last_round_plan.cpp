#include "resolving/range_last_round_plan.h"

namespace hulhe {

namespace {

int lane_width(int count) {
  for (const int w : {4, 8, 12, 16})
    if (count <= w) return w;
  return 0;
}

}  // namespace

bool make_range_last_round_plan(const std::vector<FlatNode>& nodes, std::int32_t root,
                                RangeLastRoundPlan& plan) {
  plan = {};
  // Pre-order by an explicit stack, children pushed last first.
  std::vector<RangeLastRoundPlan::Entry> stack{{root, -1, 0, -1}};
  while (!stack.empty()) {
    RangeLastRoundPlan::Entry e = stack.back();
    stack.pop_back();
    const FlatNode& f = nodes[e.node];
    const auto index = static_cast<std::int32_t>(plan.entries.size());
    if (f.kind == NodeKind::kShowdown) e.lane = plan.showdowns++;
    if (f.kind == NodeKind::kFold) e.lane = plan.folds++;
    plan.entries.push_back(e);
    plan.children.push_back({-1, -1, -1});
    if (e.parent >= 0) plan.children[e.parent][e.action] = index;
    if (f.kind != NodeKind::kDecision) continue;
    for (int k = f.num_actions - 1; k >= 0; --k) stack.push_back({f.child[k], index, k, -1});
  }
  plan.showdown_width = lane_width(plan.showdowns);
  plan.fold_width = lane_width(plan.folds);
  if (plan.showdown_width == 0 || plan.fold_width == 0) return false;
  for (int p = 0; p < 2; ++p) {
    plan.win[p].assign(plan.showdown_width, 0.0);
    plan.lose[p].assign(plan.showdown_width, 0.0);
    plan.fold_payoff[p].assign(plan.fold_width, 0.0);
    for (const RangeLastRoundPlan::Entry& e : plan.entries) {
      const FlatNode& f = nodes[e.node];
      if (f.kind == NodeKind::kShowdown) {
        plan.win[p][e.lane] = f.win[p];
        plan.lose[p][e.lane] = f.lose[p];
      } else if (f.kind == NodeKind::kFold) {
        plan.fold_payoff[p][e.lane] = f.win[p];
      }
    }
  }
  return true;
}

}  // namespace hulhe
