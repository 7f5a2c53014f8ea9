#pragma once
// The last betting round of a 2-player limit game, as a compile-time plan for the unrolled
// last-round kernel (limit_last_round_kernel.h).
//
// In a limit game every sequence entering the last round has the same subtree: the first
// player checks or bets, a check is answered by a check (showdown) or a bet, a bet by a
// fold, a call (showdown) or, below the cap, a raise (ACPC game.c; betting_tree.cpp builds
// the same tree). Only the pot differs between sequences. With the subtree known when the
// kernel is compiled, every reach vector, sum and value of one hand has a fixed index, so
// they live in registers rather than in memory (the interpreted walk in
// holdem_last_round_program.cpp reads and writes each of them through per-block arrays).
//
// The plan follows the betting tree's preorder and child order (fold, call, raise), so
// position k is the k-th node of the tree's subtree, and a decision's strategy slot is the
// running count of actions before it, as in HoldemLastRound's constructor.
//
// Reach vectors: the opponent's reach changes only at its own actions. At an opponent
// decision the child vectors are parent × σ(action), except the last, which is the parent
// minus its siblings (the opponent's probabilities sum to 1; the caller checks that they
// do). Terminal sums: a vector at a fold needs its fold sum (the opponent reach disjoint
// from the responder's hand); at a showdown also its showdown sum. A fold-only vector whose
// parent and siblings all reach showdowns gets its fold sum by linearity (parent's minus
// siblings'), so only the other ones ("direct") are summed per card.
#include <cstdint>

namespace hulhe::limit_last_round {

constexpr int kMaxPositions = 48;
constexpr int kMaxVectors = 32;

enum class PositionKind : std::uint8_t { kResponder, kOpponent, kFold, kShowdown };

struct PlanPosition {
  PositionKind kind = PositionKind::kFold;
  int num_children = 0;
  int child[3] = {-1, -1, -1};
  int vec = 0;    // the opponent's reach vector here
  int term = -1;  // terminals: index among terminals, preorder
  int slot = -1;  // decisions: strategy slot of action 0
};

struct PlanVector {
  int parent = -1;        // -1: the reach entering the round
  int column = -1;        // σ column that multiplies the parent; -1: parent minus siblings
  int sib[2] = {-1, -1};  // the other children of its opponent decision
  int num_sib = 0;
  bool fold = false;      // needs its fold sum (a fold or showdown terminal)
  bool showdown = false;  // needs its showdown sum
  bool derived = false;   // fold sum = parent's - siblings' (by linearity)
  int direct = -1;        // index among per-card summed vectors
  int swept = -1;         // index among showdown vectors
};

struct Plan {
  PlanPosition pos[kMaxPositions]{};
  PlanVector vec[kMaxVectors]{};
  int num_positions = 0;
  int num_vectors = 0;
  int columns = 0;  // σ columns per bucket
  int num_direct = 0;
  int num_swept = 0;
  int num_terminals = 0;
  int slots = 0;  // actions of all decisions
};

class PlanBuilder {
 public:
  constexpr PlanBuilder(int cap, bool responder_first) : cap_(cap) {
    add(responder_first, 0, 0, new_vector(-1));
    finish();
  }
  constexpr const Plan& plan() const { return p_; }

 private:
  constexpr int new_vector(int parent) {
    const int v = p_.num_vectors++;
    p_.vec[v].parent = parent;
    return v;
  }
  constexpr int terminal(PositionKind kind, int vec) {
    const int me = p_.num_positions++;
    p_.pos[me].kind = kind;
    p_.pos[me].vec = vec;
    p_.pos[me].term = p_.num_terminals++;
    p_.vec[vec].fold = true;
    if (kind == PositionKind::kShowdown) p_.vec[vec].showdown = true;
    return me;
  }
  // A decision with `raises` bets so far this round and `acted` actions before it.
  constexpr int add(bool responder, int raises, int acted, int vec) {
    const int me = p_.num_positions++;
    const bool facing = raises > 0;
    const int A = (facing ? 1 : 0) + 1 + (raises < cap_ ? 1 : 0);
    p_.pos[me].kind = responder ? PositionKind::kResponder : PositionKind::kOpponent;
    p_.pos[me].vec = vec;
    p_.pos[me].num_children = A;
    p_.pos[me].slot = p_.slots;
    p_.slots += A;
    int cv[3] = {vec, vec, vec};
    if (!responder) {
      for (int a = 0; a < A; ++a) cv[a] = new_vector(vec);
      for (int a = 0; a + 1 < A; ++a) p_.vec[cv[a]].column = p_.columns++;
      for (int a = 0; a < A; ++a)
        for (int b = 0; b < A; ++b)
          if (b != a) p_.vec[cv[a]].sib[p_.vec[cv[a]].num_sib++] = cv[b];
    }
    int a = 0;
    if (facing) {
      p_.pos[me].child[a] = terminal(PositionKind::kFold, cv[a]);
      ++a;
    }
    p_.pos[me].child[a] =
        acted == 0 ? add(!responder, raises, 1, cv[a]) : terminal(PositionKind::kShowdown, cv[a]);
    ++a;
    if (raises < cap_) p_.pos[me].child[a] = add(!responder, raises + 1, acted + 1, cv[a]);
    return me;
  }
  constexpr void finish() {
    for (int v = 1; v < p_.num_vectors; ++v) {
      PlanVector& x = p_.vec[v];
      if (!x.fold || x.showdown) continue;
      bool all = p_.vec[x.parent].showdown;
      for (int i = 0; i < x.num_sib; ++i) all = all && p_.vec[x.sib[i]].showdown;
      x.derived = all;
    }
    for (int v = 0; v < p_.num_vectors; ++v) {
      PlanVector& x = p_.vec[v];
      if (x.fold && !x.derived) x.direct = p_.num_direct++;
      if (x.showdown) x.swept = p_.num_swept++;
    }
  }

  Plan p_{};
  int cap_ = 0;
};

constexpr Plan make_plan(int cap, bool responder_first) {
  return PlanBuilder(cap, responder_first).plan();
}

// Caps of the last round the unrolled kernel is compiled for.
constexpr int kMinCap = 1;
constexpr int kMaxCap = 4;

}  // namespace hulhe::limit_last_round
