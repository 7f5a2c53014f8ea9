// `hulhe play`: an ACPC protocol 2.0.0 client playing an agent (a strategy file or any
// built-in bot, agents/agent_factory.h) against a dealer (the ACPC server's dealer or
// `hulhe dealer`); with --human, a person at a text table against the agent instead
// (cli/command_play_human.cpp).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "acpc/acpc_player.h"
#include "acpc/line_socket.h"
#include "agents/agent_factory.h"
#include "cli/commands.h"
#include "cli/play_human.h"
#include "cli/thread_seed_options.h"
#include "game/game_definition.h"
#include "util/input_error.h"
#include "util/os_entropy.h"
#include "util/streamed_output_file.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string agent;
  std::string strategy;
  std::string bot;
  std::string game_path;
  std::string host = "127.0.0.1";
  int port = 0;
  std::uint64_t seed = 1;
  std::string log;
  int connect_timeout_ms = 10000;
  bool human = false;
  std::int64_t hands = 0;
  std::string name = "you";
};

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

// One spec of the factory's grammar: --strategy FILE is FILE, --bot NAME is bot:NAME (the
// prefix may be given too).
std::string agent_spec(const Options& o) {
  if (!o.agent.empty()) return o.agent;
  if (!o.strategy.empty()) return o.strategy;
  return o.bot.starts_with("bot:") ? o.bot : "bot:" + o.bot;
}

void run(const Options& o) {
  const AgentSpec spec = AgentSpec::parse(agent_spec(o));
  // The log is checked and opened before anything else (a fifo, device or input is refused
  // here), written to a temporary file, and replaces --log only when the match ends well
  // (util/streamed_output_file.h). "-" is the standard output; the summary then goes to
  // stderr.
  std::optional<StreamedOutputFile> log;
  if (!o.log.empty()) {
    std::vector<std::string> inputs = spec.files();
    inputs.push_back(o.game_path);
    log.emplace(o.log, "log", inputs, DashMeans::kStandardOutput);
  }
  std::FILE* const summary = log && log->is_standard_output() ? stderr : stdout;
  // A strategy file plays its own game (--game, if given, must be it); a bot plays --game.
  std::optional<GameDefinition> given;
  if (!o.game_path.empty()) given = GameDefinition::from_option(o.game_path);
  const AgentSource source = load_agent(spec.spec, given);
  const GameDefinition& game = source.game;
  const std::unique_ptr<Agent> agent = source.make();

  LineConnection dealer = LineConnection::connect(o.host, o.port, o.connect_timeout_ms);
  const PlayerSummary s =
      play_acpc_match(dealer, *agent, game, o.seed, log ? &log->stream() : nullptr);

  fmt::print(summary, "play: {} hands of {} as {}: won {} chips, {:.1f} mbb/g\n", s.hands,
             game.name, agent->name(), s.total, s.mbb_per_game);
  fmt::print(summary,
             "  {} actions, time per action median {:.1f} us, p99 {:.1f} us; {} line{} ignored\n",
             s.actions, percentile(s.decision_micros, 0.5), percentile(s.decision_micros, 0.99),
             s.ignored_lines, s.ignored_lines == 1 ? "" : "s");
  if (s.ended_mid_hand) {
    // The lines up to the close are what shows why; kept where that replaces no file.
    if (log && !log->is_standard_output()) {
      if (log->keep_if_new())
        fmt::print(stderr, "play: the log up to the close is in {}\n", o.log);
      else if (std::filesystem::exists(o.log))
        fmt::print(stderr, "play: {} was left as it was (not replaced by a failed match)\n", o.log);
    }
    throw InputError("the dealer at " + o.host + ":" + std::to_string(o.port) +
                     " closed the connection in the middle of hand " + std::to_string(s.last_hand));
  }
  if (log) log->commit();
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "play", "Play a strategy file or a bot against an ACPC dealer (protocol 2.0.0)");
  auto* agent =
      cmd->add_option("--agent", o->agent, "the agent: a strategy file or bot:NAME[:params.toml]");
  auto* strategy = cmd->add_option("--strategy", o->strategy, "strategy file (.strategy)");
  auto* bot = cmd->add_option("--bot", o->bot,
                              "built-in bot: always-fold, always-call, always-raise, uniform, "
                              "equity[:params.toml], function[:params.toml], rules:rules.toml");
  agent->excludes(strategy, bot);
  strategy->excludes(agent, bot);
  bot->excludes(agent, strategy);
  cmd->add_option("--game", o->game_path,
                  "ACPC .game file (bots; default: heads-up limit hold'em; with a strategy "
                  "file it must be the file's game)");
  cmd->add_option("--host", o->host, "dealer host")->capture_default_str();
  auto* port = cmd->add_option("--port", o->port, "dealer port of this seat (not with --human)");
  auto* human = cmd->add_flag("--human", o->human,
                              "play the agent yourself at a text table (no dealer): typed "
                              "actions, live odds, the session's result");
  human->excludes(port);
  cmd->add_option("--hands", o->hands, "with --human: hands to play (0: until q or end of input)")
      ->capture_default_str();
  cmd->add_option("--name", o->name, "with --human: your name in the table and the log")
      ->capture_default_str();
  auto* seed = add_seed_option(cmd, o->seed,
                               "seed of the agent's random choices (default 1; with --human also "
                               "of the deals, and by default the OS's entropy so that no two "
                               "sessions deal alike: the table prints it to replay one)");
  auto* log =
      cmd->add_option("--log", o->log,
                      "write every line read (<), sent (>) and each problem (!), atomically at the "
                      "end; '-': to stdout");
  cmd->add_option("--connect-timeout-ms", o->connect_timeout_ms, "give up connecting after this")
      ->capture_default_str();
  cmd->callback([o, seed, log] {
    if (log->count() > 0 && o->log.empty()) throw InputError("--log needs a file name");
    if (o->agent.empty() && o->strategy.empty() && o->bot.empty())
      throw InputError("play needs --agent SPEC, --strategy FILE or --bot NAME");
    if (o->human) {
      if (o->host != "127.0.0.1") throw InputError("--human plays no dealer: leave out --host");
      HumanPlayOptions h;
      h.agent_spec = agent_spec(*o);
      h.game_path = o->game_path;
      h.hands = o->hands;
      // A person must not be able to predict the cards: the deals come from the OS unless a
      // seed is asked for (to replay a session).
      h.seed = seed->count() > 0 ? o->seed : os_entropy64();
      h.name = o->name;
      h.log = o->log;
      play_human(h, std::cin, stdout);
      return;
    }
    if (o->port == 0) throw InputError("play needs --port (the dealer's port) or --human");
    if (o->hands != 0 || o->name != "you") throw InputError("--hands and --name go with --human");
    run(*o);
  });
}

}  // namespace hulhe::cli
