#include "agents/function_bot.h"

#include <algorithm>
#include <cmath>

#include "agents/bet_sizing.h"

namespace hulhe {
namespace {

double logistic(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

}  // namespace

FunctionBotParams FunctionBotParams::from_config(BotConfig& config) {
  FunctionBotParams p;
  p.samples = static_cast<int>(config.integer("samples", p.samples, 1, 1'000'000));
  p.risk = config.number("risk", p.risk, -1.0, 10.0);
  p.commitment = config.number("commitment", p.commitment, 0.0, 10.0);
  p.softness = config.number("softness", p.softness, 1e-6, 10.0);
  p.raise_equity = config.number("raise_equity", p.raise_equity, 0.0, 1.01);
  p.bluff_rate = config.number("bluff_rate", p.bluff_rate, 0.0, 1.0);
  p.raise_pot = config.number("raise_pot", p.raise_pot, 0.0, 100.0);
  config.reject_unknown_keys();
  return p;
}

double function_bot_call_probability(const FunctionBotParams& params, double win_probability,
                                     double to_call, double put_in, double pot) {
  if (to_call <= 0) return 1.0;
  const double final_pot = pot + to_call;
  const double t = std::clamp(
      (1.0 + params.risk) * to_call / final_pot - params.commitment * put_in / final_pot, 0.0, 1.0);
  return logistic((win_probability - t) / params.softness);
}

BetAction FunctionBot::act(const GameState& state, int position, SplitMix64& rng) {
  const double w = equity_(state, position, rng);
  const double c = amount_to_call(state, position);
  if (state.can_raise()) {
    const double strong = logistic((w - params_.raise_equity) / params_.softness);
    const double p_raise = strong + (1.0 - strong) * params_.bluff_rate;
    if (rng.uniform() < p_raise) return raise_or_call(state, params_.raise_pot);
  }
  if (c == 0) return {Action::kCall, 0};
  const double p_call =
      function_bot_call_probability(params_, w, c, state.spent(position), state.pot());
  return rng.uniform() < p_call ? BetAction{Action::kCall, 0} : BetAction{Action::kFold, 0};
}

}  // namespace hulhe
