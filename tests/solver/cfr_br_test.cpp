// CFR-BR (Johanson, Bard, Burch & Bowling 2012): on a lossless abstraction it converges to an
// equilibrium of the real game; on a lossy one its average strategy is less exploitable in
// the real game than the abstract equilibrium CFR and CFR+ converge to; the response it
// trains against is a real-game best response; a resumed run continues bit-for-bit; configs
// select it, and HULHE gets the sampled hybrid.
#include "solver/cfr_br.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "best_response/exploitability.h"
#include "pipeline/solve_config.h"
#include "pipeline/solver_run.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm_factory.h"
#include "solver/checkpoint.h"
#include "solver/hybrid_cfr_br.h"
#include "tests/solver/cfr_convergence_helpers.h"
#include "tests/solver/lossy_leduc_abstraction.h"
#include "tests/solver/resumed_solve.h"
#include "tests/support/same_tables.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

struct Trained {
  StrategyTables tables;
  double exploitability = 0.0;
  double game_value = 0.0;
  ExploitabilityReport report;
};

// `algorithm` for `iterations` on `abstraction` of `game`, one thread; the real-game
// exploitability of the average strategy.
Trained train(const SmallGame& g, const CardAbstraction& abstraction, const std::string& algorithm,
              std::int64_t iterations) {
  Trained t{StrategyTables(g.tree, abstraction, default_table_precision(algorithm)), 0.0, 0.0, {}};
  CfrParameters params;
  params.algorithm = algorithm;
  make_cfr_algorithm(params, g.tree, abstraction, t.tables)->run(1, iterations, 1);
  const ExploitabilityReport r =
      compute_exploitability(AveragePolicy(g.tree, abstraction, t.tables));
  t.exploitability = r.exploitability_chips;
  t.game_value = r.game_value;
  t.report = r;
  return t;
}

// What holds for any strategy profile of a game whose value for seat 0 is `value` (known
// independently: docs/DESIGN.md's ground truth): a best response against seat 1 earns seat 0
// at least the value and one against seat 0 holds it to at most the value, so
// -br_value_vs_seat[0] <= value <= br_value_vs_seat[1]; and the profile's own value lies
// between the two, within NashConv of the game value.
void expect_best_responses_bracket(const ExploitabilityReport& r, double value) {
  EXPECT_LE(-r.br_value_vs_seat[0], value + 1e-12) << "a response holds seat 0 below the value";
  EXPECT_GE(r.br_value_vs_seat[1], value - 1e-12) << "a response earns less than the value";
  EXPECT_NEAR(r.nash_conv, r.br_value_vs_seat[0] + r.br_value_vs_seat[1], 1e-12);
  EXPECT_LE(std::abs(r.game_value - value), r.nash_conv + 1e-12);
}

// CFR-BR and vanilla CFR for `iterations` on the lossless abstraction of `g`, whose value for
// seat 0 is `value`: the best responses to both averages bracket it, and both are less
// exploitable than `bound` (chips). Returns the CFR-BR run.
Trained train_cfr_br_and_cfr(const SmallGame& g, std::int64_t iterations, double value,
                             double bound) {
  Trained br = train(g, g.abstraction, "cfr-br", iterations);
  const Trained cfr = train(g, g.abstraction, "cfr", iterations);
  std::printf("%s %lld iterations: cfr-br %.3e, cfr %.3e chips\n", g.game.name.c_str(),
              static_cast<long long>(iterations), br.exploitability, cfr.exploitability);
  expect_best_responses_bracket(br.report, value);
  expect_best_responses_bracket(cfr.report, value);
  EXPECT_LT(br.exploitability, bound);
  EXPECT_LT(cfr.exploitability, bound);
  return br;
}

// CFR-BR's bound (Johanson et al. 2012, Theorem 2 with Zinkevich et al. 2007, Theorem 4): each
// seat's average strategy is within its average regret against the sequence of responses of
// the best worst-case value, and CFR's average regret after T iterations is at most
// delta * |I| * sqrt(|A|) / sqrt(T) (delta: the range of payoffs; |I|: the seat's information
// sets; |A|: the most actions at one). On a lossless abstraction the best worst-case values are
// the game's, so NashConv is at most the two seats' bounds.
double cfr_br_nash_conv_bound(double delta, int information_sets, int actions, std::int64_t t) {
  return 2.0 * delta * information_sets * std::sqrt(static_cast<double>(actions)) /
         std::sqrt(static_cast<double>(t));
}

// Lossless: an equilibrium of the real game. Independent truths: Kuhn's value -1/18, which
// the best responses must bracket and the profile's value must approach within NashConv, and
// the theoretical bound (Kuhn: 6 information sets a seat, 2 actions, payoffs in [-2, 2]: 1.52
// chips of NashConv after 2,000 iterations). The bound proves little at this size; the rate's
// constant has no independent value, so the tight bound is the one vanilla CFR reaches at the
// same iterations (measured, one thread, deterministic: CFR-BR 3.52e-3 chips, CFR 5.29e-3).
TEST(CfrBr, KuhnLosslessReachesTheGameValue) {
  const SmallGame g("kuhn");
  const Trained br = train_cfr_br_and_cfr(g, 2000, kKuhnValue, 6e-3);
  EXPECT_EQ(br.tables.num_information_sets(), 2 * 6);
  EXPECT_LT(br.report.nash_conv, cfr_br_nash_conv_bound(4.0, 6, 2, 2000));
}

// Leduc's value -0.085606424078 bracketed by the responses and approached within NashConv (as
// for Kuhn). The tight bound is vanilla CFR's at equal iterations again (measured after 1000:
// CFR-BR 4.91e-2 chips, CFR 3.98e-2, both O(1/sqrt T)); the theoretical one is hundreds of
// chips at this size and is not asserted.
TEST(CfrBr, LeducLosslessReachesAnEquilibrium) {
  train_cfr_br_and_cfr(SmallGame("leduc"), 1000, kLeducValue, 6e-2);
}

// Lossy: CFR and CFR+ converge to an abstract equilibrium, CFR-BR to the abstract strategy
// least exploitable in the real game (Johanson et al. 2012), so no number of CFR iterations
// reaches what CFR-BR reaches: CFR and CFR+ after 2,000 iterations stay more exploitable than
// CFR-BR after 200. The least exploitable abstract strategy's value has no independent
// computation here (it is a linear program over this abstraction; CFR-BR's own long run puts
// it near 0.113, CfrBrSlow.LossyLeducTable), so the factor 3 between CFR-BR and CFR at equal
// iterations is the measured one (3.5 and 4.5: 0.144 against 0.51 and 0.64, one thread,
// deterministic) and the bound 0.18 CFR-BR's own, rounded up; every value is checked against
// Leduc's value as above.
TEST(CfrBr, LossyLeducIsLessExploitableThanCfrAndCfrPlus) {
  const SmallGame g("leduc");
  const LeducPairAbstraction lossy;
  const Trained br_early = train(g, lossy, "cfr-br", 200);
  const Trained br_run = train(g, lossy, "cfr-br", 2000);
  const Trained cfr_run = train(g, lossy, "cfr", 2000);
  const Trained plus_run = train(g, lossy, "cfr+", 2000);
  for (const Trained* t : {&br_early, &br_run, &cfr_run, &plus_run})
    expect_best_responses_bracket(t->report, kLeducValue);
  const double br = br_run.exploitability, cfr = cfr_run.exploitability,
               plus = plus_run.exploitability;
  std::printf("lossy leduc 2000 iterations: cfr-br %.6f (200: %.6f), cfr %.6f, cfr+ %.6f chips\n",
              br, br_early.exploitability, cfr, plus);
  EXPECT_LT(br, br_early.exploitability);
  EXPECT_GT(cfr, br_early.exploitability);
  EXPECT_GT(plus, br_early.exploitability);
  EXPECT_LT(br, 0.18);
  EXPECT_LT(3 * br, cfr);
  EXPECT_LT(3 * br, plus);
}

// The response written by the best-response walk is one: as the opponent of a CFR pass it
// earns exactly the best-response value.
TEST(CfrBr, TheWrittenResponseEarnsTheBestResponseValue) {
  const SmallGame g("leduc");
  const LeducPairAbstraction lossy;
  Trained t = train(g, lossy, "cfr", 50);
  std::vector<double> sigma;
  t.tables.all_current_strategies(sigma);
  PublicTreeTraversal walker(g.tree, lossy, t.tables);
  std::vector<double> response(walker.hand_strategy_size(), 0.0);
  for (int p = 0; p < 2; ++p) {
    const double br = walker.best_response_value(1 - p, sigma.data(), 1, response.data());
    StrategyTables scratch(g.tree, lossy, TablePrecision::kFloat64);
    CfrPass pass;
    pass.traverser = p;
    pass.strategy = sigma.data();
    pass.opponent_hand_strategy = response.data();
    pass.set_tables(scratch);
    pass.average_weight = 0.0;
    EXPECT_NEAR(walker.cfr_pass(pass), -br, 1e-12) << "seat " << p;
  }
}

// The table of docs/strategy-quality.md ("CFR-BR"): real-game exploitability of the average
// strategy of CFR, CFR+ and CFR-BR on the lossy Leduc abstraction after each iteration count,
// and the seconds each took (one thread, exploitability evaluations not timed).
TEST(CfrBrSlow, LossyLeducTable) {
  const SmallGame g("leduc");
  const LeducPairAbstraction lossy;
  const std::vector<std::int64_t> marks = {10, 100, 1000, 10000, 100000};
  for (const char* algorithm : {"cfr", "cfr+", "cfr-br"}) {
    StrategyTables tables(g.tree, lossy, default_table_precision(algorithm));
    CfrParameters params;
    params.algorithm = algorithm;
    auto algo = make_cfr_algorithm(params, g.tree, lossy, tables);
    const AveragePolicy policy(g.tree, lossy, tables);
    std::int64_t done = 0;
    double seconds = 0.0;
    std::vector<double> e;
    for (const std::int64_t mark : marks) {
      const auto start = std::chrono::steady_clock::now();
      algo->run(done + 1, mark - done, 1);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      done = mark;
      e.push_back(compute_exploitability(policy).exploitability_chips);
      std::printf("| %s | %lld | %.6f | %.2f |\n", algorithm, static_cast<long long>(mark),
                  e.back(), seconds);
    }
    if (std::string(algorithm) == "cfr-br") {
      EXPECT_LT(e.back(), e[2]);
    }
  }
}

SolveConfig leduc_config(std::int64_t iterations, const std::string& checkpoint) {
  SolveConfig c;
  c.game_path = std::string(HULHE_SOURCE_DIR) + "/configs/games/leduc.game";
  c.params.algorithm = "cfr-br";
  c.iterations = iterations;
  c.checkpoint = checkpoint;
  c.progress_every_seconds = 1e9;
  return c;
}

// 40 iterations straight == 20, checkpoint, resume to 40 (one thread).
TEST(CfrBr, ResumeIsBitForBit) {
  const TempFolder dir;
  const auto [a, b] = testing::expect_resume_is_bit_for_bit(
      leduc_config, 20, 40, dir / "straight.ckpt", dir / "halves.ckpt");
  EXPECT_EQ(a.params.algorithm, "cfr-br");
  EXPECT_EQ(a.tables.precision(), TablePrecision::kFloat64);
}

TEST(CfrBr, ConfigsSelectItAndHulheGetsTheSampledHybrid) {
  const TempFolder dir;
  const std::string path = dir / "kuhn.toml";
  spit(path, "game = \"" + std::string(HULHE_SOURCE_DIR) +
                 "/configs/games/kuhn.game\"\nalgorithm = \"cfr-br\"\niterations = 300\n");
  const SolveConfig config = SolveConfig::from_file(path);
  EXPECT_EQ(config.params.algorithm, "cfr-br");
  SolverRun run(config, false);
  const SolveSummary s = run.run({});
  ASSERT_TRUE(s.report.has_value());
  EXPECT_LT(s.report->exploitability_chips, 1e-2);

  // HULHE: too large for the exact response, so the sampled hybrid (hybrid_cfr_br.h) runs;
  // a run gets past the algorithm to the bucket map.
  SolveConfig hulhe =
      SolveConfig::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/hulhe-quick.toml");
  hulhe.params.algorithm = "cfr-br";
  hulhe.bucket_map = dir / "absent.buckets";
  try {
    SolverRun refused(hulhe, false);
    FAIL() << "an absent bucket map was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("absent.buckets"), std::string::npos) << e.what();
  }
  // The exact variant refuses HULHE; the hybrid takes it.
  const GameDefinition game = GameDefinition::from_file(
      std::string(HULHE_SOURCE_DIR) + "/configs/games/holdem.limit.2p.reverse_blinds.game");
  EXPECT_NE(cfr_br_unavailable_reason(game).find("too large"), std::string::npos);
  EXPECT_EQ(cfr_br_unavailable_reason(SmallGame("leduc").game), "");
  EXPECT_EQ(hybrid_cfr_br_unavailable_reason(game), "");
}

}  // namespace
}  // namespace hulhe
