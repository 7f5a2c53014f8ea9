// Solving and measuring: solve a small game with any algorithm and read its exploitability;
// the exact best response of any strategy (a Python policy included) on small games; the
// real-game best response of a hold'em strategy on sampled flops, with a progress callback.
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "abstraction/abstraction_factory.h"
#include "best_response/exploitability.h"
#include "best_response/holdem/holdem_best_response.h"
#include "best_response/holdem/paired_difference.h"
#include "game/betting_tree.h"
#include "pipeline/solve_config.h"
#include "pipeline/solver_run.h"
#include "python/bindings.h"
#include "resolving/resolved_subgame_values.h"
#include "solver/average_policy.h"
#include "strategy_files/strategy_file.h"
#include "util/combinatorics.h"
#include "util/input_error.h"
#include "util/output_file.h"
#include "util/progress.h"

namespace hulhe::python {
namespace {

py::dict exploitability_dict(const ExploitabilityReport& r) {
  py::dict d;
  d["br_value_vs_seat"] = std::vector<double>{r.br_value_vs_seat[0], r.br_value_vs_seat[1]};
  d["exploitability_chips"] = r.exploitability_chips;
  d["exploitability_mbb"] =
      r.exploitability_mbb ? py::object(py::float_(*r.exploitability_mbb)) : py::object(py::none());
  d["nash_conv"] = r.nash_conv;
  d["game_value"] = r.game_value;
  return d;
}

// A Python function from an information set to probabilities, read once at every information
// set of a lossless abstraction into a table: the function sees the acting player's view (a
// hulhe.State with its hole cards and the board) and returns probabilities over
// state.legal_actions() (a sequence in that order, or a dict by action).
class TablePolicy final : public Policy {
 public:
  TablePolicy(const GameDefinition& game, const py::object& fn) : tree_(game) {
    abstraction_ = make_abstraction("lossless", game, "");
    auto shared_game = std::make_shared<const GameDefinition>(game);
    const std::vector<Card> deck = game.deck();
    const int holes = game.num_hole_cards;
    offset_.resize(static_cast<std::size_t>(game.num_rounds));
    std::int64_t size = 0;
    for (int r = 0; r < game.num_rounds; ++r) {
      offset_[r].resize(static_cast<std::size_t>(tree_.num_decision_nodes(r)));
      for (std::int32_t d = 0; d < tree_.num_decision_nodes(r); ++d) {
        offset_[r][d] = size;
        size += static_cast<std::int64_t>(abstraction_->num_buckets(r)) *
                tree_.node(tree_.decision_node(r, d)).num_actions;
      }
    }
    if (size > (std::int64_t{1} << 24))
      throw InputError("a Python policy is read at every information set: " + game.name +
                       " has too many (" + std::to_string(size) + " values); small games only");
    values_.assign(static_cast<std::size_t>(size), -1.0);
    for (int r = 0; r < game.num_rounds; ++r) {
      // One view (hole cards, board) per bucket: every deal of the round's cards.
      const int board_n = game.total_board_cards(r);
      std::vector<std::vector<Card>> view(static_cast<std::size_t>(abstraction_->num_buckets(r)));
      std::vector<int> idx(static_cast<std::size_t>(holes + board_n));
      const int n = static_cast<int>(deck.size());
      // All ordered choices of hole cards (as sets) then board cards (as sets), disjoint.
      std::vector<Card> cards(idx.size());
      std::function<void(int, int, CardSet)> pick = [&](int k, int from, CardSet used) {
        if (k == static_cast<int>(idx.size())) {
          const std::int32_t b = abstraction_->bucket(r, cards.data(), cards.data() + holes);
          if (view[static_cast<std::size_t>(b)].empty()) view[static_cast<std::size_t>(b)] = cards;
          return;
        }
        const int start = (k == 0 || k == holes) ? 0 : from;
        for (int i = start; i < n; ++i) {
          if (used.contains(deck[i])) continue;
          cards[k] = deck[i];
          CardSet u = used;
          u.insert(deck[i]);
          pick(k + 1, i + 1, u);
        }
      };
      pick(0, 0, CardSet());
      for (std::int32_t d = 0; d < tree_.num_decision_nodes(r); ++d) {
        const std::int32_t node_index = tree_.decision_node(r, d);
        const BettingNode& node = tree_.node(node_index);
        State base(shared_game);
        base.state.apply_betting(tree_.betting_string(node_index));
        for (std::int32_t b = 0; b < abstraction_->num_buckets(r); ++b) {
          double* out =
              values_.data() + offset_[r][d] + static_cast<std::int64_t>(b) * node.num_actions;
          const std::vector<Card>& v = view[static_cast<std::size_t>(b)];
          if (v.empty()) {  // a view no deal makes
            for (int a = 0; a < node.num_actions; ++a) out[a] = 1.0 / node.num_actions;
            continue;
          }
          State s = base;
          s.state.set_hole_cards(node.player, v.data());
          for (int i = 0; i < board_n; ++i)
            s.state.set_board_card(i, v[static_cast<std::size_t>(holes + i)]);
          s.viewer = node.player;
          read(fn(s), node, out, s);
        }
      }
    }
  }
  const BettingTree& tree() const override { return tree_; }
  const CardAbstraction& abstraction() const override { return *abstraction_; }
  void action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                            std::span<double> out) const override {
    const double* v =
        values_.data() + offset_[round][node] + static_cast<std::int64_t>(bucket) * out.size();
    std::copy(v, v + out.size(), out.begin());
  }

 private:
  static void read(const py::object& r, const BettingNode& node, double* out, const State& s) {
    const std::string where =
        "the policy at betting '" + s.state.betting_string() + "' with " +
        cards_to_string({s.state.hole_cards(node.player),
                         s.state.hole_cards(node.player) + s.game->num_hole_cards});
    double p[kNumActionKinds] = {0, 0, 0};
    if (py::isinstance<py::dict>(r)) {
      for (auto [k, v] : r.cast<py::dict>()) {
        const BetAction a = action_arg(k, *s.game);
        int slot = 0;
        while (slot < node.num_actions && node.actions[slot] != a.type) ++slot;
        if (slot == node.num_actions)
          throw InputError(where + " gives a probability to an illegal action " +
                           std::string(py::repr(k)));
        p[slot] = v.cast<double>();
      }
    } else {
      std::vector<double> seq = r.cast<std::vector<double>>();
      if (static_cast<int>(seq.size()) != node.num_actions)
        throw InputError(where + " returned " + std::to_string(seq.size()) + " probabilities for " +
                         std::to_string(node.num_actions) + " legal actions");
      // In the order of legal_actions(): fold, call, raise.
      const std::vector<std::string> legal = legal_actions(s.state);
      for (std::size_t i = 0; i < legal.size(); ++i) {
        const Action kind = legal[i] == "f"   ? Action::kFold
                            : legal[i] == "c" ? Action::kCall
                                              : Action::kRaise;
        for (int slot = 0; slot < node.num_actions; ++slot)
          if (node.actions[slot] == kind) p[slot] = seq[i];
      }
    }
    double sum = 0;
    for (int a = 0; a < node.num_actions; ++a) {
      if (!(p[a] >= 0) || !std::isfinite(p[a]))
        throw InputError(where + " returned a probability that is negative or not a number");
      sum += p[a];
    }
    if (!(sum > 0)) throw InputError(where + " returned probabilities that sum to 0");
    for (int a = 0; a < node.num_actions; ++a) out[a] = p[a] / sum;
  }

  BettingTree tree_;
  std::unique_ptr<CardAbstraction> abstraction_;
  std::vector<std::vector<std::int64_t>> offset_;
  std::vector<double> values_;
};

// A policy argument: a hulhe.Strategy, or a Python function (read on `game`).
PolicyHandle policy_arg(const py::object& o, const py::object& game) {
  if (py::isinstance<PolicyHandle>(o)) return o.cast<PolicyHandle>();
  if (py::isinstance<py::str>(o) || !PyCallable_Check(o.ptr()))
    throw InputError("a policy is a hulhe.Strategy or a function from a state to probabilities");
  if (game.is_none()) throw InputError("a Python policy needs game= (a small game: Kuhn, Leduc)");
  const Game g = game_arg(game);
  auto p = std::make_shared<const TablePolicy>(*g.def, o);
  std::string name = py::hasattr(o, "__name__") ? o.attr("__name__").cast<std::string>() : "policy";
  return PolicyHandle(p, name);
}

// A finished (or stopped) solve, keeping its tables.
struct Solution {
  std::shared_ptr<SolverRun> run;
  SolveSummary summary;
  std::string algorithm;
  PolicyHandle strategy() const {
    struct Held {
      std::shared_ptr<SolverRun> run;
      AveragePolicy policy;
    };
    auto held = std::make_shared<Held>(
        Held{run, AveragePolicy(run->tree(), run->abstraction(), run->tables())});
    return PolicyHandle(
        std::shared_ptr<const Policy>(held, &held->policy),
        run->game().name + " " + algorithm + " " + std::to_string(summary.iterations));
  }
};

std::string temp_game_file(const GameDefinition& game) {
  std::random_device rd;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("hulhe-python-" + std::to_string(rd()) + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  const auto path = dir / ((game.name.empty() ? std::string("game") : game.name) + ".game");
  std::ofstream(path) << game.to_acpc_string();
  return path.string();
}

void set_parameter(CfrParameters& p, const std::string& key, const py::handle& v) {
  const std::map<std::string, double*> reals = {
      {"dcfr_alpha", &p.dcfr_alpha},           {"dcfr_beta", &p.dcfr_beta},
      {"dcfr_gamma", &p.dcfr_gamma},           {"outcome_epsilon", &p.outcome_epsilon},
      {"prune_threshold", &p.prune_threshold}, {"prune_probability", &p.prune_probability},
      {"regret_floor", &p.regret_floor}};
  const std::map<std::string, std::int64_t*> counts = {{"cfr_plus_delay", &p.cfr_plus_delay},
                                                       {"discount_interval", &p.discount_interval},
                                                       {"discount_until", &p.discount_until},
                                                       {"average_delay", &p.average_delay},
                                                       {"prune_after", &p.prune_after}};
  if (auto it = reals.find(key); it != reals.end()) {
    *it->second = v.cast<double>();
  } else if (auto jt = counts.find(key); jt != counts.end()) {
    *jt->second = v.cast<std::int64_t>();
  } else {
    std::string known;
    for (const auto& [k, _] : reals) known += " " + k;
    for (const auto& [k, _] : counts) known += " " + k;
    throw InputError("unknown solver parameter '" + key + "' (known:" + known + ")");
  }
}

Solution solve(const py::object& game_o, const std::string& algorithm, std::int64_t iterations,
               double seconds, int threads, std::uint64_t seed, const py::object& parameters,
               const std::string& precision, const py::object& buckets,
               const py::object& checkpoint, bool resume, double progress_every,
               const py::object& progress) {
  const Game game = game_arg(game_o);
  SolveConfig c;
  std::string temp;
  if (game.path.empty())
    temp = c.game_path = temp_game_file(*game.def);
  else
    c.game_path = game.path;
  c.params.algorithm = algorithm;
  c.params.seed = seed;
  c.iterations = iterations;
  c.seconds = seconds;
  c.threads = threads;
  c.table_precision = precision;
  c.progress_every_seconds = progress_every;
  if (!buckets.is_none()) {
    c.abstraction = "buckets";
    c.bucket_map = py::str(buckets).cast<std::string>();
  }
  if (!checkpoint.is_none()) c.checkpoint = py::str(checkpoint).cast<std::string>();
  if (!parameters.is_none())
    for (auto [k, v] : parameters.cast<py::dict>())
      set_parameter(c.params, k.cast<std::string>(), v);
  c.validate("solve()");
  Solution s;
  s.algorithm = algorithm;
  ProgressCallback on_progress;
  if (!progress.is_none())
    on_progress = [&](const Progress& p) {
      py::gil_scoped_acquire gil;
      py::dict d;
      d["iterations"] = p.done;
      d["target"] = p.total;
      d["elapsed_seconds"] = p.elapsed_seconds;
      d["iterations_per_second"] = p.per_second;
      d["eta_seconds"] = p.eta_seconds;
      d["exploitability_chips"] =
          p.estimate ? py::object(py::float_(*p.estimate)) : py::object(py::none());
      progress(d);
    };
  {
    py::gil_scoped_release release;
    try {
      s.run = std::make_shared<SolverRun>(c, resume);
    } catch (...) {
      if (!temp.empty()) std::filesystem::remove_all(std::filesystem::path(temp).parent_path());
      throw;
    }
    if (!temp.empty()) std::filesystem::remove_all(std::filesystem::path(temp).parent_path());
    // SolverRun takes SIGINT for the run's length (pipeline/solver_run.h): Ctrl-C ends the
    // chunk under way, and is raised here as KeyboardInterrupt.
    s.summary = s.run->run(on_progress);
  }
  if (s.summary.interrupted) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  return s;
}

// exploitability_chips, _mbb, ci95_chips, _mbb and nash_conv of a complete run.
void put_exploitability(py::dict& d, const HoldemBestResponseReport& r, double mbb) {
  d["exploitability_chips"] = r.mean;
  d["exploitability_mbb"] = r.mean * mbb;
  d["ci95_chips"] = r.mean_ci95;
  d["ci95_mbb"] = r.mean_ci95 * mbb;
  d["nash_conv"] = 2.0 * r.mean;
}

py::dict best_response(const PolicyHandle& h, std::int64_t flops, std::uint64_t seed, int threads,
                       const std::string& precision, bool all_flops, const py::object& progress,
                       double progress_every, const std::optional<std::string>& resolve,
                       const py::object& baseline_arg,
                       const std::optional<std::filesystem::path>& resume_file,
                       const std::optional<std::int64_t>& stop_after) {
  HoldemBestResponseOptions o;
  if (threads < 1) throw InputError("threads must be 1 or more");
  if (stop_after && *stop_after < 0) throw InputError("stop_after must be 0 or more");
  o.max_units = stop_after ? *stop_after : -1;
  if (flops < 0) throw InputError("flops must be 0 (exact) or more");
  // As `hulhe exploit --baseline`: a second strategy on the same flops, paired.
  std::optional<PolicyHandle> baseline;
  if (!baseline_arg.is_none()) {
    if (!py::isinstance<PolicyHandle>(baseline_arg))
      throw InputError("baseline is a hulhe.Strategy");
    baseline = baseline_arg.cast<PolicyHandle>();
    if (!(*baseline->game == *h.game)) throw InputError("baseline is a strategy of another game");
  }
  // As `hulhe exploit --resume-file`: the journals beside it (FILE.baseline, FILE.deals) are
  // outputs too, checked before any work; none may be a file that was read.
  std::string baseline_journal;
  if (resume_file) {
    const std::vector<std::string> inputs{h.path, baseline ? baseline->path : std::string()};
    o.resume_file = resume_file->string();
    check_output_path(o.resume_file, "resume file", inputs);
    if (baseline) {
      baseline_journal = o.resume_file + ".baseline";
      check_output_path(baseline_journal, "resume file", inputs);
    }
    if (resolve) {
      o.deal_journal = o.resume_file + ".deals";
      check_output_path(o.deal_journal, "deal journal", inputs);
    }
  }
  o.threads = threads;
  o.sample_flops = flops;
  o.seed = seed;
  o.flops =
      all_flops ? HoldemBestResponseOptions::Flops::kAll : HoldemBestResponseOptions::Flops::kAuto;
  if (precision == "single")
    o.precision = HoldemBestResponseOptions::Precision::kSingle;
  else if (precision == "double")
    o.precision = HoldemBestResponseOptions::Precision::kDouble;
  else if (precision != "auto")
    throw InputError("precision is 'auto', 'single' or 'double'");
  o.progress_every_seconds = progress_every;
  // The re-solving agent resolve:FILE:OPTIONS measured in place of the strategy.
  if (resolve) o.subgames = resolved_subgames_for(h.policy, *resolve);
  Interrupt interrupt;
  if (!progress.is_none())
    o.on_progress = [&](const Progress& p) {
      interrupt.call([&] {
        py::dict d;
        d["stage"] = p.stage;  // "" for flop units, "re-solves" for resolve='s re-solves
        d["done"] = p.done;
        d["total"] = p.total;
        d["computed"] = p.computed;
        d["elapsed_seconds"] = p.elapsed_seconds;
        d["per_second"] = p.per_second;
        d["eta_seconds"] = p.eta_seconds;
        d["last"] = p.last;
        progress(d);
      });
    };
  o.should_stop = [&] { return interrupt.check(); };
  HoldemBestResponseReport r, b;
  {
    py::gil_scoped_release release;
    r = HoldemBestResponse(*h.policy, o).run();
    if (baseline && (r.complete || r.interim)) {
      // The baseline as it is, on the flops the strategy finished (as hulhe exploit).
      b = HoldemBestResponse(*baseline->policy, baseline_options(o, r, baseline_journal)).run();
    }
  }
  interrupt.raise_if_stopped();
  const double mbb = 1000.0 / h.game->big_blind();
  // As `hulhe exploit --json`: by the seat of the strategy that is exploited.
  const auto estimate = [&](py::dict& d) {
    d["br_value_vs_seat"] = std::vector<double>{r.value[1], r.value[0]};
    d["ci95_vs_seat"] = std::vector<double>{r.ci95[1], r.ci95[0]};
    put_exploitability(d, r, mbb);
    if (!baseline) return;
    py::dict base;
    put_exploitability(base, b, mbb);
    base["br_value_vs_seat"] = std::vector<double>{b.value[1], b.value[0]};
    base["strategy"] = baseline->name;
    d["baseline"] = base;
    const PairedDifference p = paired_difference(r, b);
    d["difference_chips"] = p.difference;
    d["difference_mbb"] = p.difference * mbb;
    d["difference_ci95_chips"] = p.ci95;
    d["difference_ci95_mbb"] = p.ci95 * mbb;
  };
  py::dict d;
  d["complete"] = r.complete;
  d["units_done"] = r.units_done;
  if (r.complete) estimate(d);
  if (r.interim) {
    py::dict in;
    estimate(in);
    in["sampled_flops"] = r.interim_draws;
    in["units"] = r.interim_units.size();
    d["interim"] = in;
  }
  if (resolve) d["deals_resumed"] = r.deals_resumed;
  d["exact"] = r.exact;
  d["flop_classes"] = r.flop_classes;
  d["units"] = r.units_total;
  d["seconds"] = r.seconds;
  d["resolve"] = resolve ? py::object(py::str(*resolve)) : py::object(py::none());
  return d;
}

}  // namespace

void bind_solving(py::module_& m) {
  py::class_<Solution>(m, "Solution", "A solve's result: its tables' average strategy.")
      .def_property_readonly("iterations", [](const Solution& s) { return s.summary.iterations; })
      .def_property_readonly("seconds", [](const Solution& s) { return s.summary.seconds; })
      .def_property_readonly("algorithm", [](const Solution& s) { return s.algorithm; })
      .def_property_readonly(
          "game",
          [](const Solution& s) {
            return Game{std::make_shared<const GameDefinition>(s.run->game()), ""};
          })
      .def_property_readonly("checkpoint", [](const Solution& s) { return s.summary.checkpoint; })
      .def_property_readonly("strategy", &Solution::strategy,
                             "The average strategy (a hulhe.Strategy).")
      .def(
          "exploitability",
          [](const Solution& s) -> py::object {
            std::optional<ExploitabilityReport> r;
            {
              py::gil_scoped_release release;
              r = s.run->exploitability();
            }
            if (!r) return py::none();
            return exploitability_dict(*r);
          },
          "Exact exploitability of the average strategy (as `hulhe solve` prints it), or None "
          "for games too large for an exact best response.")
      .def(
          "export",
          [](const Solution& s, const std::filesystem::path& path, int bits) {
            if (!supported_probability_bits(bits)) throw InputError("bits is 2 to 8 or 16");
            AveragePolicy policy(s.run->tree(), s.run->abstraction(), s.run->tables());
            StrategyFileMetadata meta;
            meta.algorithm = s.algorithm;
            meta.iterations = s.summary.iterations;
            meta.abstraction_kind = s.run->config().abstraction;
            meta.bucket_map = s.run->config().bucket_map;
            meta.bits = bits;
            py::gil_scoped_release release;
            write_strategy_file(path.string(), policy, meta);
          },
          py::arg("path"), py::arg("bits") = 8,
          "Writes the average strategy as a strategy file (as `hulhe export` does).");

  m.def("solve", &solve, py::arg("game"), py::kw_only(), py::arg("algorithm") = "cfr+",
        py::arg("iterations") = 1000, py::arg("seconds") = 0.0, py::arg("threads") = 1,
        py::arg("seed") = 1, py::arg("parameters") = py::none(), py::arg("precision") = "auto",
        py::arg("buckets") = py::none(), py::arg("checkpoint") = py::none(),
        py::arg("resume") = false, py::arg("progress_every") = 2.0,
        py::arg("progress") = py::none(),
        "Solves a 2-player limit game as `hulhe solve` does: algorithm 'cfr', 'cfr+', 'dcfr', "
        "'cfr-br', 'pcs', 'external' or 'outcome'; `iterations` in all (a resumed checkpoint "
        "counts its own), `seconds` a time budget (0: none). game: a Game or a .game path. "
        "parameters: the config's [parameters] keys (dcfr_alpha, outcome_epsilon, ...). "
        "buckets: a bucket map (hulhe abstract) instead of the lossless abstraction. checkpoint: "
        "written at the end (resume=True continues it). progress(dict) every progress_every "
        "seconds. Releases the GIL; Ctrl-C stops after the chunk under way (about 0.1 s) and "
        "raises KeyboardInterrupt.");
  m.def(
      "exploitability",
      [](const py::object& policy, const py::object& game, int threads) {
        const PolicyHandle h = policy_arg(policy, game);
        ExploitabilityReport r;
        {
          py::gil_scoped_release release;
          r = compute_exploitability(*h.policy, std::max(1, threads));
        }
        return exploitability_dict(r);
      },
      py::arg("policy"), py::kw_only(), py::arg("game") = py::none(), py::arg("threads") = 1,
      "Exact exploitability of a strategy in a small game (hulhe exploit --json): "
      "br_value_vs_seat, exploitability_chips, exploitability_mbb (None without a big "
      "blind), nash_conv, game_value.\n\npolicy: a hulhe.Strategy, or a function from a "
      "hulhe.State (the acting player's view: its hole cards, the board, the betting) to "
      "probabilities over state.legal_actions() (a list in that order or a dict by action), "
      "read once at every information set of `game`.");
  m.def(
      "python_policy",
      [](const py::object& fn, const py::object& game) { return policy_arg(fn, game); },
      py::arg("function"), py::arg("game"),
      "A Python policy (see exploitability) as a hulhe.Strategy: match it, query it, measure it.");
  m.def("best_response", &best_response, py::arg("strategy"), py::kw_only(), py::arg("flops") = 0,
        py::arg("seed") = 1, py::arg("threads") = 1, py::arg("precision") = "auto",
        py::arg("all_flops") = false, py::arg("progress") = py::none(),
        py::arg("progress_every") = 2.0, py::arg("resolve") = py::none(),
        py::arg("baseline") = py::none(), py::arg("resume_file") = py::none(),
        py::arg("stop_after") = py::none(),
        "Real-game best response to a hold'em strategy (hulhe exploit on HULHE and the reduced "
        "decks): exact, or estimated from `flops` sampled flops with a 95% interval. "
        "progress(dict: stage, done, total, computed, elapsed_seconds, per_second, eta_seconds, "
        "last) at most every progress_every seconds. resolve: measure the agent that re-solves "
        "from a street with every card instead (hulhe exploit --resolve: 'turn', 'river', or the "
        "options of resolve:FILE:..., e.g. 'street=river:iterations=100:gadget=maxmargin'; "
        "iterations, not seconds); its units then run one at a time, each unit's re-solves on "
        "`threads`, and progress also reports stage 're-solves' (done and total re-solves). "
        "baseline: a second hulhe.Strategy exploited on the same flops (hulhe exploit "
        "--baseline): adds baseline (its exploitability), difference_chips, difference_mbb and "
        "their paired 95% interval difference_ci95_chips, difference_ci95_mbb. resume_file: "
        "finished flop units are journaled there (with baseline also in FILE.baseline, with "
        "resolve each finished deal in FILE.deals) and an existing journal is resumed, as "
        "hulhe exploit --resume-file. stop_after: compute at most this many flop units now "
        "(0: none; hulhe exploit --stop-after). "
        "Returns the keys of `hulhe exploit --json` "
        "(br_value_vs_seat, ci95_vs_seat, exploitability_chips, exploitability_mbb, ci95_chips, "
        "ci95_mbb, nash_conv, resolve; deals_resumed with resolve) and exact, flop_classes, "
        "units, units_done, complete, seconds; a sampled run left incomplete has instead "
        "`interim`: those keys over its finished flops (with sampled_flops and units; the "
        "baseline measured on the same flops). Releases the GIL; Ctrl-C stops before the next "
        "flop unit and raises KeyboardInterrupt.");
}

}  // namespace hulhe::python
