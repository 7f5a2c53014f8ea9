#pragma once
// Equity of 2..10 hold'em hands or ranges, with an optional board and dead cards: for each
// player the probability of winning outright, of tying, the equity (ties shared equally),
// and the distribution of the final 5-card category. Every combination of the players'
// ranges that shares no card is dealt with probability proportional to the product of the
// combinations' weights; boards are completed uniformly from the remaining cards.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "game/card.h"
#include "game/equity/range.h"
#include "game/hand_evaluator.h"

namespace hulhe {

enum class EquityMethod { kAuto, kExact, kMonteCarlo };
const char* equity_method_name(EquityMethod m);  // "auto", "exact", "monte-carlo"

struct EquityRequest {
  std::vector<Range> players;  // 2..10
  std::vector<Card> board;     // 0, 3, 4 or 5 cards
  CardSet dead;                // cards out of the deck (seen, burnt, folded)
  EquityMethod method = EquityMethod::kAuto;
  // Monte Carlo stops when every player's equity has this standard error, or after
  // max_seconds (0 = no time limit), whichever comes first; at least one must be set.
  double target_stderr = 0.001;
  double max_seconds = 0;
  int threads = 0;  // 0 = OpenMP's default
  std::uint64_t seed = 1;
};

struct PlayerEquity {
  double equity = 0;  // wins + shared ties
  double win = 0;
  double tie = 0;
  std::array<double, kNumHandCategories> categories{};  // by HandCategory, sums to 1
  // Exact only: weighted number of deals won outright / tied (equal to counts when every
  // weight is 1), and equity in the same unit.
  double win_deals = 0;
  double tie_deals = 0;
  double equity_deals = 0;
};

struct EquityResult {
  std::vector<PlayerEquity> players;
  EquityMethod method = EquityMethod::kExact;
  // Exact: number of (player hands, board) deals enumerated, counting each one of a group
  // of suit-isomorphic deals. Monte Carlo: number of deals sampled.
  std::uint64_t combinations = 0;
  double total_weight = 0;      // exact: weighted number of deals (the unit of *_deals)
  double stderr_max = 0;        // Monte Carlo: largest standard error of a player's equity
  std::vector<double> stderrs;  // Monte Carlo: per player
  double seconds = 0;           // wall time, without the one-time build of the evaluator's tables
};

// Checks the request (InputError naming the problem), picks the method and runs it.
EquityResult compute_equity(const EquityRequest& request);

// Exact is chosen when its estimated work is small enough to finish in about a second.
EquityMethod choose_equity_method(const EquityRequest& request);

// The work of an exact enumeration, estimated before any of it is done (issue 20: `equity
// random random random --exact` ran for minutes without a word, and kept a class table of
// tens of GB). `deals`: player-hand deals visited (the product of the ranges' sizes once the
// board and dead cards are out, an upper bound); `classes`: suit-isomorphism classes kept
// (deals / the suit permutations that fix board and dead cards, a lower bound); `seconds`:
// the visit on one thread plus the classes' boards on `threads`, at rates measured on the
// shared 2-vCPU machine of docs/hand-evaluator.md (within a factor of about 2).
struct ExactWork {
  double deals = 0;
  double classes = 0;
  double seconds = 0;
};
ExactWork estimate_exact_work(const EquityRequest& request, int threads);

}  // namespace hulhe
