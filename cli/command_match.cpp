// `hulhe match`: two agents play an in-process match; A's winnings in mbb/g (chips a hand)
// with a 95% confidence interval, optionally an ACPC dealer log of every hand.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "agents/agent_factory.h"
#include "agents/match.h"
#include "cli/commands.h"
#include "cli/match_options.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "game/game_definition.h"
#include "util/input_error.h"
#include "util/streamed_output_file.h"

namespace hulhe::cli {
namespace {

struct Options : MatchOptions {
  std::string a, b, log_path;
};

void run(const Options& o) {
  const GameDefinition game = GameDefinition::from_option(o.game_path);
  const AgentSource a = load_agent(o.a, game);
  const AgentSource b = load_agent(o.b, game);
  MatchConfig config = o.config();
  // The log goes to a temporary file that replaces --log only when the match ends well
  // (util/streamed_output_file.h); "-" is the standard output, and the summary then goes to
  // stderr so that stdout holds the log alone.
  std::optional<StreamedOutputFile> log;
  if (!o.log_path.empty()) {
    std::vector<std::string> inputs = a.files;
    inputs.insert(inputs.end(), b.files.begin(), b.files.end());
    inputs.push_back(o.game_path);
    log.emplace(o.log_path, "log", inputs, DashMeans::kStandardOutput);
    config.log = &log->stream();
  }
  std::FILE* const summary = log && log->is_standard_output() ? stderr : stdout;
  MatchProgress progress("match: ");
  if (!o.quiet) config.on_progress = std::ref(progress);
  const MatchResult r = play_match(game, a, b, config);
  if (log) log->commit();
  const double rate = r.seconds > 0 ? static_cast<double>(r.hands) / r.seconds : 0.0;

  if (o.json) {
    nlohmann::json j{{"a", o.a},
                     {"b", o.b},
                     {"game", game.name},
                     {"hands", r.hands},
                     {"samples", r.samples},
                     {"duplicate", o.duplicate},
                     {"seed", o.seed},
                     {"threads", config.threads},
                     {"mbb_per_game", r.mbb_per_game},
                     {"ci95_mbb", r.ci95_mbb},
                     {"chips_per_hand", r.chips_per_hand},
                     {"ci95_chips", r.ci95_chips},
                     {"total_chips", r.total_chips},
                     {"illegal_actions", r.illegal_actions},
                     {"seconds", r.seconds},
                     {"hands_per_second", rate}};
    if (!o.log_path.empty()) j["log"] = o.log_path;
    fmt::print(summary, "{}\n", j.dump());
    return;
  }
  const int n = game.num_players;
  fmt::print(summary, "match: {} (A) vs {} (B{}) · {} · {} hands{} · seed {}\n", r.a, r.b,
             n > 2 ? fmt::format(" in the other {} seats", n - 1) : "", game.name, r.hands,
             o.duplicate ? fmt::format(" ({} deals x {} seatings, duplicate)", r.samples, n) : "",
             o.seed);
  const std::string mbb = fmt::format("{:+.1f} mbb/g ± {:.1f}", r.mbb_per_game, r.ci95_mbb);
  const std::string chips =
      fmt::format("{:+.4f} chips a hand ± {:.4f}", r.chips_per_hand, r.ci95_chips);
  const bool chips_first = n > 2 || game.betting_type == BettingType::kNoLimit;
  fmt::print(summary, "A wins {} (95% CI), {}{}\n", chips_first ? chips : mbb,
             chips_first ? mbb : chips,
             std::abs(r.mbb_per_game) > r.ci95_mbb ? "" : " — not significant");
  if (r.illegal_actions > 0)
    fmt::print(summary, "{} illegal actions were played as calls\n", r.illegal_actions);
  fmt::print(summary, "{} hands in {:.2f} s ({:.0f} hands/s, {} thread{}){}\n", r.hands, r.seconds,
             rate, config.threads, config.threads == 1 ? "" : "s",
             o.log_path.empty() ? "" : "; log: " + o.log_path);
}

}  // namespace

void add_match_command(CLI::App& app) {
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "match", "Play two agents against each other: mbb/g with a 95% confidence interval");
  cmd->add_option("--a", opts->a, "Agent A: a strategy file or bot:NAME[:params.toml]")->required();
  cmd->add_option("--b", opts->b, "Agent B (every other seat in games of 3 or more)")->required();
  cmd->add_option("--hands", opts->hands, "Hands to play")->required()->check(CLI::PositiveNumber);
  cmd->add_flag("--duplicate", opts->duplicate,
                "Play each deal once per seating, seats swapped (cancels card luck)");
  add_seed_option(cmd, opts->seed, "Seed of the deals and the agents' random choices");
  add_threads_option(cmd, opts->threads, "Threads (default: all cores)");
  cmd->add_option("--game", opts->game_path, "ACPC .game file (default: heads-up limit hold'em)");
  cmd->add_option("--log", opts->log_path,
                  "Write an ACPC dealer log (STATE lines) of every hand, atomically at the end; "
                  "'-': to stdout");
  cmd->add_flag("--json", opts->json, "Print one JSON object");
  cmd->add_flag("--quiet", opts->quiet, "No progress lines");
  cmd->callback([opts] { run(*opts); });
}

}  // namespace hulhe::cli
