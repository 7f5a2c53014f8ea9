#include "solver/cfr_algorithm_factory.h"

#include "solver/cfr_br.h"
#include "solver/cfr_plus.h"
#include "solver/discounted_cfr.h"
#include "solver/external_sampling_mccfr.h"
#include "solver/hybrid_cfr_br.h"
#include "solver/outcome_sampling_mccfr.h"
#include "solver/public_chance_sampling_cfr.h"
#include "solver/vanilla_cfr.h"
#include "util/input_error.h"

namespace hulhe {

std::unique_ptr<CfrAlgorithm> make_cfr_algorithm(const CfrParameters& params,
                                                 const BettingTree& tree,
                                                 const CardAbstraction& abstraction,
                                                 StrategyTables& tables) {
  const std::string& a = params.algorithm;
  if (a == "cfr") return std::make_unique<VanillaCfr>(params, tree, abstraction, tables);
  if (a == "cfr+") return std::make_unique<CfrPlus>(params, tree, abstraction, tables);
  if (a == "dcfr") return std::make_unique<DiscountedCfr>(params, tree, abstraction, tables);
  // CFR-BR with an exact best response each iteration where affordable; else sampled, with
  // the hybrid opponent (HULHE).
  if (a == "cfr-br") {
    if (cfr_br_unavailable_reason(tree.game()).empty())
      return std::make_unique<CfrBr>(params, tree, abstraction, tables);
    return std::make_unique<HybridCfrBr>(params, tree, abstraction, tables);
  }
  if (a == "pcs")
    return std::make_unique<PublicChanceSamplingCfr>(params, tree, abstraction, tables);
  if (a == "external")
    return std::make_unique<ExternalSamplingMccfr>(tree, abstraction, tables, params);
  if (a == "outcome")
    return std::make_unique<OutcomeSamplingMccfr>(tree, abstraction, tables, params.seed,
                                                  params.outcome_epsilon);
  throw InputError("unknown algorithm '" + a +
                   "' (known: cfr, cfr+, dcfr, cfr-br, external, outcome, pcs)");
}

}  // namespace hulhe
