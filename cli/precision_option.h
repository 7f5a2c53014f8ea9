#pragma once
// `--precision auto|single|double` of the hold'em best-response commands (exploit, compare):
// the arithmetic of the last round's walk (best_response/holdem/holdem_best_response.h states the bounds).
#include <CLI/CLI.hpp>
#include <string>

#include "best_response/holdem/holdem_best_response.h"

namespace hulhe::cli {

inline void add_precision_option(CLI::App* cmd, std::string& precision) {
  cmd->add_option("--precision", precision,
                  "hold'em: last-round arithmetic: auto (single for the 52-card deck, double "
                  "for reduced decks), single (~1e-6 relative, faster) or double")
      ->check(CLI::IsMember({"auto", "single", "double"}));
}

inline HoldemBestResponseOptions::Precision parse_precision(const std::string& precision) {
  if (precision == "single") return HoldemBestResponseOptions::Precision::kSingle;
  if (precision == "double") return HoldemBestResponseOptions::Precision::kDouble;
  return HoldemBestResponseOptions::Precision::kAuto;
}

}  // namespace hulhe::cli
