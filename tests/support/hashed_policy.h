#pragma once
// A test policy with uneven, reproducible probabilities at every information set: each
// action's weight is a hash of (round, node, bucket, action), and about one action in five
// gets weight 0. Cheap for any abstraction size (HULHE included), unlike solving.
#include <cstdint>
#include <span>

#include "abstraction/policy.h"

namespace hulhe::test {

class HashedPolicy final : public Policy {
 public:
  HashedPolicy(const BettingTree& tree, const CardAbstraction& abstraction)
      : tree_(tree), abstraction_(abstraction) {}
  const BettingTree& tree() const override { return tree_; }
  const CardAbstraction& abstraction() const override { return abstraction_; }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override {
    double sum = 0;
    for (std::size_t a = 0; a < out.size(); ++a) {
      std::uint64_t z = (static_cast<std::uint64_t>(round) << 56) ^
                        (static_cast<std::uint64_t>(node) << 32) ^
                        (static_cast<std::uint64_t>(bucket) << 4) ^ a;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      out[a] = (z % 5 == 0) ? 0.0 : static_cast<double>(z >> 11) * 0x1.0p-53;
      sum += out[a];
    }
    for (double& p : out) p = sum > 0 ? p / sum : 1.0 / static_cast<double>(out.size());
  }

 private:
  const BettingTree& tree_;
  const CardAbstraction& abstraction_;
};

}  // namespace hulhe::test
