#pragma once
// The equity-threshold bot: plays by its hand's equity w against random hands held by the
// live opponents (agents/random_hand_equity.h) and the pot odds it is offered. With c
// chips to call into a pot of p, calling breaks even at w = c / (p + c). It
//   raises  when w >= max(raise_equity + reraise_step · raises this round, pot odds + call_margin)
//   checks  when it may (c = 0),
//   calls   when w >= pot odds + call_margin,
//   folds   otherwise.
// No-limit raises are raise_pot times the pot after calling. Parameters (TOML, all optional):
//   samples = 400, call_margin = 0.0, raise_equity = 0.65, reraise_step = 0.08, raise_pot = 1.0
#include <string>

#include "agents/agent.h"
#include "agents/bot_config.h"
#include "agents/random_hand_equity.h"

namespace hulhe {

struct EquityThresholdParams {
  int samples = 400;
  double call_margin = 0.0;
  double raise_equity = 0.65;
  double reraise_step = 0.08;
  double raise_pot = 1.0;

  static EquityThresholdParams from_config(BotConfig& config);
};

class EquityThresholdBot final : public Agent {
 public:
  EquityThresholdBot(const GameDefinition& game, const EquityThresholdParams& params)
      : params_(params), equity_(game, params.samples) {}
  std::string name() const override { return "equity"; }
  void new_hand() override { equity_.reset(); }
  BetAction act(const GameState& state, int position, SplitMix64& rng) override;

 private:
  EquityThresholdParams params_;
  SeatEquity equity_;
};

}  // namespace hulhe
