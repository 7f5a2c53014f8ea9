// `hulhe equity`: win, tie and equity of 2..10 hands or ranges, with the final-category
// distribution of each, exactly or by Monte Carlo (game/equity/equity_calculator.h).
#include <fmt/core.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/thread_seed_options.h"
#include "game/equity/equity_calculator.h"
#include "util/input_error.h"

namespace hulhe::cli {
namespace {

struct EquityOptions {
  std::vector<std::string> players;
  std::string board;
  std::string dead;
  bool exact = false;
  bool monte_carlo = false;
  std::optional<double> target_stderr;
  std::optional<double> seconds;
  int threads = 0;
  std::uint64_t seed = 1;
  bool json = false;
};

std::string percent(double x) {
  return fmt::format("{:.3f}%", 100 * x);
}

void print_table(const EquityRequest& request, const EquityResult& result) {
  const std::size_t n = result.players.size();
  if (result.method == EquityMethod::kExact)
    fmt::print("exact: {} deals enumerated in {:.3f} s\n", result.combinations, result.seconds);
  else
    fmt::print("monte-carlo: {} deals sampled in {:.3f} s, standard error {:.5f}\n",
               result.combinations, result.seconds, result.stderr_max);
  if (!request.board.empty()) fmt::print("board {}\n", cards_to_string(request.board));
  if (!request.dead.empty()) fmt::print("dead  {}\n", request.dead.to_string());

  std::size_t width = 10;
  for (const Range& r : request.players) width = std::max(width, r.text().size() + 2);
  auto row = [&](const std::string& label, auto&& cell) {
    std::string line = fmt::format("{:<16}", label);
    for (std::size_t i = 0; i < n; ++i) line += fmt::format("{:>{}}", cell(i), width);
    fmt::print("{}\n", line);
  };
  row("", [&](std::size_t i) { return request.players[i].text(); });
  row("equity", [&](std::size_t i) { return percent(result.players[i].equity); });
  if (result.method == EquityMethod::kMonteCarlo)
    row("  std. error", [&](std::size_t i) { return percent(result.stderrs[i]); });
  row("win", [&](std::size_t i) { return percent(result.players[i].win); });
  row("tie", [&](std::size_t i) { return percent(result.players[i].tie); });
  for (int k = 0; k < kNumHandCategories; ++k)
    row(category_name(static_cast<HandCategory>(k)), [&](std::size_t i) {
      return percent(result.players[i].categories[static_cast<std::size_t>(k)]);
    });
}

void print_json(const EquityRequest& request, const EquityResult& result) {
  nlohmann::json players = nlohmann::json::array();
  for (std::size_t i = 0; i < result.players.size(); ++i) {
    const PlayerEquity& p = result.players[i];
    nlohmann::json categories = nlohmann::json::object();
    for (int k = 0; k < kNumHandCategories; ++k)
      categories[category_name(static_cast<HandCategory>(k))] =
          p.categories[static_cast<std::size_t>(k)];
    nlohmann::json player = {{"range", request.players[i].text()},
                             {"equity", p.equity},
                             {"win", p.win},
                             {"tie", p.tie},
                             {"categories", categories}};
    if (result.method == EquityMethod::kMonteCarlo) player["stderr"] = result.stderrs[i];
    players.push_back(player);
  }
  nlohmann::json out = {{"players", players},
                        {"board", cards_to_string(request.board)},
                        {"dead", request.dead.to_string()},
                        {"method", equity_method_name(result.method)},
                        {"combinations", result.combinations},
                        {"seconds", result.seconds}};
  if (result.method == EquityMethod::kMonteCarlo) out["stderr"] = result.stderr_max;
  fmt::print("{}\n", out.dump(2));
}

// `--exact` is refused when its estimated time (game/equity: estimate_exact_work) is above
// this: the enumeration prints nothing until it ends, and the largest requests (three random
// hands) would run for hours and hold tens of GB. Random against random preflop, about two
// minutes, is refused; on the flop, about 9 s on one thread, it runs. Monte Carlo gives any
// precision asked for in seconds, so the refusal names the command to run instead.
constexpr double kExactSecondsLimit = 10;

// The same request as a Monte Carlo command line, for the refusal message.
std::string monte_carlo_command(const EquityOptions& o) {
  auto arg = [](const std::string& s) {
    const bool plain = !s.empty() && s.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
                                         "qrstuvwxyz0123456789+-.,:") == std::string::npos;
    return plain ? s : "'" + s + "'";
  };
  std::string c = "hulhe equity";
  for (const std::string& p : o.players) c += " " + arg(p);
  if (!o.board.empty()) c += " --board " + arg(o.board);
  if (!o.dead.empty()) c += " --dead " + arg(o.dead);
  return c + " --monte-carlo --stderr 0.0001";
}

void run_equity(const EquityOptions& o) {
  EquityRequest request;
  for (const std::string& p : o.players) request.players.push_back(Range::parse(p));
  request.board = parse_cards(o.board);
  request.dead = CardSet::of(parse_cards(o.dead));
  request.method = o.exact         ? EquityMethod::kExact
                   : o.monte_carlo ? EquityMethod::kMonteCarlo
                                   : EquityMethod::kAuto;
  // Monte Carlo stops at the standard error (default 0.001) or the time budget, whichever
  // comes first (both range-checked by the options' validators).
  request.target_stderr = o.target_stderr.value_or(0.001);
  request.max_seconds = o.seconds.value_or(0.0);
  request.threads = o.threads;
  request.seed = o.seed;
  if (request.method == EquityMethod::kExact) {
    const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
    const ExactWork w = estimate_exact_work(request, threads);
    if (w.seconds > kExactSecondsLimit)
      throw InputError(fmt::format(
          "--exact would enumerate {:.3g} deals of the players' hands in about {:.3g} classes, an "
          "estimated {:.0f} s on {} thread{} (the limit is {:.0f} s); estimate it instead: {}",
          w.deals, w.classes, w.seconds, threads, threads == 1 ? "" : "s", kExactSecondsLimit,
          monte_carlo_command(o)));
  }
  const EquityResult result = compute_equity(request);
  if (o.json)
    print_json(request, result);
  else
    print_table(request, result);
}

}  // namespace

void add_equity_command(CLI::App& app) {
  auto options = std::make_shared<EquityOptions>();
  CLI::App* cmd = app.add_subcommand(
      "equity", "Win, tie and equity of 2-10 hands or ranges, exact or Monte Carlo");
  cmd->add_option(
         "players", options->players,
         "a hand or range per player: AhKh, AKs, QQ+, A5s-A2s, KTo+, 22-55, random, AKs:0.5, "
         "comma-separated lists")
      ->required()
      ->expected(2, 10)
      ->type_name("HAND_OR_RANGE");
  cmd->add_option("--board", options->board, "board cards so far (0, 3, 4 or 5), e.g. Td9c2s");
  cmd->add_option("--dead", options->dead, "cards out of the deck, e.g. 2h3h");
  auto* exact = cmd->add_flag("--exact", options->exact, "enumerate every deal");
  auto* mc = cmd->add_flag("--monte-carlo", options->monte_carlo,
                           "sample deals (default when exact is too big)");
  exact->excludes(mc);
  cmd->add_option("--stderr", options->target_stderr,
                  "Monte Carlo: stop at this standard error of every equity (default 0.001)")
      ->excludes(exact)
      ->check(open_interval_check(0.0, 1.0, "a standard error in (0, 1)"));
  cmd->add_option("--seconds", options->seconds, "Monte Carlo: time budget in seconds")
      ->excludes(exact)
      ->check(positive_seconds_check());
  add_threads_option(cmd, options->threads, "threads (default: all cores)");
  add_seed_option(cmd, options->seed, "Monte Carlo seed (default 1)");
  cmd->add_flag("--json", options->json, "print one JSON object");
  cmd->callback([options] { run_equity(*options); });
}

}  // namespace hulhe::cli
