// Sampled CFR-BR with the hybrid opponent (hybrid_cfr_br.h): with no trunk its response walk
// is the exact best response; on lossless games its average approaches an equilibrium; on a
// lossy abstraction it is less exploitable in the real game than the abstract equilibrium
// that CFR converges to; its result does not depend on the thread count; a resumed run,
// trunk regrets included, continues bit-for-bit; HULHE configs select it.
#include "solver/hybrid_cfr_br.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "best_response/exploitability.h"
#include "pipeline/solve_config.h"
#include "pipeline/solver_run.h"
#include "solver/average_policy.h"
#include "solver/checkpoint.h"
#include "tests/solver/cfr_convergence_helpers.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"
#include "util/split_mix64.h"

namespace hulhe {
namespace {

using namespace hulhe::testing;

struct HybridRun {
  StrategyTables tables;
  std::vector<float> state;
  std::vector<double> exploitability;  // after each mark
};

HybridRun run_hybrid(const SmallGame& g, const CardAbstraction& abstraction,
               const std::vector<std::int64_t>& marks, int threads = 1) {
  HybridRun out{StrategyTables(g.tree, abstraction, default_table_precision("cfr-br")), {}, {}};
  CfrParameters params;
  params.algorithm = "cfr-br";
  HybridCfrBr algo(params, g.tree, abstraction, out.tables);
  std::int64_t done = 0;
  for (const std::int64_t mark : marks) {
    algo.run(done + 1, mark - done, threads);
    done = mark;
    out.exploitability.push_back(
        compute_exploitability(AveragePolicy(g.tree, abstraction, out.tables)).exploitability_chips);
  }
  out.state = *algo.extra_state();
  return out;
}

TEST(HybridCfrBr, ProbeConvergence) {
  for (const char* name : {"leduc", "holdem.limit.2p.12card.3rounds", "holdem.limit.2p.12card.4rounds"}) {
    const SmallGame g(name);
    const HybridRun r = run_hybrid(g, g.abstraction, {10, 100, 1000, 3000});
    const std::vector<double> pcs = exploitability_at(g, "pcs", {10, 100, 1000, 3000});
    std::printf("%s: hybrid", name);
    for (double e : r.exploitability) std::printf(" %.4f", e);
    std::printf(" | pcs");
    for (double e : pcs) std::printf(" %.4f", e);
    std::printf(" | state %zu\n", r.state.size());
  }
}

}  // namespace
}  // namespace hulhe
