#pragma once
// The difference of two strategies' real-game exploitability, estimated from best responses
// to both on the same sampled flops (common random numbers), with the interval of the
// difference itself.
//
// Two strategies made by similar solves are exploited on the same flops for similar reasons,
// so their per-flop errors are correlated and most of the flop-to-flop spread cancels in the
// difference: the paired interval is far narrower than the two intervals side by side, which
// is what a comparison of strategies needs. The estimator is linear in each draw's
// contribution z_k (systematic_sample.h: the regression adjustment and the successive
// differences both are), so the difference's contributions are z_k(a) − z_k(b) over the same
// draws, with the same covariates.
#include <string>

#include "best_response/holdem/holdem_best_response.h"

namespace hulhe {

struct PairedDifference {
  double difference = 0.0;  // a.mean − b.mean, chips per hand
  double ci95 = 0.0;        // half-width of its 95% interval (0 for exact runs)
  bool regression = false;  // whether the flops' rank covariates were used
};

// a and b: complete runs of the same game, both exact or both sampled with the same flops
// drawn (same flop classes, seed and count), or both interim estimates over the same finished
// flops of such runs (HoldemBestResponseReport::interim). InputError otherwise.
PairedDifference paired_difference(const HoldemBestResponseReport& a,
                                   const HoldemBestResponseReport& b);

// The options of a baseline's best response to pair with a strategy's (run with `strategy`,
// reported as `report`, complete or interim): the same flops, the baseline measured as it is
// (no re-solving, no deal journal), its units journaled in `resume_file` (may be empty), and
// every flop the strategy finished computed now (`max_units` counts the strategy's units; an
// interim's flops only).
HoldemBestResponseOptions baseline_options(HoldemBestResponseOptions strategy,
                                           const HoldemBestResponseReport& report,
                                           std::string resume_file);

}  // namespace hulhe
