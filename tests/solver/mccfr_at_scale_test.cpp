// The sampling algorithms as they run on HULHE — external sampling with its Linear CFR,
// delay and pruning options, public chance sampling dealing boards from the deck — checked
// on a toy hold'em (8 cards, two rounds) where exact answers exist: over the lossless
// abstraction they converge to the real equilibrium, over a coarser (clustered) abstraction
// to the same abstract equilibrium as full-traversal CFR+ on it.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "best_response/best_response.h"
#include "best_response/exploitability.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "solver/external_sampling_mccfr.h"
#include "solver/linear_discounting.h"
#include "solver/public_chance_sampling_cfr.h"
#include "tests/support/same_tables.h"
#include "tests/support/solver_test_games.h"

namespace hulhe {
namespace {

using testing::SmallGame;

// Clustered on the preflop (only the hole cards' higher rank: 4 buckets), lossless on the
// flop. The flop bucket determines the preflop one, so the abstract game has perfect
// recall and one equilibrium value, which every CFR variant must approach.
class PreflopClassAbstraction final : public CardAbstraction {
 public:
  explicit PreflopClassAbstraction(const GameDefinition& game) : lossless_(game) {}
  int num_rounds() const override { return lossless_.num_rounds(); }
  std::int32_t num_buckets(int round) const override {
    return round == 0 ? kMaxRanks : lossless_.num_buckets(round);
  }
  std::int32_t bucket(int round, const Card* hole, const Card* board) const override {
    if (round != 0) return lossless_.bucket(round, hole, board);
    return std::max(rank_of(hole[0]), rank_of(hole[1]));
  }
  std::uint64_t hash() const override { return lossless_.hash() ^ 0x5052454c4f50ULL; }
  std::string describe() const override { return "preflop classes + lossless flop"; }

 private:
  LosslessAbstraction lossless_;
};

struct Toy {
  GameDefinition game;
  BettingTree tree;
  std::unique_ptr<CardAbstraction> abstraction;
  StrategyTables tables;

  explicit Toy(bool clustered)
      : game(GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) +
                                       "/configs/games/holdem.limit.2p.8card.2rounds.game")),
        tree(game) {
    if (clustered)
      abstraction = std::make_unique<PreflopClassAbstraction>(game);
    else
      abstraction = std::make_unique<LosslessAbstraction>(game);
    tables = StrategyTables(tree, *abstraction);
  }
  ExploitabilityReport report() const {
    const AveragePolicy policy(tree, *abstraction, tables);
    return compute_exploitability(policy);
  }
};

CfrParameters params_for(const std::string& algorithm, std::uint64_t seed = 1) {
  CfrParameters p;
  p.algorithm = algorithm;
  p.seed = seed;
  return p;
}

// The deck-sampling scale of public chance sampling (what HULHE uses), forced on a toy game.
class DealtPcs final : public VectorFormCfr {
 public:
  DealtPcs(const CfrParameters& params, Toy& toy)
      : VectorFormCfr(params, toy.tree, *toy.abstraction, toy.tables, BoardMode::kSampleDeck) {}
  void run(std::int64_t first, std::int64_t count, int threads) override {
    run_with_linear_discounting(params_, tables_, first, count, threads,
                                [&](std::int64_t from, std::int64_t n) {
                                  for (std::int64_t t = from; t < from + n; ++t) {
                                    SplitMix64 rng = SplitMix64::for_iteration(params_.seed, t);
                                    walker_.sample_board(0, rng);
                                    for (int player = 0; player < 2; ++player) {
                                      CfrPass pass;
                                      pass.traverser = player;
                                      pass.set_tables(tables_);
                                      pass.average_weight = t > params_.average_delay ? 1.0 : 0.0;
                                      pass.sampled = true;
                                      walker_.cfr_pass_on(0, pass);
                                    }
                                  }
                                });
  }
};

TEST(MccfrAtScaleSlow, ExternalSamplingSolvesTheToyGame) {
  Toy toy(false);
  const double uniform = toy.report().exploitability_chips;
  CfrParameters p = params_for("external", 3);
  p.discount_interval = 20000;  // Linear CFR over the first half
  p.discount_until = 200000;
  p.average_delay = 20000;
  ExternalSamplingMccfr(toy.tree, *toy.abstraction, toy.tables, p).run(1, 1000000, 1);
  const ExploitabilityReport r = toy.report();
  EXPECT_LT(r.exploitability_chips, 0.02 * uniform) << "uniform: " << uniform;
  EXPECT_LT(r.exploitability_chips, 0.05);
}

TEST(MccfrAtScaleSlow, DealtPublicChanceSamplingSolvesTheToyGame) {
  Toy toy(false);
  const double uniform = toy.report().exploitability_chips;
  DealtPcs(params_for("pcs", 5), toy).run(1, 20000, 1);
  const ExploitabilityReport r = toy.report();
  EXPECT_LT(r.exploitability_chips, 0.02 * uniform) << "uniform: " << uniform;
  EXPECT_LT(r.exploitability_chips, 0.05);
}

TEST(MccfrAtScaleSlow, SamplingReachesCfrPlusAbstractValueOnAClusteredAbstraction) {
  Toy exact(true);
  make_cfr_algorithm(params_for("cfr+"), exact.tree, *exact.abstraction, exact.tables)
      ->run(1, 400, 1);
  const ExploitabilityReport cfr = exact.report();
  // The abstraction is coarse, so the real game exploits it: its equilibrium is not the real one.
  EXPECT_GT(cfr.exploitability_chips, 1e-3);

  Toy es(true);
  CfrParameters p = params_for("external", 7);
  p.discount_interval = 20000;
  p.discount_until = 200000;
  ExternalSamplingMccfr(es.tree, *es.abstraction, es.tables, p).run(1, 1000000, 1);
  Toy pcs(true);
  DealtPcs(params_for("pcs", 8), pcs).run(1, 20000, 1);
  // Abstract game value (seat 0): all three solve the same abstract game.
  const double tolerance = 0.01;  // chips; the game's pot is up to 24 chips
  EXPECT_NEAR(es.report().game_value, cfr.game_value, tolerance);
  EXPECT_NEAR(pcs.report().game_value, cfr.game_value, tolerance);
}

TEST(MccfrAtScale, OneThreadRunsWithEveryOptionAreDeterministicAndResumable) {
  CfrParameters p = params_for("external", 11);
  p.discount_interval = 1000;
  p.discount_until = 5000;
  p.average_delay = 500;
  p.prune_after = 2000;
  p.prune_threshold = -5.0;
  p.regret_floor = -6.0;
  Toy straight(true), resumed(true);
  ExternalSamplingMccfr(straight.tree, *straight.abstraction, straight.tables, p).run(1, 8000, 1);
  ExternalSamplingMccfr a(resumed.tree, *resumed.abstraction, resumed.tables, p);
  a.run(1, 3000, 1);
  ExternalSamplingMccfr(resumed.tree, *resumed.abstraction, resumed.tables, p).run(3001, 5000, 1);
  testing::expect_same_tables(straight.tables, resumed.tables);
  for (double r : straight.tables.regret_values()) ASSERT_GE(r, -6.0);  // the floor holds

  Toy d1(true), d2(true);
  DealtPcs(params_for("pcs", 12), d1).run(1, 300, 1);
  DealtPcs first(params_for("pcs", 12), d2);
  first.run(1, 100, 1);
  DealtPcs(params_for("pcs", 12), d2).run(101, 200, 1);
  EXPECT_EQ(d1.tables.regret_values(), d2.tables.regret_values());
}

// A solve over N MPI ranks runs each rank's walk with regret_weight = N
// (distributed/distributed_solve.h). Regret matching is scale-invariant and doubling is exact
// in floating point, so with weight 2 the run samples the same strategies and ends with
// exactly twice the regrets and the same average sums, on every path a rank can take.
TEST(MccfrAtScale, RegretWeightDoublesEveryRegretAndNoAverageSum) {
  for (const char* algorithm : {"external", "pcs"})
    for (int threads : {1, 2}) {
      if (std::string(algorithm) == "external" && threads == 2) continue;  // hogwild: racy
      Toy plain(false), weighted(false);
      CfrParameters p = params_for(algorithm, 7);
      make_cfr_algorithm(p, plain.tree, *plain.abstraction, plain.tables)->run(1, 300, threads);
      p.regret_weight = 2.0;
      make_cfr_algorithm(p, weighted.tree, *weighted.abstraction, weighted.tables)
          ->run(1, 300, threads);
      const std::vector<double> r1 = plain.tables.regret_values();
      const std::vector<double> r2 = weighted.tables.regret_values();
      ASSERT_EQ(r1.size(), r2.size());
      int moved = 0;
      for (std::size_t i = 0; i < r1.size(); ++i) {
        ASSERT_EQ(r2[i], 2.0 * r1[i]) << algorithm << " entry " << i;
        moved += r1[i] != 0.0;
      }
      EXPECT_GT(moved, 100) << algorithm;
      EXPECT_EQ(weighted.tables.average_sum_values(), plain.tables.average_sum_values())
          << algorithm;
    }
}

TEST(LinearDiscounting, ScalesAfterEachIntervalUpToTheLimit) {
  // Interval 10 up to 30: after iterations 10, 20 and 30 the tables are scaled by 1/2, 2/3
  // and 3/4, however the run is cut into calls.
  Toy toy(false);
  CfrParameters p;
  p.discount_interval = 10;
  p.discount_until = 30;
  for (std::int64_t chunk : {1, 7, 100}) {
    std::fill(toy.tables.regrets<float>().begin(), toy.tables.regrets<float>().end(), 0.0F);
    std::vector<std::int64_t> segments;
    for (std::int64_t first = 1; first <= 100; first += chunk) {
      const std::int64_t count = std::min<std::int64_t>(chunk, 101 - first);
      run_with_linear_discounting(p, toy.tables, first, count, 1,
                                  [&](std::int64_t from, std::int64_t n) {
                                    // Each iteration adds 1 to entry 0.
                                    toy.tables.regrets<float>()[0] += static_cast<float>(n);
                                    segments.push_back(from);
                                  });
    }
    // ((10 * 1/2 + 10) * 2/3 + 10) * 3/4 + 70
    EXPECT_FLOAT_EQ(toy.tables.regrets<float>()[0],
                    ((10.0F * 0.5F + 10.0F) * 2.0F / 3.0F + 10.0F) * 0.75F + 70.0F)
        << chunk;
  }
}

}  // namespace
}  // namespace hulhe
