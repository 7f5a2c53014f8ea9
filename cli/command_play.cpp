// `hulhe play`: an ACPC protocol 2.0.0 client playing a strategy file or a built-in bot
// against a dealer (the ACPC server's dealer or `hulhe dealer`).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/thread_seed_options.h"
#include "game/game_definition.h"
#include "game/input_error.h"
#include "strategies/acpc_player.h"
#include "strategies/line_socket.h"
#include "strategies/play_agents.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string strategy;
  std::string bot;
  std::string game_path;
  std::string host = "127.0.0.1";
  int port = 0;
  std::uint64_t seed = 1;
  std::string log;
  int connect_timeout_ms = 10000;
};

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return !a.empty() && !b.empty() && std::filesystem::exists(a, ec) &&
         std::filesystem::exists(b, ec) && std::filesystem::equivalent(a, b, ec);
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

void run(const Options& o) {
  for (const std::string& input : {o.strategy, o.game_path})
    if (same_file(o.log, input))
      throw InputError("--log " + o.log + " is one of the inputs; choose another file");
  GameDefinition game = o.game_path.empty() ? GameDefinition::holdem_limit_2p()
                                            : GameDefinition::from_file(o.game_path);
  std::unique_ptr<Agent> agent;
  if (!o.strategy.empty()) {
    const StrategyFile file = StrategyFile::read(o.strategy);
    if (!o.game_path.empty() && !(file.game() == game))
      throw InputError("strategy file " + o.strategy + " is a strategy for " + file.game().name +
                       ", not for the game of " + o.game_path);
    game = file.game();
    agent = make_play_agent(o.strategy, game);
  } else {
    agent = make_play_bot(o.bot);
  }

  std::ofstream log;
  if (!o.log.empty()) {
    log.open(o.log, std::ios::trunc);
    if (!log) throw InputError("cannot write --log " + o.log);
  }
  LineConnection dealer = LineConnection::connect(o.host, o.port, o.connect_timeout_ms);
  const PlayerSummary s =
      play_acpc_match(dealer, *agent, game, o.seed, o.log.empty() ? nullptr : &log);

  fmt::print("play: {} hands of {} as {}: won {} chips, {:.1f} mbb/g\n", s.hands, game.name,
             agent->name(), s.total, s.mbb_per_game);
  fmt::print("  {} actions, time per action median {:.1f} us, p99 {:.1f} us; {} line{} ignored\n",
             s.actions, percentile(s.decision_micros, 0.5), percentile(s.decision_micros, 0.99),
             s.ignored_lines, s.ignored_lines == 1 ? "" : "s");
  if (s.ended_mid_hand)
    throw InputError("the dealer at " + o.host + ":" + std::to_string(o.port) +
                     " closed the connection in the middle of hand " + std::to_string(s.last_hand));
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "play", "Play a strategy file or a bot against an ACPC dealer (protocol 2.0.0)");
  auto* strategy = cmd->add_option("--strategy", o->strategy, "strategy file (.strategy)");
  auto* bot = cmd->add_option("--bot", o->bot,
                              "built-in bot instead: always-fold, always-call, always-raise, "
                              "uniform");
  strategy->excludes(bot);
  bot->excludes(strategy);
  cmd->add_option("--game", o->game_path,
                  "ACPC .game file (bots; default: heads-up limit hold'em; with --strategy it "
                  "must be the file's game)");
  cmd->add_option("--host", o->host, "dealer host")->capture_default_str();
  cmd->add_option("--port", o->port, "dealer port of this seat")->required();
  add_seed_option(cmd, o->seed, "seed of the agent's random choices")->capture_default_str();
  cmd->add_option("--log", o->log, "write every line read (<), sent (>) and each problem (!)");
  cmd->add_option("--connect-timeout-ms", o->connect_timeout_ms, "give up connecting after this")
      ->capture_default_str();
  cmd->callback([o] {
    if (o->strategy.empty() && o->bot.empty())
      throw InputError("play needs --strategy FILE or --bot NAME");
    run(*o);
  });
}

}  // namespace hulhe::cli
