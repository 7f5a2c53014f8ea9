#pragma once
// What the solve driver needs of every CFR-family algorithm. Each algorithm lives in its own
// file (vanilla_cfr, cfr_plus, discounted_cfr, external_sampling_mccfr,
// outcome_sampling_mccfr, public_chance_sampling_cfr) and updates a StrategyTables.
//
// Determinism: every random choice derives from (seed, iteration number) alone, so a
// 1-thread run is deterministic and a run resumed from a checkpoint continues bit-for-bit.
#include <cstdint>
#include <memory>
#include <string>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"
#include "solver/strategy_tables.h"

namespace hulhe {

struct CfrParameters {
  std::string algorithm = "cfr+";  // cfr, cfr+, dcfr, external, outcome, pcs
  std::uint64_t seed = 1;
  double dcfr_alpha = 1.5;  // Brown & Sandholm 2019 defaults
  double dcfr_beta = 0.0;
  double dcfr_gamma = 2.0;
  std::int64_t cfr_plus_delay = 0;  // averaging weight max(t - d, 0)
  double outcome_epsilon = 0.6;     // Lanctot et al. 2009
};

class CfrAlgorithm {
 public:
  virtual ~CfrAlgorithm() = default;
  // Runs iterations first, first+1, ..., first+count-1 (1-based; `first` is one more than
  // the number already done) with `threads` OpenMP threads.
  virtual void run(std::int64_t first, std::int64_t count, int threads) = 0;
  virtual StrategyTables& tables() = 0;
};

// Throws InputError for an unknown algorithm name.
std::unique_ptr<CfrAlgorithm> make_cfr_algorithm(const CfrParameters& params,
                                                 const BettingTree& tree,
                                                 const CardAbstraction& abstraction,
                                                 StrategyTables& tables);

}  // namespace hulhe
