#pragma once
// The whole pipeline of a pipeline config (pipeline_config.h), as `hulhe run` runs it:
//   1. abstraction — build the bucket map, or reuse one built from this very description;
//   2. solve       — SolverRun, resuming an earlier run of the config, with sampled real-game
//                    estimates every `evaluate.every_seconds` (their time is not solve time)
//                    of the strategy as it would be exported (thinned and quantised, so the
//                    estimate is that of the file). Each estimate lower than every one before
//                    it is written to the strategy file at once. An estimate due within half
//                    an interval of the end of the budget is left to stage 4's;
//   3. export      — the last average strategy: to the strategy file when no estimate was
//                    made during the solve, else to `<strategy>.last`;
//   4. evaluate    — the last strategy file by real-game best response, sampled on the same
//                    flops as the estimates during the solve (one seed, one systematic sample:
//                    common random numbers, so the comparison is sharper than each estimate),
//                    or exact with `evaluate.exact`;
// then the curve (CSV), its plot (SVG, where gnuplot is installed) and the JSON report.
//
// Which strategy the strategy file keeps: the one of the lowest estimate, because real-game
// exploitability can rise while the abstract game still converges (Johanson et al. 2011,
// "Accelerating best response calculation in large extensive games"). A last one estimated no
// higher than the best so far replaces it (rename; no `.last` file remains); otherwise the
// strategy file keeps the earlier one and `<strategy>.last` holds the last; the checkpoint always
// holds the last tables, which a resumed run continues. With `evaluate.exact` and estimates
// during the solve, the last one's sampled estimate decides and the exact best response then
// evaluates the kept file. A SIGINT/SIGTERM during the solve leaves the best so far in the
// strategy file and the last, not evaluated, in `.last`. Files written during the solve
// carry checkpoint hash 0 (no checkpoint holds their tables).
// What happens along the way goes to a PipelineObserver; only the CLI prints it.
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "best_response/holdem/holdem_best_response.h"
#include "game/game_definition.h"
#include "pipeline/exploitability_curve.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/solve_ranks.h"
#include "pipeline/solver_run.h"
#include "util/progress.h"

namespace hulhe {

// The strategy a run's strategy file holds at its end, when estimates during the solve took
// part in the choice. Exploitability in mbb/g, each a sampled estimate on the same flops.
struct KeptStrategy {
  std::int64_t iterations = 0;
  double solve_seconds = 0.0;
  double mbb = 0.0;
  double ci95_mbb = 0.0;
  bool is_last = true;
  int candidates = 0;  // estimates compared: those during the solve and the last one's
  // The last strategy: its estimate (NaN when a signal stopped the run before it) and its
  // file when the strategy file keeps an earlier one ("" otherwise).
  std::int64_t last_iterations = 0;
  double last_mbb = 0.0;
  double last_ci95_mbb = 0.0;
  std::string last_strategy;
};

// Every callback has a default that does nothing. Called on the thread that runs the pipeline.
class PipelineObserver {
 public:
  virtual ~PipelineObserver() = default;
  // Stage 1.
  virtual void abstraction_reused(const std::string& /*bucket_map*/) {}
  virtual void abstraction_building(const std::string& /*bucket_map*/, int /*threads*/) {}
  // The builder's steps (abstraction_builder.h), elapsed_seconds since stage 1 began, and the
  // compact export's river check before the solve (stage "compact export: ...").
  virtual void abstraction_progress(const Progress& /*p*/) {}
  virtual void abstraction_built(double /*seconds*/) {}
  // Stage 2.
  virtual void solve_started(const SolverRun& /*solver*/, bool /*resumed*/) {}
  virtual void solve_progress(const SolverRun& /*solver*/, const Progress& /*p*/) {}
  virtual void estimate_done(const CurvePoint& /*point*/, int /*flops*/, double /*seconds*/) {}
  virtual void estimate_stopped(double /*seconds*/) {}
  // The estimate just done is the lowest so far: that strategy is now in the strategy file.
  virtual void best_kept(const CurvePoint& /*point*/, const std::string& /*strategy*/,
                         double /*seconds*/) {}
  virtual void solve_interrupted() {}
  // Stage 3.
  virtual void exported(const std::string& /*strategy*/, std::uint64_t /*bytes*/, int /*bits*/,
                        double /*seconds*/) {}
  // Stage 4. With estimates during the solve, the last one's estimate decides which strategy
  // the strategy file keeps (strategy_kept) before any exact evaluation of the kept file.
  virtual void evaluation_started(bool /*exact*/, int /*flops*/) {}
  virtual void strategy_kept(const KeptStrategy& /*kept*/) {}
  // From an evaluation thread, under the walk's lock (the run waits on it).
  virtual void evaluation_progress(const Progress& /*p*/) {}
};

struct PipelineReport {
  std::string config;
  std::string game;
  struct Abstraction {
    std::string bucket_map;
    std::string description;
    double seconds = 0.0;
  };
  struct Solve {
    std::string algorithm;
    int threads = 1;
    SolveSummary summary;
    double evaluation_seconds = 0.0;   // estimates during the solve (not solve time)
    double best_export_seconds = 0.0;  // writing the best so far during the solve (neither)
    std::uint64_t table_bytes = 0;
    double checkpoint_mb_per_second = 0.0;
    // Iterations of this invocation per second of its solve time.
    double iterations_per_second() const;
  };
  // The strategy file (the configured path) as the run leaves it; `seconds`: stage 3's export.
  struct Export {
    std::string strategy;
    int bits = 8;
    std::string thinning;  // StrategyThinning::describe(): "" for none
    bool compact = false;
    double compact_check_seconds = 0.0;  // the compact river model's check, before the solve
    std::uint64_t bytes = 0;
    double seconds = 0.0;
  };
  Abstraction abstraction;
  Solve solve;
  Export exported;
  // Set when estimates during the solve took part: which strategy the strategy file holds.
  std::optional<KeptStrategy> kept;
  // The final real-game evaluation, when the config asks for one (and the run was not stopped):
  // of the last strategy, or with `exact` and a kept earlier one, of the kept strategy.
  std::optional<HoldemBestResponseReport> evaluation;
  bool exact = false;
  int sampled_flops = 0;
  double evaluation_seconds = 0.0;
  std::vector<CurvePoint> curve;
  std::string curve_file;
  std::string plot_file;    // "" when no plot was drawn (gnuplot missing or none asked)
  bool plot_asked = false;  // [evaluate] plot names a file (drawn where gnuplot is)
  std::string report_file;
  double seconds = 0.0;  // the whole run

  double big_blind = 1.0;  // chips; mbb/g are thousandths of it per hand

  double to_mbb(double chips) const;
  nlohmann::json to_json() const;
};

class PipelineRun {
 public:
  // `config` validated; its outputs are checked against its inputs and each other here,
  // before the hours of the abstraction and the solve. Throws InputError.
  explicit PipelineRun(PipelineConfig config);

  const PipelineConfig& config() const { return config_; }
  const GameDefinition& game() const { return game_; }

  // Runs the four stages; a SIGINT/SIGTERM during the solve checkpoints, exports and returns
  // (summary.interrupted) without the final evaluation.
  PipelineReport run(PipelineObserver& observer);

  // What every real-game best response of the run calls (default: HoldemBestResponse). Tests
  // put scripted estimates here to steer which strategy is kept.
  using Estimator =
      std::function<HoldemBestResponseReport(const Policy&, const HoldemBestResponseOptions&)>;
  void use_estimator(Estimator estimator) { estimator_ = std::move(estimator); }

  // Runs over the ranks of `ranks` (solve_ranks.h; docs/distributed.md): the bucket map must
  // exist already (one writer: `hulhe abstract`), the solve runs over every rank, and rank 0
  // alone estimates during the solve, exports and evaluates; the other ranks' run() returns
  // after the solve. With one rank (or null) nothing changes.
  void run_over(std::shared_ptr<SolveRanks> ranks) { ranks_ = std::move(ranks); }

 private:
  void ensure_bucket_map(PipelineObserver& observer);
  HoldemBestResponseReport evaluate(const Policy& policy, bool exact, PipelineObserver* progress,
                                    std::function<bool()> should_stop = {}) const;

  PipelineConfig config_;
  GameDefinition game_;
  Estimator estimator_;
  std::shared_ptr<SolveRanks> ranks_;
};

}  // namespace hulhe
