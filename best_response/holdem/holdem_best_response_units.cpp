// The work units of the real-game hold'em best response (holdem_best_response.h): which flops
// a run evaluates (every class, or a systematic sample), the parallel loop that computes them
// on OpenMP threads and appends each to the resume file (resume_log.h), and the same loop over
// several processes (unit_distribution.h); progress to the options' callback.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <string>

#include "best_response/holdem/holdem_best_response_walk.h"
#include "util/combinatorics.h"
#include "util/input_error.h"
#include "util/progress_pace.h"
#include "util/split_mix64.h"

namespace hulhe {
namespace {

// Progress after the f-th of `todo` units this run (`resumed` read back, `total` in all),
// `elapsed` seconds in, on `threads` threads (all ranks' threads for a run over ranks).
Progress unit_progress(std::int64_t f, std::int64_t todo, std::int64_t resumed, std::int64_t total,
                       double elapsed, int threads) {
  const Pace p = pace(f, todo - f, elapsed);
  Progress e;
  e.done = resumed + f;
  e.total = total;
  e.computed = f;
  e.elapsed_seconds = p.elapsed_seconds;
  e.per_second = p.per_second;
  e.eta_seconds = p.eta_seconds;
  e.seconds_per_unit_per_thread = p.elapsed_seconds * threads / static_cast<double>(f);
  e.last = f == todo;
  return e;
}

}  // namespace

HoldemBestResponse::Impl::ResolveProgress::ResolveProgress(const HoldemBestResponseOptions& opt,
                                                           std::int64_t total)
    : opt_(opt), total_(total), timer_(opt.progress_every_seconds) {}

void HoldemBestResponse::Impl::ResolveProgress::add(std::int64_t count, bool computed) {
  const std::lock_guard<std::mutex> lock(mutex_);
  done_ += count;
  if (computed) computed_ += count;
  if (!opt_.on_progress || !(done_ >= total_ || timer_.due())) return;
  Progress p = progress_at("re-solves", done_, total_, computed_, timer_.elapsed_seconds());
  if (computed_ > 0)
    p.seconds_per_unit_per_thread =
        p.elapsed_seconds * std::max(1, opt_.threads) / static_cast<double>(computed_);
  opt_.on_progress(p);
}

// The units of this run and how often each was drawn: every flop class once, or a sample.
SystematicSample HoldemBestResponse::Impl::draw_units(bool exact) const {
  if (exact) {
    SystematicSample all;
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(flops.flops.size()); ++c) {
      all.units.push_back(c);
      all.draws.push_back(1);
    }
    return all;
  }
  // Systematic PPS sample along a texture order (systematic_sample.h): similar flops are
  // spread evenly over the draws, and class c is hit K·w_c/W times in expectation, as with
  // independent draws in proportion to weight, so the estimator below is unchanged.
  SplitMix64 rng(opt.seed);
  std::vector<std::int64_t> weight;
  for (const CanonicalFlop& f : flops.flops) weight.push_back(f.weight);
  return draw_systematic_sample(flops_by_texture(flops), weight, opt.sample_flops, rng.uniform());
}

std::vector<std::uint8_t> HoldemBestResponse::Impl::unit_scope(std::int64_t U) const {
  std::vector<std::uint8_t> scope(static_cast<std::size_t>(U), opt.only_units.empty() ? 1 : 0);
  for (std::int32_t u : opt.only_units) {
    if (u < 0 || u >= U)
      throw InputError("best response: unit " + std::to_string(u) + " is not one of the " +
                       std::to_string(U) + " units of this run");
    scope[u] = 1;
  }
  return scope;
}

HoldemBestResponse::Impl::PendingUnits HoldemBestResponse::Impl::pending_units(
    const std::vector<std::uint8_t>& done) const {
  const auto U = static_cast<std::int64_t>(done.size());
  const std::vector<std::uint8_t> scope = unit_scope(U);
  PendingUnits p;
  for (std::int64_t u = 0; u < U; ++u) {
    if (!scope[u]) continue;
    ++p.in_scope;
    if (done[u])
      ++p.resumed;
    else
      p.units.push_back(u);
  }
  if (opt.max_units >= 0 && static_cast<std::int64_t>(p.units.size()) > opt.max_units)
    p.units.resize(static_cast<std::size_t>(opt.max_units));
  return p;
}

// The parallel unit loop: the units not done yet (at most opt.max_units of them, until
// opt.should_stop), each appended to the resume log as it finishes; progress to the callback.
// Returns how many it computed.
std::int64_t HoldemBestResponse::Impl::compute_units(const Workspace& pre,
                                                     const std::vector<std::int32_t>& units,
                                                     std::vector<std::vector<double>>& result,
                                                     std::vector<std::uint8_t>& done,
                                                     ResumeLog* log,
                                                     std::int64_t& deals_resumed) const {
  const std::size_t payload = 2 * block(1);
  const PendingUnits p = pending_units(done);
  const std::vector<std::int64_t>& pending = p.units;
  const std::int64_t resumed = p.resumed, U = p.in_scope;
  const auto todo = static_cast<std::int64_t>(pending.size());
  std::atomic<std::int64_t> finished{0};
  ProgressTimer timer(opt.progress_every_seconds);
  bool write_failed = false;
  // Re-solved subgames: the units one at a time, each deal's re-solves on the threads
  // (process()), their progress counted, the deals journaled.
  std::optional<ResolveProgress> resolves;
  std::optional<DealJournal> journal_file;
  if (opt.subgames != nullptr) {
    std::int64_t total = 0;
    for (std::int64_t j = 0; j < todo; ++j)
      total += resolves_below(flops.flops[units[pending[j]]].mask, 1);
    resolves.emplace(opt, total);
    if (!opt.deal_journal.empty() && rounds > 2 && todo > 0)
      journal_file.emplace(
          opt.deal_journal, run_key, static_cast<std::int32_t>(flops.flops.size()),
          binomial(static_cast<int>(deck.size()) - game.total_board_cards(1), fresh[2]),
          2 * block(2));
  }
  DealJournal* const journal = journal_file ? &*journal_file : nullptr;

#pragma omp parallel num_threads(resolves ? 1 : std::max(1, opt.threads))
  {
    Workspace ws;
    init(ws);
    if (resolves) ws.resolves = &*resolves;
    ws.journal = journal;
    std::vector<double> out(payload);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t j = 0; j < todo; ++j) {
      if (opt.should_stop && opt.should_stop()) continue;  // the rest stay undone
      const std::int64_t u = pending[j];
      unit(ws, pre, units[u], out.data());
#pragma omp critical(holdem_br_unit_done)
      {
        result[u] = out;
        done[u] = 1;
        if (log != nullptr && !log->append(u, out.data())) write_failed = true;
        // In the resume file now (or the run keeps it): its deals are no longer needed.
        if (journal != nullptr && !write_failed) journal->unit_recorded();
        const std::int64_t f = ++finished;
        if (opt.on_progress && (f == todo || timer.due())) {
          opt.on_progress(unit_progress(f, todo, resumed, U, timer.elapsed_seconds(),
                                        std::max(1, opt.threads)));
        }
      }
    }
  }
  if (write_failed) throw InputError("cannot append to resume file " + log->path());
  deals_resumed = journal != nullptr ? journal->restored() : 0;
  return finished.load();
}

// The unit loop over several processes (opt.distribution, unit_distribution.h): the
// coordinator's pending units (at most opt.max_units, until opt.should_stop) are computed
// wherever the distribution sends them; the coordinator records each as compute_units does
// (result, done, resume log, progress). Returns the units computed now: by every process
// (coordinator) or by this one (the others).
std::int64_t HoldemBestResponse::Impl::distribute_units(const Workspace& pre,
                                                        const std::vector<std::int32_t>& units,
                                                        std::vector<std::vector<double>>& result,
                                                        std::vector<std::uint8_t>& done,
                                                        ResumeLog* log) const {
  UnitDistribution& dist = *opt.distribution;
  const std::size_t payload = 2 * block(1);
  const int threads = std::max(1, opt.threads);
  const int all_threads = dist.total_threads(threads);
  PendingUnits p;
  if (dist.coordinator()) p = pending_units(done);
  const std::vector<std::int64_t>& pending = p.units;
  const std::int64_t resumed = p.resumed, U = p.in_scope;
  const auto todo = static_cast<std::int64_t>(pending.size());
  // One workspace per compute thread, made on its first unit.
  std::vector<Workspace> ws(static_cast<std::size_t>(threads));
  std::vector<std::once_flag> made(static_cast<std::size_t>(threads));
  std::int64_t finished = 0;
  ProgressTimer timer(opt.progress_every_seconds);
  bool write_failed = false;
  auto compute = [&](std::int64_t u, double* out, int thread) {
    std::call_once(made[thread], [&] { init(ws[thread]); });
    unit(ws[thread], pre, units[u], out);
  };
  auto deliver = [&](std::int64_t u, const double* values) {
    result[u].assign(values, values + payload);
    done[u] = 1;
    if (log != nullptr && !log->append(u, values)) write_failed = true;
    const std::int64_t f = ++finished;
    if (opt.on_progress && (f == todo || timer.due())) {
      opt.on_progress(unit_progress(f, todo, resumed, U, timer.elapsed_seconds(), all_threads));
    }
  };
  const std::int64_t here = dist.run(payload, pending, threads, compute, deliver, opt.should_stop);
  if (write_failed) throw InputError("cannot append to resume file " + log->path());
  // The coordinator reports the units computed now by all processes, as one process would.
  return dist.coordinator() ? finished : here;
}

}  // namespace hulhe
