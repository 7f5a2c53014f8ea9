#pragma once
// The "4-D function" bot: its call probability is a smooth function of four numbers, the
// win probability w (equity against random hands of the live opponents), the chips to call
// c, the chips it has already put in s, and the pot p:
//   t        = clamp((1 + risk) · c / (p + c) − commitment · s / (p + c), 0, 1)
//   P(call)  = 1 / (1 + exp(−(w − t) / softness))
// c / (p + c) is the break-even win probability (pot odds); a positive `risk` makes the bot
// prudent (it wants more than the pot odds), a negative one aggressive; `commitment` lowers
// the bar by the share of the pot that is already its own (pot commitment). It raises with
// strong hands, P(raise) = σ((w − raise_equity) / softness), and otherwise bluffs (raises)
// at `bluff_rate`. Checking is free, so it never folds when c = 0. Parameters (TOML, all
// optional): samples = 400, risk = 0.0, commitment = 0.5, softness = 0.05,
// raise_equity = 0.7, bluff_rate = 0.05, raise_pot = 1.0
#include <string>

#include "agents/agent.h"
#include "agents/bot_config.h"
#include "agents/random_hand_equity.h"

namespace hulhe {

struct FunctionBotParams {
  int samples = 400;
  double risk = 0.0;
  double commitment = 0.5;
  double softness = 0.05;
  double raise_equity = 0.7;
  double bluff_rate = 0.05;
  double raise_pot = 1.0;

  static FunctionBotParams from_config(BotConfig& config);
};

// P(call) of the formula above.
double function_bot_call_probability(const FunctionBotParams& params, double win_probability,
                                     double to_call, double put_in, double pot);

class FunctionBot final : public Agent {
 public:
  FunctionBot(const GameDefinition& game, const FunctionBotParams& params)
      : params_(params), equity_(game, params.samples) {}
  std::string name() const override { return "function"; }
  void new_hand() override { equity_.reset(); }
  BetAction act(const GameState& state, int position, SplitMix64& rng) override;

 private:
  FunctionBotParams params_;
  SeatEquity equity_;
};

}  // namespace hulhe
