#pragma once
// Export-time purification and thresholding (Ganzfried, Sandholm & Waugh 2012, "Strategy
// purification and thresholding: effective non-equilibrium approaches for playing large
// games", AAMAS): the small probabilities of an abstract game's equilibrium are often fitted
// to the abstraction rather than to the real game; their limit hold'em agents won more head
// to head with both. Measured here they raise worst-case exploitability, in Leduc and in a
// HULHE strategy alike (docs/strategy-quality.md), so they are options, off by default.
//   threshold T  at each information set, actions played with probability below T get 0 and
//                the rest are renormalised; if every action is below T, the most probable
//                one alone is played.
//   purify       the most probable action with probability 1.
// Ties between equally probable actions go to the lowest action index, so both are
// deterministic. A threshold of 0 changes nothing (not even the bits of a distribution).
#include <cstdint>
#include <span>
#include <string>

#include "abstraction/policy.h"

namespace hulhe {

struct StrategyThinning {
  enum class Kind { kNone, kThreshold, kPurify };
  Kind kind = Kind::kNone;
  double threshold = 0.0;  // kThreshold only

  static StrategyThinning none() { return {}; }
  static StrategyThinning with_threshold(double t) { return {Kind::kThreshold, t}; }
  static StrategyThinning purify() { return {Kind::kPurify, 0.0}; }

  bool active() const { return kind != Kind::kNone; }
  // For people and file metadata: "" (none), "threshold 0.15", "purified".
  std::string describe() const;
  // A strategy file's algorithm field with what was applied: "cfr+" thinned by a threshold
  // is "cfr+, threshold 0.15" (the file format has no other free-form field).
  std::string applied_to(const std::string& algorithm) const {
    return active() ? algorithm + ", " + describe() : algorithm;
  }
};

// The action a purified strategy plays at a distribution: the most probable, ties to the
// lowest index. p.size() >= 1.
std::size_t most_probable_action(std::span<const double> p);

// Applies `thinning` in place to one information set's distribution (summing to 1, as a
// Policy gives it).
void thin_probabilities(std::span<double> p, const StrategyThinning& thinning);

// `policy` as seen through a thinning: what a strategy file exported with it plays (before
// quantisation). Keeps a reference: `policy` must outlive it.
class ThinnedPolicy final : public Policy {
 public:
  ThinnedPolicy(const Policy& policy, StrategyThinning thinning)
      : policy_(policy), thinning_(thinning) {}

  const BettingTree& tree() const override { return policy_.tree(); }
  const CardAbstraction& abstraction() const override { return policy_.abstraction(); }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override;

 private:
  const Policy& policy_;
  StrategyThinning thinning_;
};

}  // namespace hulhe
