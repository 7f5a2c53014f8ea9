#include "game/equity/monte_carlo_equity.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <type_traits>

#include "game/equity/card_sampler.h"
#include "game/hand_evaluator.h"
#include "util/input_error.h"

namespace hulhe::equity {
namespace {

constexpr int kMaxPlayers = 10;
constexpr int kBatchSamples = 2048;
// A deal is redrawn until the players' combinations share no card; ranges that almost
// never fit together would loop for ever, so give up after this many tries for one deal.
constexpr int kMaxRejections = 1 << 20;

// One player's range prepared for sampling: Walker's alias method (Vose 1991) draws a
// combination with probability proportional to its weight in O(1); ranges whose weights are
// all equal (e.g. "random") skip the alias step.
struct PlayerSampler {
  std::vector<std::uint64_t> mask;
  std::vector<EvalHand> hole;
  std::vector<double> accept;  // alias method: keep slot i with this probability
  std::vector<std::uint32_t> alias;
  bool uniform = true;
  bool any_two = false;  // all 1,326 combinations, equal weights ("random")

  explicit PlayerSampler(const Range& range) {
    const auto& combos = range.combos();
    const std::size_t n = combos.size();
    double total = 0;
    for (const WeightedCombo& c : combos) {
      mask.push_back(c.cards().mask());
      hole.push_back(EvalHand::of(c.cards()));
      total += c.weight;
      uniform = uniform && c.weight == combos.front().weight;
    }
    any_two = uniform && n == static_cast<std::size_t>(kMaxCards * (kMaxCards - 1) / 2);
    accept.assign(n, 1.0);
    alias.resize(n);
    std::vector<double> scaled(n);
    std::vector<std::uint32_t> small, large;
    for (std::size_t i = 0; i < n; ++i) {
      scaled[i] = combos[i].weight * static_cast<double>(n) / total;
      alias[i] = static_cast<std::uint32_t>(i);
      (scaled[i] < 1.0 ? small : large).push_back(static_cast<std::uint32_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      const std::uint32_t s = small.back(), l = large.back();
      small.pop_back();
      accept[s] = scaled[s];
      alias[s] = l;
      scaled[l] -= 1.0 - scaled[s];
      if (scaled[l] < 1.0) {
        large.pop_back();
        small.push_back(l);
      }
    }
  }
  std::uint32_t draw(Rng& rng) const {
    const auto n = static_cast<std::uint32_t>(mask.size());
    if (n == 1) return 0;
    const std::uint32_t i = rng.below(n);
    return (uniform || accept[i] >= 1.0 || rng.unit() < accept[i]) ? i : alias[i];
  }
};

// Integer counts only in the sampling loop: a player's equity share in a deal is 1 (won) or
// 1/k (tied k ways), so its mean and variance follow from the counts. The loop counts deals
// by the set of winners (one increment a deal); add_winners turns those into per-player
// win and tie counts once a batch.
struct BatchTally {
  std::int64_t samples = 0;
  std::array<std::int64_t, kMaxPlayers> win{};
  std::array<std::array<std::int64_t, kMaxPlayers + 1>, kMaxPlayers> tie{};  // by # sharing
  std::array<std::array<std::int64_t, kNumHandCategories>, kMaxPlayers> category{};
  std::array<std::int64_t, std::size_t{1} << kMaxPlayers> by_winners{};  // by winners' bits
  bool failed = false;

  void add_winners() {
    for (std::size_t m = 1; m < by_winners.size(); ++m) {
      if (by_winners[m] == 0) continue;
      const int k = std::popcount(m);
      for (int i = 0; i < kMaxPlayers; ++i) {
        if (((m >> i) & 1U) == 0) continue;
        if (k == 1)
          win[i] += by_winners[m];
        else
          tie[i][k] += by_winners[m];
      }
      by_winners[m] = 0;
    }
  }
};

}  // namespace

EquityResult monte_carlo_equity(const EquityRequest& request) {
  HandEvaluator::instance();  // one-time build, not timed
  const auto start = std::chrono::steady_clock::now();
  const int n = static_cast<int>(request.players.size());
  std::vector<PlayerSampler> samplers;
  for (const Range& r : request.players) samplers.emplace_back(r);

  const HandEvaluator& ev = HandEvaluator::instance();
  std::array<std::uint8_t, kNumHandRanks + 1> category{};
  for (int r = 1; r <= kNumHandRanks; ++r)
    category[static_cast<std::size_t>(r)] =
        static_cast<std::uint8_t>(category_of(static_cast<HandRank>(r)));
  const CardSet fixed = request.dead | CardSet::of(request.board);
  const EvalHand board_hand = EvalHand::of(CardSet::of(request.board));
  const int num_known = static_cast<int>(request.board.size());

  int ranged[kMaxPlayers], any_two[kMaxPlayers];
  int num_ranged = 0, num_any_two = 0;
  for (int i = 0; i < n; ++i) {
    if (samplers[static_cast<std::size_t>(i)].any_two)
      any_two[num_any_two++] = i;
    else
      ranged[num_ranged++] = i;
  }

  // Cards left once the ranged players hold theirs (every combination has two cards, none
  // of them fixed), the same in every deal.
  const int left_after_ranged = kMaxCards - fixed.size() - 2 * num_ranged;

  // `players` is std::integral_constant<int, N>: N players known at compile time (the
  // showdown loops unrolled), or 0 for n.
  auto run_batch = [&](auto players, std::uint64_t batch, BatchTally& out) {
    constexpr int kPlayers = decltype(players)::value;
    const int np = kPlayers > 0 ? kPlayers : n;
    Rng rng(request.seed, batch);
    CardSampler cards(rng);
    for (int sample = 0; sample < kBatchSamples; ++sample) {
      // Players with a range: combinations by weight, redrawn together until they share no
      // card.
      std::uint64_t used = 0;
      EvalHand hole[kMaxPlayers];
      for (int tries = 0;; ++tries) {
        if (tries == kMaxRejections) {
          out.failed = true;
          return;
        }
        used = fixed.mask();
        bool clash = false;
        for (int k = 0; k < num_ranged && !clash; ++k) {
          const PlayerSampler& p = samplers[static_cast<std::size_t>(ranged[k])];
          const std::uint32_t pick = p.draw(rng);
          clash = (used & p.mask[pick]) != 0;
          used |= p.mask[pick];
          hole[ranged[k]] = p.hole[pick];
        }
        if (!clash) break;
      }
      // Players holding any two cards, afterwards: two cards from the deck left. Given the
      // other players' cards that is their exact conditional law, and the number of pairs
      // left does not depend on which cards are out, so the joint law (weights' product over
      // deals that share no card) is unchanged, with no redraws.
      int left = left_after_ranged;
      for (int k = 0; k < num_any_two; ++k, left -= 2) {
        const Card a = cards.draw(used, left);
        hole[any_two[k]] = EvalHand{}.add(a).add(cards.draw(used, left - 1));
      }
      // The rest of the board, uniformly from the cards left; the board is built once and
      // merged with each player's hole cards.
      EvalHand board = board_hand;
      for (int k = num_known; k < 5; ++k) board = board.add(cards.draw(used, left--));
      // Ranks, winners and tallies without branches on the outcome: the showdown is a coin
      // flip for the branch predictor, and a mispredict would also discard the overlapped
      // rank lookups of the next deals.
      HandRank v[kMaxPlayers];
      HandRank best = 0;
      for (int i = 0; i < np; ++i) {
        v[i] = ev.rank(board.merge(hole[i]));
        best = std::max(best, v[i]);
      }
      unsigned winners = 0;
      for (int i = 0; i < np; ++i) {
        winners |= static_cast<unsigned>(v[i] == best) << i;
        ++out.category[i][category[v[i]]];
      }
      ++out.by_winners[winners];
      ++out.samples;
    }
  };

  BatchTally total;
  std::vector<double> stderrs(static_cast<std::size_t>(n), 0.0);
  auto equity_sums = [&](int i, double& sum, double& sum_sq) {
    sum = sum_sq = static_cast<double>(total.win[i]);
    for (int k = 2; k <= n; ++k) {
      sum += static_cast<double>(total.tie[i][k]) / k;
      sum_sq += static_cast<double>(total.tie[i][k]) / (k * k);
    }
  };
  auto standard_errors = [&]() {
    double worst = 0;
    const auto s = static_cast<double>(total.samples);
    for (int i = 0; i < n; ++i) {
      double sum = 0, sum_sq = 0;
      equity_sums(i, sum, sum_sq);
      const double mean = sum / s;
      const double var = std::max(0.0, (sum_sq - s * mean * mean) / (s - 1));
      stderrs[static_cast<std::size_t>(i)] = std::sqrt(var / s);
      worst = std::max(worst, stderrs[static_cast<std::size_t>(i)]);
    }
    return worst;
  };

  const int threads = request.threads > 0 ? request.threads : omp_get_max_threads();
  std::vector<BatchTally> round(static_cast<std::size_t>(threads));
  std::uint64_t next_batch = 0;
  bool done = false;
  double worst = 0;
  while (!done) {
    for (auto& b : round) b = BatchTally{};
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (int k = 0; k < threads; ++k) {
      const std::uint64_t batch = next_batch + static_cast<std::uint64_t>(k);
      BatchTally& tally = round[static_cast<std::size_t>(k)];
      if (n == 2)
        run_batch(std::integral_constant<int, 2>{}, batch, tally);
      else
        run_batch(std::integral_constant<int, 0>{}, batch, tally);
      round[static_cast<std::size_t>(k)].add_winners();
    }
    next_batch += static_cast<std::uint64_t>(threads);
    for (const BatchTally& b : round) {
      if (b.failed)
        throw InputError(
            "the players' ranges almost never fit together (they share cards); "
            "narrow them or use --exact");
      total.samples += b.samples;
      for (int i = 0; i < n; ++i) {
        total.win[i] += b.win[i];
        for (int k = 2; k <= n; ++k) total.tie[i][k] += b.tie[i][k];
        for (int k = 0; k < kNumHandCategories; ++k) total.category[i][k] += b.category[i][k];
      }
      worst = standard_errors();
      if (request.target_stderr > 0 && worst <= request.target_stderr) {
        done = true;
        break;
      }
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (request.max_seconds > 0 && elapsed >= request.max_seconds) done = true;
  }

  EquityResult result;
  result.method = EquityMethod::kMonteCarlo;
  result.combinations = static_cast<std::uint64_t>(total.samples);
  result.total_weight = static_cast<double>(total.samples);
  result.stderr_max = worst;
  result.stderrs = stderrs;
  const auto s = static_cast<double>(total.samples);
  for (int i = 0; i < n; ++i) {
    PlayerEquity p;
    double sum = 0, sum_sq = 0;
    equity_sums(i, sum, sum_sq);
    std::int64_t ties = 0;
    for (int k = 2; k <= n; ++k) ties += total.tie[i][k];
    p.equity = sum / s;
    p.win = static_cast<double>(total.win[i]) / s;
    p.tie = static_cast<double>(ties) / s;
    for (int k = 0; k < kNumHandCategories; ++k)
      p.categories[k] = static_cast<double>(total.category[i][k]) / s;
    result.players.push_back(p);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace hulhe::equity
