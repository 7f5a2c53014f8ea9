// `hulhe tournament`: every pair of agents plays a match; prints the cross-table and the two
// ACPC rankings (Total Bankroll, Bankroll Instant Run-off) with statistical ties.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agents/agent_factory.h"
#include "agents/tournament.h"
#include "cli/commands.h"
#include "cli/match_options.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "game/game_definition.h"
#include "util/input_error.h"

namespace hulhe::cli {
namespace {

struct Options : MatchOptions {
  std::vector<std::string> agents;
};

nlohmann::json ranking_json(const CrossTable& t, const std::vector<RankEntry>& ranking) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t r = 0; r < ranking.size(); ++r)
    out.push_back({{"rank", r + 1},
                   {"agent", t.names[ranking[r].agent]},
                   {"mbb_per_game", ranking[r].score},
                   {"ci95_mbb", ranking[r].ci95},
                   {"tied_with_next", ranking[r].tied_with_next}});
  return out;
}

// Ranks with ties: an agent statistically tied with the one above shares its rank ("2=").
void print_ranking(const std::string& title, const std::string& score_note, const CrossTable& t,
                   const std::vector<RankEntry>& ranking) {
  fmt::print("\n{} ({})\n", title, score_note);
  std::size_t width = 8;
  for (const auto& name : t.names) width = std::max(width, name.size());
  std::size_t shown_rank = 1;
  for (std::size_t r = 0; r < ranking.size(); ++r) {
    if (r > 0 && !ranking[r - 1].tied_with_next) shown_rank = r + 1;
    const bool tied = (r > 0 && ranking[r - 1].tied_with_next) || ranking[r].tied_with_next;
    fmt::print("  {:>3}{} {:<{}} {:>10.1f} ± {:.1f}\n", shown_rank, tied ? "=" : " ",
               t.names[ranking[r].agent], width, ranking[r].score, ranking[r].ci95);
  }
}

void run(const Options& o) {
  const GameDefinition game = GameDefinition::from_option(o.game_path);
  std::vector<AgentSource> agents;
  for (const std::string& spec : o.agents) agents.push_back(load_agent(spec, game));
  MatchConfig config = o.config();
  const int n = static_cast<int>(agents.size());
  // Progress: within a match every 2 s (hands/s, the match's ETA); at the end of each match
  // one line with the tournament's ETA, from the time the matches so far took.
  Progress tournament;  // its report at the start of the match under way
  std::string label;
  MatchProgress in_match("");
  if (!o.quiet)
    config.on_progress = [&](const Progress& p) {
      if (p.done < p.total) return in_match(p);
      fmt::print(stderr, "{}\n", match_done_line(label, p, tournament));
    };
  const TournamentResult r = play_tournament(game, agents, config, [&](const Progress& p) {
    tournament = p;
    const auto m = static_cast<int>(p.done);
    int i = 0, k = m;  // pair (i, j) of match m, in play_tournament's order
    while (k >= n - 1 - i) k -= n - 1 - i, ++i;
    label = fmt::format("match {}/{} ({} vs {}): ", m + 1, p.total, agents[i].name,
                        agents[i + 1 + k].name);
    in_match = MatchProgress(label);
  });
  const CrossTable& t = r.table;

  if (o.json) {
    nlohmann::json j;
    j["game"] = game.name;
    j["agents"] = o.agents;
    j["names"] = t.names;
    j["hands_per_match"] = r.matches.empty() ? 0 : r.matches[0].hands;
    j["duplicate"] = o.duplicate;
    j["seed"] = o.seed;
    j["cross_table"] = {{"mbb_per_game", t.win}, {"ci95_mbb", t.ci95}};
    j["matches"] = nlohmann::json::array();
    for (const MatchResult& m : r.matches)
      j["matches"].push_back({{"a", m.a},
                              {"b", m.b},
                              {"hands", m.hands},
                              {"mbb_per_game", m.mbb_per_game},
                              {"ci95_mbb", m.ci95_mbb},
                              {"chips_per_hand", m.chips_per_hand},
                              {"ci95_chips", m.ci95_chips}});
    j["total_bankroll"] = ranking_json(t, r.total_bankroll);
    j["instant_runoff"] = ranking_json(t, r.instant_runoff);
    j["seconds"] = r.seconds;
    fmt::print("{}\n", j.dump());
    return;
  }
  fmt::print("tournament: {} agents · {} · {} hands a match{} · seed {} · {:.1f} s\n", n, game.name,
             r.matches.empty() ? 0 : r.matches[0].hands, o.duplicate ? " (duplicate)" : "", o.seed,
             r.seconds);
  fmt::print("\ncross-table: mbb/g won by the row agent against the column agent, ± 95% CI\n");
  std::size_t width = 8;
  for (const auto& name : t.names) width = std::max(width, name.size() + 5);
  const std::size_t cell = 16;
  fmt::print("{:<{}}", "", width);
  for (int j = 0; j < n; ++j) fmt::print("{:>{}}", fmt::format("({})", j + 1), cell);
  fmt::print("\n");
  for (int i = 0; i < n; ++i) {
    fmt::print("{:<{}}", fmt::format("({}) {}", i + 1, t.names[i]), width);
    for (int j = 0; j < n; ++j)
      fmt::print("{:>{}}",
                 i == j ? "-" : fmt::format("{:+.0f} ± {:.0f}", t.win[i][j], t.ci95[i][j]),
                 i == j ? cell : cell + 1);  // '±' is two bytes, one column
    fmt::print("\n");
  }
  print_ranking("Total Bankroll", "mean mbb/g against all others", t, r.total_bankroll);
  print_ranking("Bankroll Instant Run-off",
                "mean mbb/g against the agents left when it was eliminated", t, r.instant_runoff);
  fmt::print("\n'=' marks agents statistically tied with a neighbour (95%)\n");
}

}  // namespace

void add_tournament_command(CLI::App& app) {
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "tournament",
      "Round robin of agents: cross-table and the ACPC rankings (Total Bankroll, Instant Run-off)");
  cmd->add_option("--agents", opts->agents,
                  "Two or more agents: strategy files or bot:NAME[:params.toml]")
      ->required()
      ->expected(2, -1);
  cmd->add_option("--hands", opts->hands, "Hands per match")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--duplicate", opts->duplicate, "Duplicate matches (each deal once per seating)");
  add_seed_option(cmd, opts->seed, "Seed of every match (the same deals for every pair)");
  add_threads_option(cmd, opts->threads, "Threads (default: all cores)");
  cmd->add_option("--game", opts->game_path, "ACPC .game file (default: heads-up limit hold'em)");
  cmd->add_flag("--json", opts->json, "Print one JSON object");
  cmd->add_flag("--quiet", opts->quiet, "No progress lines");
  cmd->callback([opts] { run(*opts); });
}

}  // namespace hulhe::cli
