#pragma once
// A policy's values as a strategy file of `bits` stores them, and which information sets a
// compact file keeps (those the policy's own play reaches), computed independently of the
// file's code: for the compact strategy file tests.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "abstraction/policy.h"
#include "game/betting_tree.h"
#include "strategy_files/strategy_file.h"

namespace hulhe::testing {

// p as a file of `bits` stores it (the writer's quantisation), widened.
inline std::vector<std::uint32_t> quantized(const std::vector<double>& p, int bits) {
  std::vector<std::uint32_t> out(p.size());
  if (bits == 16) {
    std::vector<std::uint16_t> q(p.size());
    quantize_probabilities(p, q);
    std::copy(q.begin(), q.end(), out.begin());
  } else {
    std::vector<std::uint8_t> q(p.size());
    quantize_probabilities(p, q, bits);
    std::copy(q.begin(), q.end(), out.begin());
  }
  return out;
}

// The policy's values at a set as a full file of `bits` stores them.
inline std::vector<std::uint32_t> full_values(const Policy& policy, int bits, int r, std::int32_t n,
                                              std::int32_t b) {
  std::vector<double> p(policy.tree().node(policy.tree().decision_node(r, n)).num_actions);
  policy.action_probabilities(r, n, b, p);
  return quantized(p, bits);
}

// Brute force, by walking up the tree: whether every earlier action of the same player in
// the same round on the way to decision node n has a non-zero value in bucket b.
inline bool reached_by_own_play(const Policy& policy, int bits, int r, std::int32_t n,
                                std::int32_t b) {
  const BettingTree& tree = policy.tree();
  const std::int32_t at = tree.decision_node(r, n);
  for (std::int32_t child = at, up = tree.node(at).parent; up >= 0 && tree.node(up).round == r;
       child = up, up = tree.node(up).parent) {
    const BettingNode& u = tree.node(up);
    if (u.player != tree.node(at).player) continue;
    int slot = 0;
    while (u.child[slot] != child) ++slot;
    if (full_values(policy, bits, r, u.id_in_round, b)[slot] == 0) return false;
  }
  return true;
}

}  // namespace hulhe::testing
