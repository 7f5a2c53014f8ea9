#include "solver/public_chance_sampling_cfr.h"

#include <omp.h>

#include <algorithm>

#include "public_tree/sampled_deal.h"
#include "solver/linear_discounting.h"

namespace hulhe {
namespace {

BoardMode board_mode_for(const GameDefinition& game) {
  const auto boards = count_public_boards(game);
  const std::int64_t hands = binomial(game.deck_size(), game.num_hole_cards);
  std::int64_t total = 0;
  for (int r = 0; r < game.num_rounds; ++r) total += boards[r] * hands;
  return total <= PublicTreeTraversal::kDefaultMaxBoardHands ? BoardMode::kEnumerate
                                                             : BoardMode::kSampleDeck;
}

}  // namespace

PublicChanceSamplingCfr::PublicChanceSamplingCfr(const CfrParameters& params,
                                                 const BettingTree& tree,
                                                 const CardAbstraction& abstraction,
                                                 StrategyTables& tables)
    : VectorFormCfr(params, tree, abstraction, tables, board_mode_for(tree.game())) {}

void PublicChanceSamplingCfr::run(std::int64_t first, std::int64_t count, int threads) {
  threads = std::max(1, threads);
  if (walker_.board_mode() == BoardMode::kSampleDeck)
    run_with_linear_discounting(
        params_, tables_, first, count, threads,
        [&](std::int64_t from, std::int64_t n) { run_dealt(from, n, threads); });
  else
    run_enumerated(first, count, threads);
}

void PublicChanceSamplingCfr::run_dealt(std::int64_t first, std::int64_t count, int threads) {
  walker_.reserve_workers(threads);
  auto iteration = [&](std::int64_t t, int worker, bool shared) {
    SplitMix64 rng = SplitMix64::for_iteration(params_.seed, t);
    walker_.sample_board(worker, rng);
    for (int player = 0; player < 2; ++player) {
      CfrPass pass;
      pass.traverser = player;
      pass.strategy = nullptr;  // regret matching on the fly
      pass.set_tables(tables_);
      pass.average_weight = t > params_.average_delay ? 1.0 : 0.0;
      pass.sampled = true;
      pass.regret_weight = params_.regret_weight;
      pass.shared_tables = shared;
      walker_.cfr_pass_on(worker, pass);
    }
  };
  if (threads == 1 || count < 2) {
    for (std::int64_t t = first; t < first + count; ++t) iteration(t, 0, false);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (std::int64_t i = 0; i < count; ++i) iteration(first + i, omp_get_thread_num(), true);
}

void PublicChanceSamplingCfr::run_enumerated(std::int64_t first, std::int64_t count, int threads) {
  const std::int64_t end = first + count;
  if (threads == 1) {
    for (std::int64_t t = first; t < end; ++t) {
      SplitMix64 rng = SplitMix64::for_iteration(params_.seed, t);
      walker_.sample_board(0, rng);
      snapshot_strategy();
      for (int player = 0; player < 2; ++player) {
        CfrPass pass;
        pass.traverser = player;
        pass.strategy = sigma_.data();
        pass.set_tables(tables_);
        pass.sampled = true;
        pass.regret_weight = params_.regret_weight;
        walker_.cfr_pass_on(0, pass);
      }
    }
    return;
  }
  walker_.reserve_workers(threads);
  const std::size_t size = static_cast<std::size_t>(tables_.size());
  regret_buffers_.resize(threads);
  average_buffers_.resize(threads);
  for (std::int64_t batch = first; batch < end; batch += threads) {
    const int workers = static_cast<int>(std::min<std::int64_t>(threads, end - batch));
    snapshot_strategy();
    // Small games: the same batch on one thread (no fork/join per iteration).
    const int team = walker_.parallel_worthwhile() ? workers : 1;
#pragma omp parallel for num_threads(team) schedule(static, 1)
    for (int w = 0; w < workers; ++w) {
      regret_buffers_[w].assign(size, 0.0);
      average_buffers_[w].assign(size, 0.0);
      SplitMix64 rng = SplitMix64::for_iteration(params_.seed, batch + w);
      walker_.sample_board(w, rng);
      for (int player = 0; player < 2; ++player) {
        CfrPass pass;
        pass.traverser = player;
        pass.strategy = sigma_.data();
        pass.set_arrays(nullptr, nullptr, regret_buffers_[w].data(), average_buffers_[w].data());
        pass.sampled = true;
        pass.regret_weight = params_.regret_weight;
        walker_.cfr_pass_on(w, pass);
      }
    }
    // Each iteration's increments are rounded to the tables' precision once, as a 1-thread
    // run rounds each addition.
    tables_.visit([&]<typename T>(TableArrays<T> t) {
      for (int w = 0; w < workers; ++w)
        for (std::size_t i = 0; i < size; ++i) {
          t.regrets[i] += static_cast<T>(regret_buffers_[w][i]);
          t.average_sums[i] += static_cast<T>(average_buffers_[w][i]);
        }
    });
  }
}

}  // namespace hulhe
