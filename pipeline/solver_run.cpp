#include "pipeline/solver_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "abstraction/abstraction_factory.h"
#include "abstraction/clustered_abstraction.h"
#include "public_tree/private_hands.h"
#include "public_tree/public_tree_traversal.h"
#include "solver/average_policy.h"
#include "solver/cfr_algorithm_factory.h"
#include "solver/cfr_br.h"
#include "solver/checkpoint.h"
#include "solver/hybrid_cfr_br.h"
#include "util/checksums.h"
#include "util/input_error.h"
#include "util/printable_text.h"
#include "util/split_mix64.h"

namespace hulhe {
namespace {

std::atomic<int> g_stop_signal{0};
extern "C" void on_stop_signal(int sig) {
  g_stop_signal.store(sig);
}

// Installs the handlers for the run's lifetime and restores the previous ones after.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal.store(0);
    old_int_ = std::signal(SIGINT, on_stop_signal);
    old_term_ = std::signal(SIGTERM, on_stop_signal);
  }
  ~StopSignals() {
    std::signal(SIGINT, old_int_);
    std::signal(SIGTERM, old_term_);
  }
  bool stopped() const { return g_stop_signal.load() != 0; }

 private:
  void (*old_int_)(int) = SIG_DFL;
  void (*old_term_)(int) = SIG_DFL;
};

bool small_enough_for_exact_br(const GameDefinition& game) {
  if (game.num_hole_cards > 2 || game.num_board_cards[0] != 0) return false;
  const auto boards = count_public_boards(game);
  const std::int64_t hands = binomial(game.deck_size(), game.num_hole_cards);
  std::int64_t total = 0;
  for (int r = 0; r < game.num_rounds; ++r) total += boards[r] * hands;
  return total <= PublicTreeTraversal::kDefaultMaxBoardHands;
}

// The game of `config`, named by its file's stem.
GameDefinition game_of(const SolveConfig& config) {
  GameDefinition game = GameDefinition::from_file(config.game_path);
  game.name = std::filesystem::path(config.game_path).stem().string();
  return game;
}

}  // namespace

SolverRun::SolverRun(const SolveConfig& config, bool resume)
    : SolverRun(config, resume, game_of(config)) {}

SolverRun::SolverRun(const SolveConfig& config, bool resume, GameDefinition game)
    : config_(config), params_(config.params) {
  tree_ = std::make_unique<BettingTree>(game);
  // Before a bucket map is loaded or tables allocated: a game CFR-BR cannot walk.
  if (config.params.algorithm == "cfr-br" && !cfr_br_unavailable_reason(game).empty())
    if (const std::string why = hybrid_cfr_br_unavailable_reason(game); !why.empty())
      throw InputError(why);
  abstraction_ = make_abstraction(config.abstraction, game, config.bucket_map);
  if (const auto* clustered = dynamic_cast<const ClusteredAbstraction*>(abstraction_.get());
      clustered != nullptr && config.abstraction_source_hash != 0 &&
      clustered->map().source_hash != config.abstraction_source_hash)
    throw InputError("bucket map " + config.bucket_map +
                     " was built from another abstraction description (" +
                     hex64(clustered->map().source_hash) + ") than the one in " + config.path +
                     " (" + hex64(config.abstraction_source_hash) +
                     "); rebuild it with `hulhe abstract --config " + config.path + "`");
  exact_br_ = small_enough_for_exact_br(game);
  TablePrecision precision = default_table_precision(config.params.algorithm);
  const bool explicit_precision = config.table_precision != "auto";
  if (explicit_precision && !parse_table_precision(config.table_precision, precision))
    throw InputError(config.path + ": unknown table_precision '" + config.table_precision + "'");
  memory_bytes_ = StrategyTables::memory_needed(*tree_, *abstraction_, precision);
  const std::uint64_t available = available_memory_bytes();
  if (available > 0 && memory_bytes_ > available)
    throw InputError(
        fmt::format("the tables need {:.2f} GiB but only {:.2f} GiB of memory is available; use a "
                    "smaller abstraction or a bigger machine",
                    memory_bytes_ / 1073741824.0, available / 1073741824.0));
  std::vector<float> resumed_state;
  if (resume) {
    if (config.checkpoint.empty())
      throw InputError(
          "--resume needs a checkpoint path (--checkpoint or 'checkpoint' in the config)");
    if (!std::filesystem::exists(config.checkpoint))
      throw InputError("cannot resume: checkpoint " + config.checkpoint + " does not exist");
    Checkpoint c = read_checkpoint(config.checkpoint);
    check_checkpoint_matches(c, config.checkpoint, game, *abstraction_);
    // Continuing one algorithm's tables with another would silently mix two methods.
    if (c.params.algorithm != config.params.algorithm)
      throw InputError("cannot resume: checkpoint " + config.checkpoint + " was made by '" +
                       c.params.algorithm + "', not '" + config.params.algorithm + "'");
    // The tables continue in the precision they were made in; converting would make the
    // resumed run differ from an uninterrupted one.
    if (explicit_precision && c.tables.precision() != precision)
      throw InputError("cannot resume: checkpoint " + config.checkpoint + " holds " +
                       to_string(c.tables.precision()) + " tables, the config asks for " +
                       config.table_precision);
    params_ = c.params;
    done_ = c.iterations;
    tables_ = std::move(c.tables);  // shapes checked by check_checkpoint_matches
    memory_bytes_ = tables_.memory_bytes();
    resumed_state = std::move(c.algorithm_state);
  } else {
    tables_ = StrategyTables(*tree_, *abstraction_, precision,
                             default_table_layout(config.params.algorithm));
  }
  algorithm_ = make_cfr_algorithm(params_, *tree_, *abstraction_, tables_);
  if (std::vector<float>* state = algorithm_->extra_state(); state != nullptr && resume) {
    if (resumed_state.size() != state->size())
      throw InputError("cannot resume: checkpoint " + config.checkpoint + " holds " +
                       std::to_string(resumed_state.size()) + " values of '" + params_.algorithm +
                       "' state, this game and abstraction need " + std::to_string(state->size()));
    *state = std::move(resumed_state);
  }
}

SolverRun::~SolverRun() = default;

Progress SolverRun::report_at(double elapsed, std::int64_t start_done, bool wrote,
                              std::int64_t count, double took) {
  Progress p;
  p.stage = "solve";
  p.done = done_;
  p.total = config_.iterations;
  p.computed = done_ - start_done;
  p.elapsed_seconds = elapsed;
  p.per_second = static_cast<double>(done_ - start_done) / std::max(elapsed, 1e-9);
  p.eta_seconds = static_cast<double>(config_.iterations - done_) / std::max(p.per_second, 1e-9);
  if (config_.seconds > 0) p.eta_seconds = std::min(p.eta_seconds, config_.seconds - elapsed);
  p.eta_seconds = std::max(p.eta_seconds, 0.0);
  if (auto r = exploitability()) p.estimate = r->exploitability_chips;
  p.last = done_ >= config_.iterations;
  last_chunk_ = {count, took, wrote};
  return p;
}

std::optional<ExploitabilityReport> SolverRun::exploitability() const {
  if (!exact_br_) return std::nullopt;
  AveragePolicy policy(*tree_, *abstraction_, tables_);
  return compute_exploitability(policy, 1);
}

void SolverRun::save() {
  if (config_.checkpoint.empty()) return;
  Checkpoint c;
  c.game_text = game().to_acpc_string();
  c.game_name = game().name;
  c.game_hash = game().hash();
  c.abstraction_kind = config_.abstraction;
  c.bucket_map = config_.bucket_map;
  c.abstraction_hash = abstraction_->hash();
  c.iterations = done_;
  c.params = params_;
  // Lend the tables to the checkpoint instead of copying hundreds of MB; the algorithm keeps
  // referring to tables_, whose buffers come back before it runs again.
  const double start = seconds_now();
  c.tables = std::move(tables_);
  std::vector<float>* state = algorithm_->extra_state();
  if (state != nullptr) c.algorithm_state = std::move(*state);
  auto give_back = [&] {
    tables_ = std::move(c.tables);
    if (state != nullptr) *state = std::move(c.algorithm_state);
  };
  try {
    write_checkpoint(config_.checkpoint, c);
  } catch (...) {
    give_back();
    throw;
  }
  give_back();
  last_checkpoint_seconds_ = seconds_now() - start;
  last_checkpoint_mb_s_ = static_cast<double>(std::filesystem::file_size(config_.checkpoint)) /
                          1e6 / std::max(last_checkpoint_seconds_, 1e-9);
}

bool SolverRun::stop_requested() {
  return g_stop_signal.load() != 0;
}

double SolverRun::seconds_now() const {
  if (clock_) return clock_();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void SolverRun::run_over(std::shared_ptr<SolveRanks> ranks) {
  if (!ranks || ranks->size() <= 1) return;
  if (params_.algorithm != "external" && params_.algorithm != "pcs")
    throw InputError("a solve over MPI ranks runs external or pcs, not '" + params_.algorithm +
                     "' (docs/distributed.md)");
  // Every rank must start from the same tables and run the same solve.
  std::uint64_t key = game().hash() ^ abstraction_->hash();
  const std::int64_t facts[4] = {done_, config_.iterations, tables_.size(),
                                 static_cast<std::int64_t>(params_.seed)};
  key = checksum64(facts, sizeof facts, key);
  key = checksum64(params_.algorithm.data(), params_.algorithm.size(), key);
  ranks->check_same(key, "the game, abstraction, algorithm, seed or iterations done");
  // Rank r's own random streams: every sample of iteration t derives from (seed, t)
  // (cfr_algorithm.h), so ranks differ by their seed; rank 0 keeps the config's. Linear
  // discounting is applied at the syncs to the sum of every rank's iterations
  // (solver_run_ranks.cpp), so the ranks' own algorithms do not discount.
  CfrParameters rank_params = params_;
  if (ranks->rank() > 0) {
    SplitMix64 mix(params_.seed ^
                   (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(ranks->rank())));
    rank_params.seed = mix();
  }
  rank_params.discount_interval = 0;
  // Each rank's changes stand for the whole job's between syncs, which average the ranks'
  // tables (distributed/distributed_solve.h): no rank keeps a second copy of the tables.
  rank_params.regret_weight = static_cast<double>(ranks->size());
  algorithm_ = make_cfr_algorithm(rank_params, *tree_, *abstraction_, tables_);
  ranks->start(tables_);
  ranks_ = std::move(ranks);
}

SolveSummary SolverRun::run(const ProgressCallback& on_progress) {
  StopSignals signals;
  if (ranks_) return run_ranks(on_progress);
  SolveSummary summary;
  summary.first_iteration = done_ + 1;
  auto now = [this] { return seconds_now(); };
  const double start = now();
  excluded_seconds_ = 0.0;
  auto wall_since = [&](double t) { return now() - t; };
  // Solve time: this invocation's wall time less what the progress callback excluded (its
  // estimates). Budgets, rates and the checkpoint interval are in solve time.
  auto solve_seconds = [&] { return wall_since(start) - excluded_seconds_; };
  const std::int64_t start_done = done_;
  double last_progress = 0.0, last_checkpoint = 0.0;
  std::int64_t chunk = 1;
  while (done_ < config_.iterations) {
    if (config_.seconds > 0 && solve_seconds() >= config_.seconds) break;
    if (signals.stopped()) break;
    std::int64_t count = std::min(chunk, config_.iterations - done_);
    if (config_.checkpoint_every_iterations > 0) {
      const std::int64_t every = config_.checkpoint_every_iterations;
      count = std::min(count, (done_ / every + 1) * every - done_);
    }
    const double chunk_start = now();
    algorithm_->run(done_ + 1, count, config_.threads);
    done_ += count;
    // Chunks of ~0.1 s keep signals, budgets, checkpoints and progress responsive at any
    // speed. A chunk is measured by its own wall time alone: time excluded for estimates
    // happens between chunks and must not make a chunk look short (it once made them grow
    // without bound after the first estimate).
    const double took = wall_since(chunk_start);
    if (took < 0.05 && chunk < (std::int64_t{1} << 40)) chunk *= 2;
    if (took > 0.2 && chunk > 1) chunk /= 2;

    const double elapsed = solve_seconds();
    bool wrote = false;
    const bool at_every =
        config_.checkpoint_every_iterations > 0 && done_ % config_.checkpoint_every_iterations == 0;
    const bool by_time = config_.checkpoint_every_seconds > 0 &&
                         elapsed - last_checkpoint >= config_.checkpoint_every_seconds;
    // A checkpoint is durable (fsync of the file and its folder), milliseconds even for tiny
    // tables: one that is due waits until the solve time since the last one is long enough
    // for the write to stay under kMaxCheckpointShare of the run, whatever the interval.
    const bool affordable =
        last_checkpoint_seconds_ <= kMaxCheckpointShare * (elapsed - last_checkpoint);
    if ((by_time || at_every) && affordable && done_ < config_.iterations) {
      save();
      last_checkpoint = solve_seconds();
      wrote = !config_.checkpoint.empty();
      if (wrote) {
        ++summary.periodic_checkpoints;
        summary.periodic_checkpoint_seconds += last_checkpoint_seconds_;
      }
    }
    if (on_progress && (elapsed - last_progress >= config_.progress_every_seconds || wrote)) {
      last_progress = elapsed;
      on_progress(report_at(elapsed, start_done, wrote, count, took));
    }
  }
  summary.interrupted = signals.stopped();
  save();
  summary.checkpoint = config_.checkpoint;
  summary.iterations = done_;
  summary.seconds = solve_seconds();
  summary.report = exploitability();
  return summary;
}

}  // namespace hulhe
