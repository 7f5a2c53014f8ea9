#pragma once
// Runs an algorithm from make_cfr_algorithm for a fixed number of iterations on a small
// game and reports the exact exploitability and game value of its average strategy.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "best_response/exploitability.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "tests/support/solver_test_games.h"

namespace hulhe::testing {

struct Solved {
  ExploitabilityReport report;
  StrategyTables tables;
};

// Tables in the algorithm's default precision unless `precision` is given.
inline Solved solve_for(const SmallGame& g, const std::string& algorithm, std::int64_t iterations,
                        int threads = 1, std::uint64_t seed = 1,
                        std::optional<TablePrecision> precision = std::nullopt) {
  Solved s{{},
           StrategyTables(g.tree, g.abstraction,
                          precision.value_or(default_table_precision(algorithm)))};
  CfrParameters params;
  params.algorithm = algorithm;
  params.seed = seed;
  auto algo = make_cfr_algorithm(params, g.tree, g.abstraction, s.tables);
  algo->run(1, iterations, threads);
  AveragePolicy policy(g.tree, g.abstraction, s.tables);
  s.report = compute_exploitability(policy);
  return s;
}

// Exploitability of the average strategy after each iteration count in `marks` (ascending),
// one run of `algorithm` on 1 thread with tables in its default precision.
inline std::vector<double> exploitability_at(const SmallGame& g, const std::string& algorithm,
                                             const std::vector<std::int64_t>& marks) {
  StrategyTables tables(g.tree, g.abstraction, default_table_precision(algorithm));
  CfrParameters params;
  params.algorithm = algorithm;
  auto algo = make_cfr_algorithm(params, g.tree, g.abstraction, tables);
  const AveragePolicy policy(g.tree, g.abstraction, tables);
  std::vector<double> out;
  std::int64_t done = 0;
  for (const std::int64_t mark : marks) {
    algo->run(done + 1, mark - done, 1);
    done = mark;
    out.push_back(compute_exploitability(policy).exploitability_chips);
  }
  return out;
}

// Issue 20's regression check: `algorithm` on Leduc, in its default table precision (float64),
// is below a millionth of a chip after `late` iterations and still falling (below 0.6 times
// its exploitability after `early`).
inline void expect_leduc_below_a_millionth_and_falling(const std::string& algorithm,
                                                       std::int64_t early, std::int64_t late) {
  EXPECT_EQ(default_table_precision(algorithm), TablePrecision::kFloat64);
  const std::vector<double> e = exploitability_at(SmallGame("leduc"), algorithm, {early, late});
  EXPECT_LT(e[1], 1e-6);
  EXPECT_LT(e[1], 0.6 * e[0]) << "stalled: " << e[0] << " -> " << e[1];
}

}  // namespace hulhe::testing
