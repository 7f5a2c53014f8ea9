#pragma once
// The hand grid of a strategy (human_play/strategy_grid.h) as one JSON object: what
// `hulhe show --json` prints and what the explorer of `hulhe serve` reads from
// GET /api/explorer (docs/serve-api.md).
#include <nlohmann/json.hpp>
#include <string>

#include "human_play/strategy_grid.h"

namespace hulhe::server {

// {"strategy", "sequence", "round", "player", "board", "actions", "ranks",
//  "cells": [{"hand", "probabilities", "combos": [{"hole", "bucket"}]}]} (row-major).
nlohmann::json strategy_grid_json(const StrategyGrid& grid, const std::string& strategy);

}  // namespace hulhe::server
