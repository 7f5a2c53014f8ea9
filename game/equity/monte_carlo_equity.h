#pragma once
// Monte Carlo equity: deals drawn at random (each player's combination by weight, rejecting
// deals whose combinations share a card, then the rest of the board uniformly), until every
// player's equity has the requested standard error or the time budget is spent.
//
// Deals come in fixed-size batches; batch k uses its own generator seeded from (seed, k) and
// batches are merged in order, stopping at the first batch that meets the standard error.
// So for a given seed the result does not depend on the number of threads (a time budget,
// by nature, does).
#include "game/equity/equity_calculator.h"

namespace hulhe::equity {

// `request` is validated; its ranges hold no combination that touches the board or dead cards.
EquityResult monte_carlo_equity(const EquityRequest& request);

}  // namespace hulhe::equity
