// The re-solving agent (resolving/resolving_agent.h) and its spec `resolve:FILE[:options]`.
#include "resolving/resolving_agent.h"

#include <gtest/gtest.h>

#include <string>

#include "agents/agent_factory.h"
#include "public_tree/strategy_tables.h"
#include "resolving/resolve_agent_scheme.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "tests/resolving/resolved_strategy_fixture.h"
#include "tests/support/solver_test_games.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

TEST(ResolvingAgentSpec, ReadsItsOptions) {
  const ResolvingAgentSpec s = ResolvingAgentSpec::parse(
      "resolve:a.strategy:street=river:iterations=50:threads=2:algorithm=cfr+:gadget=unsafe:"
      "nested=1:precision=double");
  EXPECT_EQ(s.path, "a.strategy");
  EXPECT_EQ(s.street, "river");
  EXPECT_EQ(s.options.resolve.iterations, 50);
  EXPECT_EQ(s.options.resolve.solver.threads, 2);
  EXPECT_EQ(s.options.resolve.solver.algorithm, RangeSolverOptions::Algorithm::kCfrPlus);
  EXPECT_EQ(s.options.resolve.gadget, ResolveGadget::kUnsafe);
  EXPECT_TRUE(s.options.nested);
  EXPECT_EQ(s.options.resolve.solver.precision, RangeSolverOptions::Precision::kDouble);
  EXPECT_EQ(ResolvingAgentSpec::parse("resolve:a").options.resolve.solver.precision,
            RangeSolverOptions::Precision::kSingle);
  try {
    ResolvingAgentSpec::parse("resolve:a:precision=half");
    ADD_FAILURE() << "precision=half was taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "agent 'resolve:a:precision=half': precision=half (single or double)");
  }
  for (const char* bad : {"resolve:", "resolve:a.strategy:street=flop", "resolve:a:iterations=0",
                          "resolve:a:iterations=x", "resolve:a:seconds=-1", "resolve:a:color=red",
                          "resolve:a:threads", "resolve:a:gadget=maybe", "resolve:a:nested=2",
                          "resolve:a:algorithm=cfr"})
    EXPECT_THROW(ResolvingAgentSpec::parse(bad), InputError) << bad;
}

TEST(ResolvingAgentSpec, IsAnAgentOfTheFactoryOnceRegistered) {
  register_resolving_agent();
  const AgentSpec s = AgentSpec::parse("resolve:missing.strategy:street=river");
  EXPECT_EQ(s.scheme, "resolve");
  EXPECT_EQ(s.files(), std::vector<std::string>{"missing.strategy"});
  try {
    load_agent("resolve:missing.strategy", GameDefinition::holdem_limit_2p());
    ADD_FAILURE() << "a missing blueprint was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "agent 'resolve:missing.strategy': no blueprint strategy file missing.strategy");
  }
  EXPECT_THROW(load_policy("resolve:missing.strategy", "", GameDefinition::holdem_limit_2p()),
               InputError);
}

// On the 12-card 3-round game the agent plays the blueprint preflop and on the flop, and from
// the turn the re-solved strategy: its probabilities there are the re-solve's average strategy
// for its hand, and a second agent given the same state gives the same bits.
TEST(ResolvingAgent, PlaysTheResolvedStrategyFromTheTurn) {
  const SmallGame g("holdem.limit.2p.12card.3rounds");
  auto tables = std::make_shared<StrategyTables>(g.tree, g.abstraction, TablePrecision::kFloat64);
  CfrParameters params;
  params.algorithm = "cfr+";
  make_cfr_algorithm(params, g.tree, g.abstraction, *tables)->run(1, 3, 1);
  auto policy = std::make_shared<AveragePolicy>(g.tree, g.abstraction, *tables);
  auto tree = std::make_shared<const BettingTree>(g.game);
  ResolvingAgentOptions options;
  options.first_round = 2;
  options.resolve.iterations = 50;
  ResolvingAgent a(policy, tree, options, "a"), b(policy, tree, options, "b");
  GameState s = dealt_state(g.game);
  s.apply_betting("rc/c");
  const auto flop = a.action_probabilities(s, s.current_player());
  ASSERT_TRUE(flop.has_value());
  EXPECT_EQ(a.solves(), 0);  // the flop is the blueprint's
  s.apply_betting("c/");
  ASSERT_EQ(s.round(), 2);
  const int p = s.current_player();
  const auto pa = a.action_probabilities(s, p);
  const auto pb = b.action_probabilities(s, p);
  ASSERT_TRUE(pa && pb);
  EXPECT_EQ(*pa, *pb);
  EXPECT_EQ(a.solves(), 1);
  EXPECT_NEAR((*pa)[0] + (*pa)[1] + (*pa)[2], 1.0, 1e-12);
  SplitMix64 rng(3);
  const BetAction act = a.act(s, p, rng);
  EXPECT_TRUE(s.is_legal(act));
  EXPECT_EQ(a.solves(), 1);  // the same public state: no second solve
  EXPECT_EQ(a.last_resolve()->iterations, 50);
}

}  // namespace
}  // namespace hulhe
