#pragma once
// The whole pipeline of a pipeline config (pipeline_config.h), as `hulhe run` runs it:
//   1. abstraction — build the bucket map, or reuse one built from this very description;
//   2. solve       — SolverRun, resuming an earlier run of the config, with sampled real-game
//                    estimates every `evaluate.every_seconds` (their time is not solve time);
//   3. export      — the average strategy to a strategy file;
//   4. evaluate    — the exported file by real-game best response (sampled or exact),
// then the curve (CSV), its plot (SVG, where gnuplot is installed) and the JSON report.
// What happens along the way goes to a PipelineObserver; only the CLI prints it.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "best_response/evaluation_progress.h"
#include "best_response/holdem/holdem_best_response.h"
#include "game/game_definition.h"
#include "pipeline/exploitability_curve.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/solver_run.h"

namespace hulhe {

// Every callback has a default that does nothing. Called on the thread that runs the pipeline.
class PipelineObserver {
 public:
  virtual ~PipelineObserver() = default;
  // Stage 1.
  virtual void abstraction_reused(const std::string& /*bucket_map*/) {}
  virtual void abstraction_building(const std::string& /*bucket_map*/, int /*threads*/) {}
  virtual void abstraction_progress(const std::string& /*stage*/, std::int64_t /*done*/,
                                    std::int64_t /*total*/, double /*elapsed_seconds*/) {}
  virtual void abstraction_built(double /*seconds*/) {}
  // Stage 2.
  virtual void solve_started(const SolverRun& /*solver*/, bool /*resumed*/) {}
  virtual void solve_progress(const SolverRun& /*solver*/, const SolveProgress& /*p*/) {}
  virtual void estimate_done(const CurvePoint& /*point*/, int /*flops*/, double /*seconds*/) {}
  virtual void estimate_stopped(double /*seconds*/) {}
  virtual void solve_interrupted() {}
  // Stage 3.
  virtual void exported(const std::string& /*strategy*/, std::uint64_t /*bytes*/, int /*bits*/,
                        double /*seconds*/) {}
  // Stage 4.
  virtual void evaluation_started(bool /*exact*/, int /*flops*/) {}
  // From an evaluation thread, under the walk's lock (the run waits on it).
  virtual void evaluation_progress(const EvaluationProgress& /*p*/) {}
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
    double evaluation_seconds = 0.0;  // estimates during the solve (not solve time)
    std::uint64_t table_bytes = 0;
    double checkpoint_mb_per_second = 0.0;
    // Iterations of this invocation per second of its solve time.
    double iterations_per_second() const;
  };
  struct Export {
    std::string strategy;
    int bits = 8;
    std::uint64_t bytes = 0;
    double seconds = 0.0;
  };
  Abstraction abstraction;
  Solve solve;
  Export exported;
  // The final real-game evaluation, when the config asks for one (and the run was not stopped).
  std::optional<HoldemBestResponseReport> evaluation;
  bool exact = false;
  int sampled_flops = 0;
  double evaluation_seconds = 0.0;
  std::vector<CurvePoint> curve;
  std::string curve_file;
  std::string plot_file;  // "" when no plot was drawn (gnuplot missing or none asked)
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

 private:
  void ensure_bucket_map(PipelineObserver& observer);

  PipelineConfig config_;
  GameDefinition game_;
};

}  // namespace hulhe
