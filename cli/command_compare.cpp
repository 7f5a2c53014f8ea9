// `hulhe compare --a X --b Y [--game FILE] [--buckets-a MAP] [--buckets-b MAP] [--flops K
//   [--seed S]] [--threads T] [--resume-file PATH] [--json]`: the exact expected value of
// strategy A against strategy B in the real game, for both seat assignments — the hold'em
// best-response walk (best_response/holdem/holdem_best_response.h) with B's strategy in place of
// the max, so it has no variance; `--flops K` estimates it from K flops with a 95% interval. X and
// Y: a strategy file, a checkpoint (.ckpt) or `bot:NAME` (a baseline of --game).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "best_response/holdem/holdem_best_response.h"
#include "cli/best_response_options.h"
#include "cli/commands.h"
#include "cli/policy_source.h"
#include "cli/progress_lines.h"
#include "cli/thread_seed_options.h"
#include "distributed/distributed_units.h"
#include "util/input_error.h"

namespace hulhe::cli {
namespace {

struct Options : BestResponseSettings {
  std::string a, b, game, buckets_a, buckets_b;
  bool json = false;
};

void run(const Options& o) {
  if (o.a.empty() || o.b.empty()) throw InputError("give both --a and --b");
  if (o.flops < 0) throw InputError("--flops must be positive");
  o.check_resume_file({o.a, o.b, o.game, o.buckets_a, o.buckets_b});
  const PolicySource a = load_policy_spec(o.a, o.buckets_a, o.game);
  const PolicySource b = load_policy_spec(o.b, o.buckets_b, o.game);
  if (!(a.policy->tree().game() == b.policy->tree().game()))
    throw InputError(o.a + " and " + o.b + " are strategies of different games");
  HoldemBestResponseOptions bo = o.options();
  // Under mpirun the units spread over the ranks; rank 0 alone reports (docs/distributed.md).
  bo.distribution = make_unit_distribution(o.unit_timeout);
  // The walk's traverser follows B against A: value[t] is B's in seat t, so A's in seat
  // 1 - t is its negative (zero sum).
  const HoldemBestResponseReport r = HoldemBestResponse(*a.policy, *b.policy, bo).run();
  if (bo.distribution && !bo.distribution->coordinator()) return;
  const double mbb = 1000.0 / a.policy->tree().game().big_blind();
  const double a_seat0 = -r.value[1], a_seat1 = -r.value[0], a_mean = -r.mean;
  if (o.json) {
    nlohmann::json j;
    j["a"] = a.description;
    j["b"] = b.description;
    j["exact"] = r.exact;
    j["units_total"] = r.units_total;
    j["regression"] = r.regression;
    j["precision"] = r.single_precision ? "single" : "double";
    j["seconds"] = r.seconds;
    j["a_value_by_seat"] = {a_seat0, a_seat1};
    j["ci95_by_seat"] = {r.ci95[1], r.ci95[0]};
    j["a_value_chips"] = a_mean;
    j["a_value_mbb"] = a_mean * mbb;
    j["ci95_mbb"] = r.mean_ci95 * mbb;
    fmt::print("{}\n", j.dump());
    return;
  }
  auto pm = [&](double ci) { return r.exact ? std::string() : fmt::format(" ± {:.3f}", ci * mbb); };
  fmt::print("A = {}\nB = {}\n", a.description, b.description);
  fmt::print("  {} ({} flop units, {:.1f} s)\n",
             r.exact ? "exact"
                     : fmt::format("estimate from {} flops, seed {}{}", o.flops, o.seed,
                                   r.regression ? ", regression-adjusted on their ranks" : ""),
             r.units_total, r.seconds);
  fmt::print("  A in seat 0: {:+.9f} chips/hand ({:+.3f}{} mbb/g)\n", a_seat0, a_seat0 * mbb,
             pm(r.ci95[1]));
  fmt::print("  A in seat 1: {:+.9f} chips/hand ({:+.3f}{} mbb/g)\n", a_seat1, a_seat1 * mbb,
             pm(r.ci95[0]));
  fmt::print("  A against B, both seats: {:+.9f} chips/hand ({:+.3f}{} mbb/g)\n", a_mean,
             a_mean * mbb, pm(r.mean_ci95));
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "Exact expected value of one strategy against another (hold'em, real game)");
  cmd->add_option("--a", o->a, "strategy A: file, checkpoint (.ckpt) or bot:NAME");
  cmd->add_option("--b", o->b, "strategy B: file, checkpoint (.ckpt) or bot:NAME");
  cmd->add_option("--game", o->game, "game of bot:NAME and of bucket maps (default HULHE)");
  cmd->add_option("--buckets-a", o->buckets_a, "bucket map of a clustered strategy A");
  cmd->add_option("--buckets-b", o->buckets_b, "bucket map of a clustered strategy B");
  cmd->add_option("--flops", o->flops, "estimate from K flops drawn by weight");
  add_seed_option(cmd, o->seed, "seed of the flop sample");
  cmd->add_flag("--all-flops", o->all_flops, "every flop its own unit");
  add_threads_option(cmd, o->threads, "OpenMP threads");
  cmd->add_option("--resume-file", o->resume_file, "append finished work units here");
  add_precision_option(cmd, o->precision);
  cmd->add_flag("--quiet", o->quiet, "no progress lines on stderr");
  add_unit_timeout_option(cmd, o->unit_timeout);
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->callback([o] { run(*o); });
}

}  // namespace hulhe::cli
