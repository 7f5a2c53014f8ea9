#pragma once
// The one place that names every algorithm of the CFR family: an algorithm by its config name
// (cfr, cfr+, dcfr, cfr-br, external, outcome, pcs). Kept apart from the interface
// (cfr_algorithm.h), which the algorithms themselves include, so that the interface does not
// depend on all eight of them.
#include <memory>

#include "solver/cfr_algorithm.h"

namespace hulhe {

// Throws InputError for an unknown algorithm name.
std::unique_ptr<CfrAlgorithm> make_cfr_algorithm(const CfrParameters& params,
                                                 const BettingTree& tree,
                                                 const CardAbstraction& abstraction,
                                                 StrategyTables& tables);

}  // namespace hulhe
