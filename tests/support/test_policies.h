#pragma once
// Policies for tests and benchmarks, written here independently of the agents/ baselines:
// uniform; a fixed lopsided one (every action positive); and one with uneven, reproducible
// probabilities where about one action in five gets weight 0. Each is a hash of the
// information set, so it is cheap for any abstraction size (HULHE included), unlike solving.
#include <cstddef>
#include <cstdint>
#include <span>

#include "abstraction/policy.h"

namespace hulhe::testing {

// What the three share: the tree and abstraction the probabilities are read against.
class TestPolicyBase : public Policy {
 public:
  TestPolicyBase(const BettingTree& tree, const CardAbstraction& abstraction)
      : tree_(tree), abstraction_(abstraction) {}
  const BettingTree& tree() const override { return tree_; }
  const CardAbstraction& abstraction() const override { return abstraction_; }

 private:
  const BettingTree& tree_;
  const CardAbstraction& abstraction_;
};

class UniformTestPolicy final : public TestPolicyBase {
 public:
  using TestPolicyBase::TestPolicyBase;
  void action_probabilities(int, std::int32_t, std::int32_t, std::span<double> out) const override {
    for (double& p : out) p = 1.0 / static_cast<double>(out.size());
  }
};

// Probabilities in proportion to Weight(round, node, bucket, action); uniform where every
// action weighs 0.
template <double (*Weight)(int round, std::int32_t node, std::int32_t bucket, std::size_t action)>
class WeightedTestPolicy final : public TestPolicyBase {
 public:
  using TestPolicyBase::TestPolicyBase;
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override {
    double sum = 0.0;
    for (std::size_t a = 0; a < out.size(); ++a) {
      out[a] = Weight(round, node, bucket, a);
      sum += out[a];
    }
    for (double& p : out) p = sum > 0 ? p / sum : 1.0 / static_cast<double>(out.size());
  }
};

// A fixed, lopsided strategy: every action's weight, 0.05 to 1.05, a hash of the information
// set and the action.
inline double lopsided_weight(int round, std::int32_t node, std::int32_t bucket, std::size_t a) {
  std::uint64_t x = (static_cast<std::uint64_t>(round) * 1000003ULL + node) * 7919ULL +
                    static_cast<std::uint64_t>(bucket) * 104729ULL + a * 31ULL + 17ULL;
  x ^= x >> 13;
  x *= 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  return 0.05 + static_cast<double>(x % 1000) / 1000.0;
}
using HashedTestPolicy = WeightedTestPolicy<lopsided_weight>;

// Uneven probabilities with zeros: each action's weight is a SplitMix64-style hash of (round,
// node, bucket, action), 0 for about one action in five.
inline double uneven_weight(int round, std::int32_t node, std::int32_t bucket, std::size_t a) {
  std::uint64_t z = (static_cast<std::uint64_t>(round) << 56) ^
                    (static_cast<std::uint64_t>(node) << 32) ^
                    (static_cast<std::uint64_t>(bucket) << 4) ^ a;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (z % 5 == 0) ? 0.0 : static_cast<double>(z >> 11) * 0x1.0p-53;
}
using HashedPolicy = WeightedTestPolicy<uneven_weight>;

}  // namespace hulhe::testing
