// `hulhe dealer`: an ACPC protocol 2.0.0 dealer on loopback ports (acpc/acpc_dealer.h).
// Prints the ports, one per seat, on the first line (like the ACPC dealer), then plays.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "acpc/acpc_dealer.h"
#include "cli/commands.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "game/game_definition.h"
#include "util/input_error.h"
#include "util/streamed_output_file.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string game_path;
  std::int64_t hands = 1000;
  std::uint32_t seed = 0;
  std::vector<std::string> players;
  std::vector<int> ports;
  std::string log;
  int timeout_ms = 600000;
};

void run(const Options& o) {
  // The log is checked and opened before anything else (a fifo, device or the game file is
  // refused here), written to a temporary file, and replaces --log only when the match ends
  // well (util/streamed_output_file.h). "-" is the standard output, which then holds the log
  // alone: the ports line and the summary go to stderr.
  std::optional<StreamedOutputFile> log;
  if (!o.log.empty())
    log.emplace(o.log, "log", std::vector<std::string>{o.game_path}, DashMeans::kStandardOutput);
  std::FILE* const out = log && log->is_standard_output() ? stderr : stdout;
  DealerConfig config;
  config.game = GameDefinition::from_option(o.game_path);
  config.game_file = o.game_path.empty() ? "holdem.limit.2p.reverse_blinds.game"
                                         : std::filesystem::path(o.game_path).filename().string();
  config.hands = o.hands;
  config.seed = o.seed;
  config.names = o.players;
  config.ports = o.ports;
  config.timeout_ms = o.timeout_ms;
  AcpcDealer dealer(config);

  std::string ports;
  for (int p : dealer.ports()) ports += (ports.empty() ? "" : " ") + std::to_string(p);
  std::fprintf(out, "%s\n", ports.c_str());
  std::fflush(out);
  fmt::print(stderr, "dealer: {} hands of {}, seed {}, listening on 127.0.0.1 port{} {}\n", o.hands,
             config.game.name, o.seed, dealer.ports().size() > 1 ? "s" : "", ports);

  DealerResult r;
  try {
    r = dealer.run(log ? &log->stream() : nullptr,
                   [](const Progress& p) { fmt::print(stderr, "{}\n", dealer_progress_line(p)); });
  } catch (const InputError&) {
    // The hands played before a player failed are worth keeping, where that replaces no file.
    if (log && !log->is_standard_output()) {
      if (log->keep_if_new())
        fmt::print(stderr, "dealer: the hands played so far are in {}\n", o.log);
      else if (std::filesystem::exists(o.log))
        fmt::print(stderr, "dealer: {} was left as it was (not replaced by a failed match)\n",
                   o.log);
    }
    throw;
  }
  std::vector<std::string> names = config.names;
  if (names.empty())
    for (int s = 0; s < config.game.num_players; ++s)
      names.push_back("player" + std::to_string(s + 1));
  fmt::print(out, "{}\n", score_line(r.totals, names));
  for (const std::string& w : r.warnings) fmt::print(stderr, "dealer: warning: {}\n", w);
  const double mbb = 1000.0 / config.game.big_blind();
  for (std::size_t s = 0; s < names.size(); ++s)
    fmt::print(out, "  {:<20} {:>7} hands {:>12} chips {:>10.1f} mbb/g\n", names[s], r.hands,
               r.totals[s], r.hands > 0 ? r.totals[s] / static_cast<double>(r.hands) * mbb : 0.0);
  fmt::print(out, "  {} invalid action{} played as calls, {} line{} ignored\n", r.fixed_actions,
             r.fixed_actions == 1 ? "" : "s", r.ignored_lines, r.ignored_lines == 1 ? "" : "s");
  // After the summary: a failed log write is the last line, and the totals are not lost.
  if (log) log->commit();
}

}  // namespace

void add_dealer_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd =
      app.add_subcommand("dealer", "Deal a match over ACPC protocol 2.0.0 on loopback ports");
  cmd->add_option("--game", o->game_path, "ACPC .game file (default: heads-up limit hold'em)");
  cmd->add_option("--hands", o->hands, "hands to play")->capture_default_str();
  add_seed_option(cmd, o->seed, "seed of the deal (ACPC-compatible, 0..2^32-1)")
      ->capture_default_str();
  cmd->add_option("--players", o->players, "player names, one per seat (default player1 ...)");
  cmd->add_option("--port", o->ports, "ports, one per seat (default: free ports)");
  cmd->add_option("--log", o->log,
                  "write the ACPC dealer log (STATE and SCORE lines), atomically at the end; "
                  "'-': to stdout (the ports line then goes to stderr)");
  cmd->add_option("--timeout-ms", o->timeout_ms,
                  "time a player may take to connect, send its version or answer")
      ->capture_default_str();
  cmd->callback([o] { run(*o); });
}

}  // namespace hulhe::cli
