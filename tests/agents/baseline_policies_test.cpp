// Baseline bots: hand-checked probabilities on Kuhn and Leduc, the factory, and uniform's
// NashConv (DESIGN.md ground truth) through the solver's exact best response.
#include "agents/baseline_policies.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "abstraction/lossless_abstraction.h"
#include "best_response/exploitability.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

struct Game {
  explicit Game(const std::string& file)
      : game(GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + file)),
        tree(game),
        abstraction(game) {}
  // Probabilities at the decision node reached by an ACPC betting string.
  std::vector<double> at(const Policy& policy, const std::string& betting,
                         std::int32_t bucket = 0) const {
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(tree.nodes().size()); ++i) {
      const BettingNode& n = tree.node(i);
      if (n.kind == NodeKind::kDecision && tree.betting_string(i) == betting) {
        std::vector<double> p(n.num_actions);
        policy.action_probabilities(n.round, n.id_in_round, bucket, p);
        return p;
      }
    }
    ADD_FAILURE() << "no decision node " << betting;
    return {};
  }
  GameDefinition game;
  BettingTree tree;
  LosslessAbstraction abstraction;
};

TEST(BaselinePolicies, KuhnProbabilitiesByHand) {
  const Game kuhn("kuhn.game");
  // Kuhn's root offers call (check) and raise (bet); after a bet: fold, call.
  const auto uniform = make_baseline_policy("uniform", kuhn.tree, kuhn.abstraction);
  const auto call = make_baseline_policy("always-call", kuhn.tree, kuhn.abstraction);
  const auto raise = make_baseline_policy("always-raise", kuhn.tree, kuhn.abstraction);
  EXPECT_EQ(kuhn.at(*uniform, ""), (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(kuhn.at(*uniform, "cr", 2), (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(kuhn.at(*call, ""), (std::vector<double>{1.0, 0.0}));
  EXPECT_EQ(kuhn.at(*call, "r"), (std::vector<double>{0.0, 1.0}));
  EXPECT_EQ(kuhn.at(*raise, ""), (std::vector<double>{0.0, 1.0}));
  EXPECT_EQ(kuhn.at(*raise, "c"), (std::vector<double>{0.0, 1.0}));
  // Facing a bet at the cap (one raise in Kuhn) always-raise can only call.
  EXPECT_EQ(kuhn.at(*raise, "r"), (std::vector<double>{0.0, 1.0}));
}

TEST(BaselinePolicies, LeducProbabilitiesByHand) {
  const Game leduc("leduc.game");
  const auto uniform = make_baseline_policy("uniform", leduc.tree, leduc.abstraction);
  const auto raise = make_baseline_policy("always-raise", leduc.tree, leduc.abstraction);
  // Facing a raise below the cap: fold, call, raise.
  const std::vector<double> third(3, 1.0 / 3.0);
  EXPECT_EQ(leduc.at(*uniform, "r"), third);
  EXPECT_EQ(leduc.at(*raise, "r"), (std::vector<double>{0.0, 0.0, 1.0}));
  // Two raises is the cap: fold or call.
  EXPECT_EQ(leduc.at(*raise, "rr"), (std::vector<double>{0.0, 1.0}));
  EXPECT_EQ(leduc.at(*raise, "rrc/"), (std::vector<double>{0.0, 1.0}));
  EXPECT_EQ(leduc.at(*uniform, "rrc/rr", 7), (std::vector<double>{0.5, 0.5}));
}

TEST(BaselinePolicies, FactoryKnowsItsNames) {
  const Game kuhn("kuhn.game");
  EXPECT_EQ(baseline_policy_names(),
            (std::vector<std::string>{"uniform", "always-call", "always-raise", "always-fold"}));
  for (const std::string& name : baseline_policy_names())
    EXPECT_EQ(&make_baseline_policy(name, kuhn.tree, kuhn.abstraction)->tree(), &kuhn.tree);
  try {
    make_baseline_policy("always-limp", kuhn.tree, kuhn.abstraction);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("always-limp"), std::string::npos);
  }
}

TEST(BaselinePolicies, UniformNashConvMatchesGroundTruth) {
  const Game kuhn("kuhn.game"), leduc("leduc.game");
  const auto k = make_baseline_policy("uniform", kuhn.tree, kuhn.abstraction);
  EXPECT_NEAR(compute_exploitability(*k).nash_conv, 11.0 / 12.0, 1e-12);
  const auto l = make_baseline_policy("uniform", leduc.tree, leduc.abstraction);
  EXPECT_NEAR(compute_exploitability(*l).nash_conv, 4.747222222222222, 1e-12);
}

TEST(BaselinePolicies, AlwaysCallAgainstItselfInKuhnIsAShowdownOfAntes) {
  // Both check every hand: the better card wins the 1-chip ante, so the value is 0; a best
  // response (bet the ace, check-fold the queen, ...) wins a computed amount against it.
  const Game kuhn("kuhn.game");
  const auto call = make_baseline_policy("always-call", kuhn.tree, kuhn.abstraction);
  const ExploitabilityReport r = compute_exploitability(*call);
  EXPECT_NEAR(r.game_value, 0.0, 1e-12);
  // BR as position 0 vs always-call: with K or A bet (called: ±2 vs lower/higher), with Q
  // check (showdown ±1). Q: -1; K: bet → vs Q +2, vs A -2 → 0, check → 0; A: +2.
  // Mean over the three cards: (-1 + 0 + 2) / 3 = 1/3. Position 1 sees a check, then the
  // same choice: also 1/3.
  EXPECT_NEAR(r.br_value_vs_seat[1], 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(r.br_value_vs_seat[0], 1.0 / 3.0, 1e-12);
}

}  // namespace
}  // namespace hulhe
