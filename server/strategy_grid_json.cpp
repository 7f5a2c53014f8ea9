#include "server/strategy_grid_json.h"

#include "game/card.h"

namespace hulhe::server {

nlohmann::json strategy_grid_json(const StrategyGrid& g, const std::string& strategy) {
  nlohmann::json j;
  j["strategy"] = strategy;
  j["sequence"] = g.sequence;
  j["round"] = g.round;
  j["player"] = g.player;
  j["board"] = cards_to_string(g.board);
  j["actions"] = g.action_names;
  nlohmann::json ranks = nlohmann::json::array();
  for (int r : g.ranks) ranks.push_back(std::string(1, kRankChars[r]));
  j["ranks"] = ranks;
  nlohmann::json cells = nlohmann::json::array();
  for (const StrategyGridCell& c : g.cells) {
    nlohmann::json combos = nlohmann::json::array();
    for (const StrategyGridCombo& k : c.combos)
      combos.push_back(
          {{"hole", card_to_string(k.hole[0]) + card_to_string(k.hole[1])}, {"bucket", k.bucket}});
    cells.push_back({{"hand", c.label}, {"probabilities", c.probabilities}, {"combos", combos}});
  }
  j["cells"] = cells;
  return j;
}

}  // namespace hulhe::server
