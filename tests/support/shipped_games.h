#pragma once
// The six shipped ACPC games (configs/games/), each loaded once, for any test.
#include <map>
#include <string>
#include <vector>

#include "game/game_definition.h"

namespace hulhe::testing {

inline const std::vector<std::string>& shipped_game_names() {
  static const std::vector<std::string> names{"holdem.limit.2p.reverse_blinds",
                                              "holdem.nolimit.2p.reverse_blinds",
                                              "holdem.limit.3p",
                                              "holdem.nolimit.3p",
                                              "kuhn",
                                              "leduc"};
  return names;
}

inline std::string game_path(const std::string& name) {
  return std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name + ".game";
}

inline const GameDefinition& shipped_game(const std::string& name) {
  static std::map<std::string, GameDefinition> games;
  auto it = games.find(name);
  if (it == games.end()) it = games.emplace(name, GameDefinition::from_file(game_path(name))).first;
  return it->second;
}

}  // namespace hulhe::testing
