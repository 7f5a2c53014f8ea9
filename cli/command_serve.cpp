// `hulhe serve (--strategy FILE | --bot NAME) [--game FILE] [--port 8080] [--host 127.0.0.1]
// [--db hulhe-play.sqlite] [--seed S]`: the web table and strategy explorer
// (server/table_server.h, docs/serve-api.md). SIGINT/SIGTERM stop it: the requests in flight
// finish, every completed hand is already in the database.
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <ctime>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "agents/agent_factory.h"
#include "cli/commands.h"
#include "cli/thread_seed_options.h"
#include "game/game_definition.h"
#include "server/opponent.h"
#include "server/play_store.h"
#include "server/table_server.h"
#include "util/input_error.h"
#include "util/os_entropy.h"
#include "util/output_file.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::string strategy;
  std::string bot;
  std::string game_path;
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string db = "hulhe-play.sqlite";
  std::optional<std::uint64_t> seed;  // none: the OS's entropy, so deals differ at every start
  std::size_t max_sessions = 256;
  double idle_minutes = 30;
};

// SIGINT and SIGTERM, blocked in every thread (the server's threads inherit the mask) and
// taken by one thread with sigtimedwait, which stops the server: no work in a signal handler.
class StopOnSignal {
 public:
  explicit StopOnSignal(server::TableServer& server) {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals_, &old_mask_);
    watcher_ = std::thread([this, &server] {
      const timespec tick{0, 200'000'000};
      while (!done_.load()) {
        const int sig = sigtimedwait(&signals_, nullptr, &tick);
        if (sig == SIGINT || sig == SIGTERM) {
          signal_ = sig;
          server.stop();
          return;
        }
      }
    });
  }
  ~StopOnSignal() {
    done_ = true;
    watcher_.join();
    pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  }
  int signal() const { return signal_.load(); }

 private:
  sigset_t signals_{};
  sigset_t old_mask_{};
  std::atomic<bool> done_{false};
  std::atomic<int> signal_{0};
  std::thread watcher_;
};

void run(const Options& o) {
  if (o.port < 0 || o.port > 65535)
    throw InputError("--port " + std::to_string(o.port) + " is not a TCP port (0 to 65535)");
  const std::string spec =
      !o.strategy.empty() ? o.strategy : (o.bot.starts_with("bot:") ? o.bot : "bot:" + o.bot);
  // The database is an output: never one of the inputs (a bot's parameter file included),
  // never a device or folder.
  std::vector<std::string> inputs = AgentSpec::parse(spec).files();
  inputs.push_back(o.game_path);
  check_output_path(o.db, "play database", inputs);
  std::optional<GameDefinition> game;
  if (!o.game_path.empty()) game = GameDefinition::from_option(o.game_path);
  server::Opponent opponent = server::load_opponent(spec, game);
  const std::string game_name = opponent.game.name;
  const std::string opponent_name = opponent.name;
  server::PlayStore store(o.db);
  server::ServeLimits limits;
  limits.max_sessions = o.max_sessions;
  limits.idle_seconds = o.idle_minutes * 60;
  server::TableServer table(std::move(opponent), store, limits, o.seed ? *o.seed : os_entropy64());
  const int port = table.bind(o.host, o.port);
  StopOnSignal stop(table);
  fmt::print("hulhe serve: {} against {} · database {} ({} hands so far)\n", game_name,
             opponent_name, o.db, store.hand_count());
  fmt::print("hulhe serve: listening on http://{}:{}/\n", o.host, port);
  std::fflush(stdout);
  table.serve();
  fmt::print("hulhe serve: stopped{} · {} hands in {}\n",
             stop.signal() == 0 ? "" : (stop.signal() == SIGINT ? " (SIGINT)" : " (SIGTERM)"),
             store.hand_count(), o.db);
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "serve", "Serve a web table to play a strategy file or a bot, and its strategy explorer");
  auto* strategy = cmd->add_option("--strategy", o->strategy, "strategy file (.strategy)");
  auto* bot = cmd->add_option("--bot", o->bot,
                              "built-in bot: always-fold, always-call, always-raise, uniform, "
                              "equity[:params.toml], function[:params.toml], rules:rules.toml");
  strategy->excludes(bot);
  bot->excludes(strategy);
  cmd->add_option("--game", o->game_path,
                  "ACPC .game file (bots; default: heads-up limit hold'em; with a strategy "
                  "file it must be the file's game)");
  cmd->add_option("--port", o->port, "TCP port; 0 picks a free one")->capture_default_str();
  cmd->add_option("--host", o->host, "address to listen on")->capture_default_str();
  cmd->add_option("--db", o->db, "SQLite file of players and hands (created if missing)")
      ->capture_default_str();
  add_seed_option(cmd, o->seed,
                  "seed of the deals and the opponent's choices (default: the OS's entropy, new "
                  "at every start; session ids always come from the OS)");
  cmd->add_option("--max-sessions", o->max_sessions,
                  "sessions held at once (the least recently used goes first)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
      ->capture_default_str();
  cmd->add_option("--idle-minutes", o->idle_minutes, "a session unused this long expires")
      ->check(CLI::Range(0.001, 10080.0))
      ->capture_default_str();
  cmd->callback([o] {
    if (o->strategy.empty() && o->bot.empty())
      throw InputError("serve needs --strategy FILE or --bot NAME");
    run(*o);
  });
}

}  // namespace hulhe::cli
