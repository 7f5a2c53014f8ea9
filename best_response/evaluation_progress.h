#pragma once
// The progress of a strategy evaluation (the hold'em best response's flop units, local best
// response's hands) is the one progress report of every long job (util/progress.h): these
// names stay for the hold'em best response and the Python module, which spell it so.
#include "util/progress.h"

namespace hulhe {

using EvaluationProgress = Progress;
using EvaluationProgressCallback = ProgressCallback;

}  // namespace hulhe
