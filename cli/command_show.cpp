// `hulhe show --strategy FILE --sequence SEQ [--board CARDS] [--svg OUT] [--json]`: what a
// strategy file does at one betting position, as the hold'em hand grid
// (human_play/strategy_grid.h) in the terminal, as SVG for papers and reports, or as JSON.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "game/card.h"
#include "game/game_definition.h"
#include "human_play/strategy_grid.h"
#include "server/strategy_grid_json.h"
#include "strategy_files/strategy_file.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/output_file.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string strategy;
  std::string sequence;
  std::string board;
  std::optional<std::string> svg;  // given: a file name (never empty, never '-')
  bool json = false;
};

void run(const Options& o) {
  require_input_file(o.strategy, "strategy file");
  if (o.svg && o.svg->empty()) throw InputError("--svg needs a file name");
  if (o.svg && *o.svg == "-")
    throw InputError(
        "--svg needs a file name, not '-' (stdout has the text grid, or JSON with --json)");
  if (o.svg) check_output_path(*o.svg, "SVG", {o.strategy});
  const StrategyFile file = StrategyFile::read(o.strategy);
  const std::vector<Card> board = parse_cards(o.board);
  const StrategyGrid grid = strategy_grid(file, o.sequence, board);
  const std::string where =
      fmt::format("'{}' (round {}, position {} to act{}{})", grid.sequence, grid.round + 1,
                  grid.player, board.empty() ? "" : ", board ", cards_to_string(board));
  if (o.svg)
    write_output_file(*o.svg, "SVG",
                      {strategy_grid_svg(grid, fmt::format("{}: {}", file.game().name, where))});
  if (o.json) {
    fmt::print("{}\n", server::strategy_grid_json(grid, o.strategy).dump());
    return;
  }
  fmt::print("hulhe show: {} · game {} · {}\n\n", o.strategy, file.game().name, where);
  fmt::print("{}", strategy_grid_text(grid));
  if (o.svg) fmt::print("wrote {}\n", *o.svg);
}

}  // namespace

void add_show_command(CLI::App& app) {
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "show",
      "Show a strategy file's action probabilities at one betting position as the "
      "hold'em hand grid (terminal, SVG or JSON)");
  cmd->add_option("--strategy", opts->strategy, "strategy file (hulhe export)")->required();
  cmd->add_option("--sequence", opts->sequence,
                  "ACPC betting string of the position, e.g. '' (the first decision), 'r', "
                  "'rc/', 'rc/crr'")
      ->required();
  cmd->add_option("--board", opts->board,
                  "the round's board cards, e.g. AsKd7h on the flop (none preflop)");
  cmd->add_option("--svg", opts->svg, "also draw the grid as SVG to this file");
  cmd->add_flag("--json", opts->json, "print the grid as one JSON object");
  cmd->callback([opts] { run(*opts); });
}

}  // namespace hulhe::cli
