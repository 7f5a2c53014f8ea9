#pragma once
// Games and helpers shared by the solver tests: the shipped Kuhn and Leduc definitions with
// their lossless abstractions, and a uniform policy written here independently of the
// strategies/ baselines.
#include <memory>
#include <span>
#include <string>

#include "abstraction/lossless_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "abstraction/policy.h"

namespace hulhe::testing {

struct SmallGame {
  GameDefinition game;
  BettingTree tree;
  LosslessAbstraction abstraction;

  explicit SmallGame(const std::string& name)
      : game(GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name +
                                       ".game")),
        tree(game),
        abstraction(game) {}
};

inline constexpr double kKuhnValue = -1.0 / 18.0;
inline constexpr double kLeducValue = -0.085606424078;

class UniformTestPolicy final : public Policy {
 public:
  UniformTestPolicy(const BettingTree& tree, const CardAbstraction& abstraction)
      : tree_(tree), abstraction_(abstraction) {}
  const BettingTree& tree() const override { return tree_; }
  const CardAbstraction& abstraction() const override { return abstraction_; }
  void action_probabilities(int, std::int32_t, std::int32_t, std::span<double> out) const override {
    for (double& p : out) p = 1.0 / static_cast<double>(out.size());
  }

 private:
  const BettingTree& tree_;
  const CardAbstraction& abstraction_;
};

// A fixed, lopsided strategy: probabilities derived from a hash of the information set.
class HashedTestPolicy final : public Policy {
 public:
  HashedTestPolicy(const BettingTree& tree, const CardAbstraction& abstraction)
      : tree_(tree), abstraction_(abstraction) {}
  const BettingTree& tree() const override { return tree_; }
  const CardAbstraction& abstraction() const override { return abstraction_; }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override {
    double sum = 0.0;
    for (std::size_t a = 0; a < out.size(); ++a) {
      std::uint64_t x = (static_cast<std::uint64_t>(round) * 1000003ULL + node) * 7919ULL +
                        static_cast<std::uint64_t>(bucket) * 104729ULL + a * 31ULL + 17ULL;
      x ^= x >> 13;
      x *= 0x9e3779b97f4a7c15ULL;
      x ^= x >> 29;
      out[a] = 0.05 + static_cast<double>(x % 1000) / 1000.0;
      sum += out[a];
    }
    for (double& p : out) p /= sum;
  }

 private:
  const BettingTree& tree_;
  const CardAbstraction& abstraction_;
};

}  // namespace hulhe::testing
