#pragma once
// What the solve driver needs of every CFR-family algorithm. Each algorithm lives in its own
// file (vanilla_cfr, cfr_plus, discounted_cfr, cfr_br, hybrid_cfr_br, external_sampling_mccfr,
// outcome_sampling_mccfr, public_chance_sampling_cfr) and updates a StrategyTables.
//
// Determinism: every random choice derives from (seed, iteration number) alone, so a
// 1-thread run is deterministic and a run resumed from a checkpoint continues bit-for-bit.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"
#include "public_tree/strategy_tables.h"

namespace hulhe {

struct CfrParameters {
  std::string algorithm = "cfr+";  // cfr, cfr+, dcfr, cfr-br, external, outcome, pcs
  std::uint64_t seed = 1;
  double dcfr_alpha = 1.5;  // Brown & Sandholm 2019 defaults
  double dcfr_beta = 0.0;
  double dcfr_gamma = 2.0;
  std::int64_t cfr_plus_delay = 0;  // averaging weight max(t - d, 0)
  double outcome_epsilon = 0.6;     // Lanctot et al. 2009
  // Sampling algorithms at scale (external, pcs); every default leaves the plain algorithm.
  // Linear CFR by periodic discounting (Brown & Sandholm 2019, "Solving imperfect-information
  // games via discounted regret minimization"; as Pluribus does it): after iteration k·N,
  // k = 1, 2, ..., while k·N <= discount_until, regrets and average sums are scaled by
  // k/(k+1), so interval k weighs in proportion to k. 0 = off.
  std::int64_t discount_interval = 0;
  std::int64_t discount_until = 0;
  // Average strategy accumulated only from this iteration on: early strategies are noise
  // (Tammelin et al. 2015 delay CFR+ averaging; Pluribus starts the average late).
  std::int64_t average_delay = 0;
  // Regret-based pruning (Brown & Sandholm 2015; Pluribus's MCCFR-P): from this iteration
  // on, in a fraction prune_probability of iterations the traverser skips actions whose
  // regret is below prune_threshold; regrets are floored at regret_floor so a pruned action
  // can come back. 0 = off.
  std::int64_t prune_after = 0;
  double prune_threshold = -300000.0;
  double prune_probability = 0.95;
  double regret_floor = -310000.0;
  // What each regret increment of the sampling algorithms (external, pcs) is multiplied by:
  // 1 in one process. A solve over N MPI ranks sets N, so that a rank's own changes stand
  // for the whole job's between syncs and the sync can average the ranks' tables instead of
  // forming the sum of changes from a copy of the last sync's tables (docs/distributed.md).
  // Not a config key and not in checkpoints.
  double regret_weight = 1.0;
};

class CfrAlgorithm {
 public:
  virtual ~CfrAlgorithm() = default;
  // Runs iterations first, first+1, ..., first+count-1 (1-based; `first` is one more than
  // the number already done) with `threads` OpenMP threads.
  virtual void run(std::int64_t first, std::int64_t count, int threads) = 0;
  virtual StrategyTables& tables() = 0;
  // What a resumed run needs beyond the tables (the hybrid opponent's trunk regrets of
  // sampled CFR-BR, hybrid_cfr_br.h); null when nothing. Checkpoints keep it (version 5).
  virtual std::vector<float>* extra_state() { return nullptr; }
};

// The precision an algorithm's tables get unless the config says otherwise: float64 for the
// exact full-traversal family (cfr, cfr+, dcfr, cfr-br), whose sums grow as t^2 (t for cfr,
// cfr-br) and would stall in float rounding (strategy_tables.h); float32 for the sampling
// algorithms, which run at HULHE scale where memory and cache traffic decide.
TablePrecision default_table_precision(const std::string& algorithm);
// The layout an algorithm's tables get (strategy_tables.h): bucket-major for the algorithms
// that walk one sampled deal (external, outcome), whose path through a round then stays in
// one bucket's block; node-major for the vector-form ones, which read every bucket of a node.
TableLayout default_table_layout(const std::string& algorithm);

}  // namespace hulhe
