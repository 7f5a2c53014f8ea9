#include "best_response/holdem/paired_difference.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "best_response/holdem/systematic_sample.h"
#include "util/input_error.h"

namespace hulhe {

PairedDifference paired_difference(const HoldemBestResponseReport& a,
                                   const HoldemBestResponseReport& b) {
  const bool estimated_a = a.complete || a.interim, estimated_b = b.complete || b.interim;
  if (!estimated_a || !estimated_b || a.interim != b.interim)
    throw InputError(
        "paired difference: both best responses must be complete, or both interim on the same "
        "finished flops");
  if (a.exact != b.exact || a.flop_classes != b.flop_classes ||
      a.suit_isomorphism != b.suit_isomorphism)
    throw InputError(
        "paired difference: the two best responses are not over the same flops (one exact, "
        "or different flop classes)");
  PairedDifference d;
  d.difference = a.mean - b.mean;
  if (a.exact) return d;
  if (a.draw_units != b.draw_units || a.draw_contributions.size() != a.draw_units.size() ||
      b.draw_contributions.size() != b.draw_units.size())
    throw InputError(
        "paired difference: the two estimates drew different flops (use the same --flops "
        "and --seed for both)");
  std::vector<double> z(a.draw_contributions.size());
  for (std::size_t k = 0; k < z.size(); ++k)
    z[k] = a.draw_contributions[k] - b.draw_contributions[k];
  const SystematicSampleEstimate est =
      estimate_systematic_sample(z, a.draw_covariates, a.covariate_means);
  d.ci95 = est.ci95;
  d.regression = est.regression;
  return d;
}

HoldemBestResponseOptions baseline_options(HoldemBestResponseOptions strategy,
                                           const HoldemBestResponseReport& report,
                                           std::string resume_file) {
  strategy.subgames = nullptr;
  strategy.deal_journal.clear();
  strategy.resume_file = std::move(resume_file);
  strategy.max_units = -1;
  strategy.only_units = report.interim ? report.interim_units : std::vector<std::int32_t>{};
  return strategy;
}

}  // namespace hulhe
