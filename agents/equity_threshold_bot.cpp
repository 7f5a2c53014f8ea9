#include "agents/equity_threshold_bot.h"

#include <algorithm>

#include "agents/bet_sizing.h"

namespace hulhe {

EquityThresholdParams EquityThresholdParams::from_config(BotConfig& config) {
  EquityThresholdParams p;
  p.samples = static_cast<int>(config.integer("samples", p.samples, 1, 1'000'000));
  p.call_margin = config.number("call_margin", p.call_margin, -1.0, 1.0);
  p.raise_equity = config.number("raise_equity", p.raise_equity, 0.0, 1.01);
  p.reraise_step = config.number("reraise_step", p.reraise_step, 0.0, 1.0);
  p.raise_pot = config.number("raise_pot", p.raise_pot, 0.0, 100.0);
  config.reject_unknown_keys();
  return p;
}

BetAction EquityThresholdBot::act(const GameState& state, int position, SplitMix64& rng) {
  const double w = equity_(state, position, rng);
  const double c = amount_to_call(state, position);
  const double pot_odds = c / (state.pot() + c);
  const double call_bar = pot_odds + params_.call_margin;
  const double raise_bar =
      std::max(params_.raise_equity + params_.reraise_step * state.num_raises(), call_bar);
  if (w >= raise_bar && state.can_raise()) return raise_or_call(state, params_.raise_pot);
  if (c == 0 || w >= call_bar) return {Action::kCall, 0};
  return {Action::kFold, 0};
}

}  // namespace hulhe
