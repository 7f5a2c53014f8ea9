// `hulhe logs`: replays an ACPC dealer log through the rules and sums up each player.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/exit_status.h"
#include "game/dealer_log.h"
#include "game/game_definition.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/printable_text.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string log_path;
  std::optional<std::string> game_path;
  bool json = false;
};

// Exit statuses: 0 every hand agrees, 1 mismatches, bad lines or a disagreeing SCORE line
// (reported), 2 unusable input (InputError: no such file, a directory or device, a bad
// --game, or a log in which no line replays, e.g. one of another game).
void run(const Options& o) {
  const GameDefinition g = GameDefinition::from_option(o.game_path);
  require_input_file(o.log_path, "dealer log");
  std::ifstream in(o.log_path);
  if (!in) throw InputError("cannot read dealer log '" + o.log_path + "'");
  const LogReport r = replay_log(in, g);
  if (r.hands == 0) {
    if (r.bad_lines == 0) throw InputError("dealer log '" + o.log_path + "' has no STATE lines");
    const LogProblem& first = r.problems.front();
    throw InputError("no line of dealer log '" + o.log_path + "' replays in the rules of '" +
                     g.name + "' (" + std::to_string(r.bad_lines) +
                     " bad lines; is it a log of another game? see --game); line " +
                     std::to_string(first.line) + ": " + first.message);
  }
  const bool problems = r.mismatches > 0 || r.bad_lines > 0 || !r.score_matches;

  if (o.json) {
    nlohmann::json j;
    j["log"] = o.log_path;
    j["game"] = g.name;
    j["hands"] = r.hands;
    j["mismatches"] = r.mismatches;
    j["bad_lines"] = r.bad_lines;
    j["score_line"] =
        r.has_score ? nlohmann::json(r.score_matches ? "agrees" : "disagrees") : nlohmann::json();
    j["players"] = nlohmann::json::array();
    for (const LogPlayer& p : r.players)
      j["players"].push_back({{"name", p.name},
                              {"hands", p.hands},
                              {"total", p.total},
                              {"mbb_per_game", p.mbb_per_game},
                              {"ci95_mbb", p.ci95_mbb}});
    j["problems"] = nlohmann::json::array();
    for (const LogProblem& p : r.problems)
      j["problems"].push_back({{"line", p.line}, {"message", p.message}});
    // Names and quoted lines come from the log: invalid UTF-8 becomes U+FFFD.
    fmt::print("{}\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (problems) throw ExitStatus{1};
    return;
  }
  for (const LogProblem& p : r.problems)
    fmt::print(stderr, "{}:{}: {}\n", printable(o.log_path), p.line, printable(p.message));
  fmt::print(
      "{}: {} hands of {} replayed; {} mismatch{}, {} bad line{}{}\n", printable(o.log_path),
      r.hands, printable(g.name), r.mismatches, r.mismatches == 1 ? "" : "es", r.bad_lines,
      r.bad_lines == 1 ? "" : "s",
      r.has_score ? (r.score_matches ? "; SCORE line agrees" : "; SCORE line disagrees") : "");
  fmt::print("  {:<20} {:>7} {:>12} {:>12} {:>12}\n", "player", "hands", "total", "mbb/g",
             "95% CI");
  for (const LogPlayer& p : r.players)
    fmt::print("  {:<20} {:>7} {:>12} {:>12.1f} {:>12}\n", printable(p.name), p.hands, p.total,
               p.mbb_per_game, fmt::format("± {:.1f}", p.ci95_mbb));
  if (problems) throw ExitStatus{1};
}

}  // namespace

void add_logs_command(CLI::App& app) {
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "logs", "Replay an ACPC dealer log: check every hand, per-player totals and mbb/g");
  cmd->add_option("log", opts->log_path, "ACPC dealer log (.log)")->required();
  cmd->add_option("--game", opts->game_path,
                  "ACPC .game file of the match (default: heads-up limit hold'em)");
  cmd->add_flag("--json", opts->json, "Print one JSON object");
  cmd->callback([opts] { run(*opts); });
}

}  // namespace hulhe::cli
