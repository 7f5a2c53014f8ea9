#pragma once
// Terminal values of the range solver (range_solver.h) for all of its hands at once, in O(n)
// per terminal with card removal (Johanson, Waugh, Bowling & Zinkevich 2011, "Accelerating
// best response calculation in large extensive games"). The solver's hands are only those
// that do not touch the subgame's root board (1,128 at a HULHE turn instead of 1,326), each
// with its two cards at hand, and each final board keeps its hands in showdown order with
// their cards beside them, so that the sweeps read contiguous arrays.
//
// Showdown in one sweep (rewritten as in best_response/holdem/limit_last_round_kernel.h): with
// W the opponent reach disjoint from hand h and strictly weaker, and W' the same including
// h's group of tied hands, the reach of stronger disjoint hands is F − W' (F: all disjoint
// reach, the fold sum), so the value is win·W + lose·(F − W'). Per-card sums are kept in
// double whatever `Real` is: they are differences of large sums.
#include <cstdint>
#include <vector>

#include "game/card.h"
#include "game/game_definition.h"
#include "public_tree/private_hands.h"

namespace hulhe {

// The hands of a subgame: those of `all` that share no card with the root board.
struct RangeHands {
  std::vector<std::int32_t> full;  // index into the game's PrivateHands
  std::vector<std::uint8_t> card_a, card_b;
  // Hands come in runs of one first card (the game's hands are listed by first card): the
  // per-card sums add a run at a time instead of a dependent add per hand.
  struct Run {
    std::uint8_t card;
    std::int32_t begin, end;
  };
  std::vector<Run> runs;

  RangeHands(const PrivateHands& all, CardSet root_board);
  std::int32_t size() const { return static_cast<std::int32_t>(full.size()); }
};

// One final board: the hands that do not touch it, weakest first.
struct RangeShowdown {
  std::vector<std::int32_t> hand;  // index into RangeHands
  std::vector<std::uint8_t> card_a, card_b;
  std::vector<std::int32_t> group_end;  // per position: one past the last hand tied with it
  std::vector<std::int32_t> touching;   // the hands of RangeHands that touch the board

  RangeShowdown(const GameDefinition& game, const PrivateHands& all, const RangeHands& hands,
                CardSet board);
};

// Fold: out[h] = payoff · (reach of opponent hands disjoint from h) where live[h] is 1, 0 where
// it is 0 (the hand touches the board). `opp_reach` is already 0 on such hands.
template <typename Real>
void range_fold_values(const RangeHands& hands, const Real* live, const Real* opp_reach,
                       Real payoff, Real* out);

// Showdown: out[h] = win · (reach of disjoint weaker hands) + lose · (reach of disjoint
// stronger hands); ties count as neither. Hands not in `order` get 0.
template <typename Real>
void range_showdown_values(const RangeHands& hands, const RangeShowdown& order,
                           const Real* opp_reach, Real win, Real lose, Real* out);

// The same for up to W terminals of one board at once, in lanes (W: 4, 8, 12 or 16): terminal L's
// opponent reach of hand h is reach[h·W + L] and its value goes to out[h·W + L]; payoffs per
// lane. One pass over the hands serves every terminal (the last round of a limit game has 9
// showdowns and 8 folds under each board), each lane with the arithmetic of the one-terminal
// functions above, so the values are the same bits. Unused lanes may hold anything finite.
template <typename Real, int W>
void range_fold_lanes(const RangeHands& hands, const Real* live, const Real* reach,
                      const Real* payoff, Real* out);
template <typename Real, int W>
void range_showdown_lanes(const RangeHands& hands, const RangeShowdown& order, const Real* reach,
                          const double* win, const double* lose, Real* out);

extern template void range_fold_values<float>(const RangeHands&, const float*, const float*, float,
                                              float*);
extern template void range_fold_values<double>(const RangeHands&, const double*, const double*,
                                               double, double*);
extern template void range_showdown_values<float>(const RangeHands&, const RangeShowdown&,
                                                  const float*, float, float, float*);
extern template void range_showdown_values<double>(const RangeHands&, const RangeShowdown&,
                                                   const double*, double, double, double*);
#define HULHE_RANGE_LANES_EXTERN(Real, W)                                                     \
  extern template void range_fold_lanes<Real, W>(const RangeHands&, const Real*, const Real*, \
                                                 const Real*, Real*);                         \
  extern template void range_showdown_lanes<Real, W>(                                         \
      const RangeHands&, const RangeShowdown&, const Real*, const double*, const double*, Real*);
HULHE_RANGE_LANES_EXTERN(float, 4)
HULHE_RANGE_LANES_EXTERN(float, 8)
HULHE_RANGE_LANES_EXTERN(float, 12)
HULHE_RANGE_LANES_EXTERN(float, 16)
HULHE_RANGE_LANES_EXTERN(double, 4)
HULHE_RANGE_LANES_EXTERN(double, 8)
HULHE_RANGE_LANES_EXTERN(double, 12)
HULHE_RANGE_LANES_EXTERN(double, 16)
#undef HULHE_RANGE_LANES_EXTERN

}  // namespace hulhe
