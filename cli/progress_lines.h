#pragma once
// The progress lines the CLI prints on stderr from the library's reports (the library itself
// prints nothing): the hold'em best response's units (`exploit`, `compare`, `run`), local best
// response's hands (`lbr`), and the abstraction builder's stages (`abstract`, `run`).
#include <string>

#include "abstraction/abstraction_builder.h"
#include "best_response/evaluation_progress.h"

namespace hulhe::cli {

// "best response: 3/10 units (30.0%), 0.5 units/s, 4 s/unit/thread, ETA 14.0s"
std::string best_response_progress_line(const EvaluationProgress& p);
// "lbr: 4000 / 10000 hands, 2000.0 hands/s, ETA 3.0s"
std::string lbr_progress_line(const EvaluationProgress& p);
// "  river: assign: 1721344/13960050 (12.3%), 860002/s, ETA 14.0s", or at a stage's end
// "  river: lloyd: 9 done in 3.6s" ("  stage: done in 1.0s" for a one-step stage).
std::string abstraction_progress_line(const AbstractionProgress& p);

// Callbacks that print those lines on stderr.
EvaluationProgressCallback print_best_response_progress();
EvaluationProgressCallback print_lbr_progress();  // timed reports only: the summary follows

}  // namespace hulhe::cli
