// `hulhe lbr (--strategy FILE [--buckets MAP] | --checkpoint PATH | --game FILE --policy NAME)
//   --hands N [--seed S] [--threads T] [--equity-boards K] [--quiet] [--json]`:
// local best response (best_response/local_best_response.h) against a strategy in the real game: a
// lower bound on its exploitability from N sampled hands, in chips per hand and mbb/g with a
// 95% interval. Cheap where the exact best response (`exploit`) takes hours.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "best_response/local_best_response.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/policy_source.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "util/input_error.h"

namespace hulhe::cli {
namespace {

struct Options : PolicyOptions {
  std::int64_t hands = 0;
  std::uint64_t seed = 1;
  int threads = 1;
  int equity_boards = 1000;
  bool quiet = false;
  bool json = false;
};

void report(const LocalBestResponseReport& r, const Policy& policy, const std::string& what,
            const Options& o) {
  const double mbb = 1000.0 / policy.tree().game().big_blind();
  if (o.json) {
    nlohmann::json j;
    j["hands"] = r.hands;
    j["seed"] = o.seed;
    j["lbr_chips"] = r.mean;
    j["ci95_chips"] = r.ci95;
    j["lbr_mbb"] = r.mean * mbb;
    j["ci95_mbb"] = r.ci95 * mbb;
    // As `exploit`: index s is the value against the policy in seat s (LBR in seat 1 - s).
    j["lbr_value_vs_seat"] = {r.seat_mean[1], r.seat_mean[0]};
    j["ci95_vs_seat"] = {r.seat_ci95[1], r.seat_ci95[0]};
    j["decisions"] = {{"fold", r.decisions[static_cast<int>(Action::kFold)]},
                      {"call", r.decisions[static_cast<int>(Action::kCall)]},
                      {"raise", r.decisions[static_cast<int>(Action::kRaise)]}};
    j["seconds"] = r.seconds;
    fmt::print("{}\n", j.dump());
    return;
  }
  fmt::print("local best response against {} (real game, {} hands, seed {})\n", what, r.hands,
             o.seed);
  for (int s = 0; s < 2; ++s)
    fmt::print("  LBR value vs seat {}: {:+.4f} ± {:.4f} chips/hand ({} hands)\n", s,
               r.seat_mean[1 - s], r.seat_ci95[1 - s], r.seat_hands[1 - s]);
  fmt::print("  LBR value:          {:+.4f} ± {:.4f} chips/hand ({:+.1f} ± {:.1f} mbb/g)\n", r.mean,
             r.ci95, r.mean * mbb, r.ci95 * mbb);
  fmt::print("  LBR decisions: {} folds, {} checks/calls, {} bets/raises\n",
             r.decisions[static_cast<int>(Action::kFold)],
             r.decisions[static_cast<int>(Action::kCall)],
             r.decisions[static_cast<int>(Action::kRaise)]);
  fmt::print("  {:.1f} s, {:.0f} hands/s\n", r.seconds, static_cast<double>(r.hands) / r.seconds);
}

void run(const Options& o) {
  o.check_source();
  if (o.hands < 1) throw InputError("--hands must be at least 1");
  if (o.threads < 1) throw InputError("--threads must be at least 1");
  if (o.equity_boards < 1) throw InputError("--equity-boards must be at least 1");
  PolicySource src = o.load();
  LocalBestResponseOptions lo;
  lo.hands = o.hands;
  lo.seed = o.seed;
  lo.threads = o.threads;
  lo.equity.monte_carlo_boards = o.equity_boards;
  if (!o.quiet) lo.on_progress = print_lbr_progress();
  const LocalBestResponse lbr(*src.policy, lo);
  report(lbr.run(), *src.policy, src.description, o);
}

}  // namespace

void add_lbr_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "lbr", "Local best response: a lower bound on exploitability from sampled hands");
  o->add_policy_options(*cmd);
  // One result slot per hand is kept (8 bytes each): 10^8 hands is 800 MB and days of HULHE
  // play, so more is a typo (99999999999999999999 used to end in "internal error").
  cmd->add_option("--hands", o->hands, "hands to play (seats alternate)")
      ->required()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}));
  add_seed_option(cmd, o->seed, "seed of the deals and the policy's actions");
  add_threads_option(cmd, o->threads, "OpenMP threads (the result does not depend on it)");
  cmd->add_option("--equity-boards", o->equity_boards,
                  "Monte Carlo boards per equity pass where enumerating is too costly "
                  "(HULHE preflop)")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_flag("--quiet", o->quiet, "no progress lines on stderr");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->callback([o] { run(*o); });
}

}  // namespace hulhe::cli
