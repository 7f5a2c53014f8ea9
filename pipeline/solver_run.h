#pragma once
// The solve driver: builds the game, abstraction and tables from a SolveConfig (or resumes
// them from a checkpoint), runs the algorithm in chunks until the iteration total or the
// time budget is reached, reports progress (iterations, rate, ETA, exploitability where an
// exact best response is cheap), writes checkpoints every S seconds or N iterations (while
// writes stay under kMaxCheckpointShare of the solve time) and at the end, and on
// SIGINT/SIGTERM finishes the current chunk, checkpoints and returns.
//
// Work runs in chunks of ~0.1 s of solving, each measured by its own wall time, so budgets,
// signals, checkpoints and progress are looked at several times a second however long the
// run and however much time its progress callback spends (e.g. on estimates, which it
// excludes from the solve time with exclude_time and can cut short with stop_requested).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "abstraction/card_abstraction.h"
#include "best_response/exploitability.h"
#include "game/betting_tree.h"
#include "pipeline/solve_config.h"
#include "pipeline/solve_ranks.h"
#include "public_tree/strategy_tables.h"
#include "solver/cfr_algorithm.h"
#include "util/process_facts.h"
#include "util/progress.h"

namespace hulhe {

// The solver reports its progress (util/progress.h) after a chunk at most every
// progress_every_seconds and after each periodic checkpoint: stage "solve", done = the
// iterations so far (a resumed checkpoint's included), total = the iteration target, computed
// = this invocation's, elapsed time and rate in solve time, the ETA to the target or to the time
// budget if sooner, and estimate = the exact exploitability in chips where that is cheap.
// The chunk behind the report: SolverRun::last_chunk().
struct SolveChunk {
  std::int64_t iterations = 0;
  double seconds = 0.0;             // its wall time
  bool checkpoint_written = false;  // a periodic checkpoint followed it
};

// Most of a run's solve time that durable checkpoints written by iteration count may take.
inline constexpr double kMaxCheckpointShare = 0.02;

struct SolveSummary {
  std::int64_t first_iteration = 1;            // 1 + iterations already in a resumed checkpoint
  std::int64_t iterations = 0;                 // total after the run
  double seconds = 0.0;                        // solve time (excluded time not counted)
  bool interrupted = false;                    // SIGINT/SIGTERM
  std::string checkpoint;                      // written at the end ("" if none configured)
  int periodic_checkpoints = 0;                // written during the run (not the final one)
  double periodic_checkpoint_seconds = 0.0;    // and the time they took
  std::optional<ExploitabilityReport> report;  // when cheap enough to compute
};

class SolverRun {
 public:
  // Throws InputError for a bad game, abstraction, algorithm or checkpoint. With `resume`,
  // the checkpoint must exist and match the game and abstraction; its algorithm and
  // parameters are used.
  SolverRun(const SolveConfig& config, bool resume);
  // The same with config.game_path already read (named by its stem, as the above names it):
  // `hulhe run` reads the game once for every stage.
  SolverRun(const SolveConfig& config, bool resume, GameDefinition game);
  ~SolverRun();

  const GameDefinition& game() const { return tree_->game(); }
  const BettingTree& tree() const { return *tree_; }
  const CardAbstraction& abstraction() const { return *abstraction_; }
  const StrategyTables& tables() const { return tables_; }
  const SolveConfig& config() const { return config_; }
  const CfrParameters& params() const { return params_; }
  std::int64_t iterations_done() const { return done_; }
  // Bytes of the regret and average tables (computed before they are allocated).
  std::size_t memory_bytes() const { return memory_bytes_; }
  // Seconds and MB/s of the last checkpoint write.
  double last_checkpoint_seconds() const { return last_checkpoint_seconds_; }
  double last_checkpoint_mb_per_second() const { return last_checkpoint_mb_s_; }

  // Runs the solve over the ranks of `ranks` (solve_ranks.h; external and pcs only, else an
  // InputError): this rank's iterations use its own random streams, its seed derived from
  // the config's and the rank (rank 0 keeps the config's), and run() syncs the tables every
  // sync_every_seconds; rank 0 alone writes checkpoints (the single-process format) and
  // reports progress. Call before run(); with one rank nothing changes.
  void run_over(std::shared_ptr<SolveRanks> ranks);
  int rank() const { return ranks_ ? ranks_->rank() : 0; }
  int ranks() const { return ranks_ ? ranks_->size() : 1; }
  // Seconds and bytes of the last table sync (runs over ranks).
  SyncCost last_sync() const { return ranks_ ? ranks_->last_sync() : SyncCost{}; }

  SolveSummary run(const ProgressCallback& on_progress);
  // The last chunk of iterations: what the progress report just received came after.
  const SolveChunk& last_chunk() const { return last_chunk_; }
  // Called from the progress callback: `seconds` it spent (e.g. evaluating the strategy) do
  // not count as solve time, neither for the budget nor for the reported rates.
  void exclude_time(double seconds) { excluded_seconds_ += seconds; }
  // True once SIGINT or SIGTERM arrived during run(): long work in the progress callback
  // polls it to end early (run() then checkpoints and returns).
  static bool stop_requested();
  // The clock run() and its checkpoint writes read, in seconds (default:
  // std::chrono::steady_clock). Tests advance a clock of their own to simulate hours of
  // history in seconds, and chunks and writes of known length.
  void use_clock(std::function<double()> seconds_now) { clock_ = std::move(seconds_now); }

  // Exact exploitability of the current average strategy, if the game is small enough.
  std::optional<ExploitabilityReport> exploitability() const;

 private:
  void save();
  // run() over several ranks (solver_run_ranks.cpp).
  SolveSummary run_ranks(const ProgressCallback& on_progress);
  double seconds_now() const;
  // The progress report after a chunk of `count` iterations that took `took` seconds, at
  // `elapsed` seconds of a run that started at iteration `start_done` (one and several ranks);
  // records the chunk (last_chunk()).
  Progress report_at(double elapsed, std::int64_t start_done, bool wrote, std::int64_t count,
                     double took);

  SolveConfig config_;
  CfrParameters params_;
  std::unique_ptr<BettingTree> tree_;
  std::unique_ptr<CardAbstraction> abstraction_;
  StrategyTables tables_;
  std::unique_ptr<CfrAlgorithm> algorithm_;
  std::int64_t done_ = 0;
  SolveChunk last_chunk_;
  bool exact_br_ = true;
  std::size_t memory_bytes_ = 0;
  double excluded_seconds_ = 0.0;
  std::function<double()> clock_;
  double last_checkpoint_seconds_ = 0.0;
  double last_checkpoint_mb_s_ = 0.0;
  std::shared_ptr<SolveRanks> ranks_;
};

}  // namespace hulhe
