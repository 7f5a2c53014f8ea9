#pragma once
// Local best response (Lisý & Bowling 2017, "Equilibrium approximation quality of current
// no-limit poker bots"), adapted to limit betting: a cheap lower bound on a strategy's
// exploitability in the real game, for games too big for the exact best response or as a
// quick check between runs.
//
// The responder plays N hands against the policy (deals from per-hand seeds; hand i puts the
// responder in position i % 2). The policy samples its actions from its own strategy at its
// actual cards' buckets. The responder keeps the opponent's range: a weight per private hand
// (1,326 in HULHE) given the public history, zero for hands that share a card with its own
// or the board, multiplied at every opponent action by the policy's probability of that
// action at the hand's bucket (Bayes), renormalised. At each of its decisions the responder
// picks the action of largest immediate value, assuming both players check/call to the end:
//   fold:  -(own chips committed)
//   call:  C · (2·eq − 1), C the commitment after the call, eq the equity (wins + ties / 2)
//          against the range with the rest of the board dealt at random (range_equity.h)
//   raise: fp · (opponent's chips committed) + (1 − fp) · C' · (2·eq' − 1), fp the
//          range-weighted probability that the policy folds to the raise, C' the commitment
//          after the raise is called, eq' the equity against the range of hands that call.
// Ties prefer call, then raise, then fold. The responder's actions use only its cards, the
// board and the public actions, so LBR is a strategy of the real game and its expected value
// can never exceed the best response's. Each hand's result is the chips the responder
// actually won; the report is their mean with a 95% interval (1.96 · s / √N).
//
// Determinism: every random choice of hand i (cards, the policy's actions, Monte Carlo
// boards) comes from a stream seeded by (seed, i), and hands are summed in order, so a
// report depends on the seed only, not on the number of threads.
#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "abstraction/policy.h"
#include "best_response/range_equity.h"
#include "game/betting_tree.h"
#include "public_tree/private_hands.h"
#include "util/progress.h"

namespace hulhe {

struct LocalBestResponseOptions {
  std::int64_t hands = 10000;
  std::uint64_t seed = 1;
  int threads = 1;
  RangeEquityOptions equity;
  // Hands done, rate, ETA and the mean so far: called from one thread at most every
  // progress_every_seconds, and once after the last hand.
  ProgressCallback on_progress;
  double progress_every_seconds = 2.0;
};

struct LocalBestResponseReport {
  std::int64_t hands = 0;
  // Chips per hand won by the responder, both positions together, with the 95% half-width.
  double mean = 0.0;
  double ci95 = 0.0;
  // The same with the responder in position t (hands i with i % 2 == t).
  std::array<double, 2> seat_mean{};
  std::array<double, 2> seat_ci95{};
  std::array<std::int64_t, 2> seat_hands{};
  // The responder's decisions by action kind (fold, call, raise).
  std::array<std::int64_t, kNumActionKinds> decisions{};
  double seconds = 0.0;
};

// One decision of the responder, with the values it compared.
struct LbrDecision {
  std::array<double, kNumActionKinds> value{};  // by Action kind; -inf when not legal
  double fold_probability = 0.0;                // the policy's, to the raise (0 without one)
  int slot = 0;                                 // the chosen action's slot at the node
};

class LocalBestResponse {
 public:
  // Throws InputError for games it does not handle (2 players, limit, 1 or 2 hole cards, no
  // board before the first round).
  LocalBestResponse(const Policy& policy, LocalBestResponseOptions options);
  ~LocalBestResponse();

  LocalBestResponseReport run() const;
  // The responder's chips in hand i, exactly as run() plays it.
  double play_hand(std::int64_t i) const;
  // The responder's decision in position `seat` holding hand `hand` (an id of hands()) at
  // decision node `node` (index into the tree's nodes()) with the first
  // total_board_cards(round) cards of `board` known and the opponent's range `range` (by
  // hand id; need not be normalised). `seed` feeds the Monte Carlo boards, if any.
  LbrDecision decide(int seat, std::int32_t hand, const Card* board, std::int32_t node,
                     std::span<const double> range, std::uint64_t seed = 1) const;

  const PrivateHands& hands() const;
  const RangeEquity& equity() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hulhe
