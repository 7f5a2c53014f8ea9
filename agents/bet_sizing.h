#pragma once
// What a seat faces at its turn, in the terms bots reason in (chips to call, pot, chips
// already put in), and the legal no-limit raise closest to a fraction of the pot.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "game/game_state.h"

namespace hulhe {

// Chips `position` must add to match the current bet (0 when it may check).
inline std::int32_t amount_to_call(const GameState& state, int position) {
  const std::int32_t stack = state.game().stack[position];
  return std::max(0, std::min(state.max_spent(), stack) - state.spent(position));
}

// Players other than `position` who have not folded.
inline int live_opponents(const GameState& state, int position) {
  int n = 0;
  for (int p = 0; p < state.game().num_players; ++p) n += p != position && !state.folded(p);
  return n;
}

// A legal raise for the player to act, or a call when no raise is legal. Limit games: the
// fixed raise. No-limit: a raise by `pot_fraction` of the pot after calling (1 = pot-size
// raise, the usual unit), clamped to the legal raise-to range [min, all in].
inline BetAction raise_or_call(const GameState& state, double pot_fraction) {
  std::int32_t lo = 0, hi = 0;
  if (!state.can_raise(&lo, &hi)) return {Action::kCall, 0};
  if (state.game().betting_type == BettingType::kLimit) return {Action::kRaise, 0};
  const int p = state.current_player();
  const double pot_after_call = state.pot() + amount_to_call(state, p);
  const double target = state.max_spent() + pot_fraction * pot_after_call;
  const auto to = static_cast<std::int32_t>(
      std::clamp(std::llround(target), static_cast<long long>(lo), static_cast<long long>(hi)));
  return {Action::kRaise, to};
}

// Fold where folding is legal (facing a bet), else check.
inline BetAction fold_or_check(const GameState& state) {
  return state.can_fold() ? BetAction{Action::kFold, 0} : BetAction{Action::kCall, 0};
}

}  // namespace hulhe
