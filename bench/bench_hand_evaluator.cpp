// Hand evaluator speed, one thread. items_per_second = hands ranked per second. The three
// jobs of issue 12, with the hand sets the public benchmarks use:
//   EnumerateAllSevenCards  all 133,784,560 7-card hands in colex order (the highest card in
//                           the outer loop, each inner card lower), built card by card: one
//                           EvalHand::add per card, one rank() per hand
//   RandomEvalHands         10M random 7-card hands prepared in advance as EvalHand
//                           (lookup cost, plus streaming 160 MB of hands from memory)
//   RandomSevenCards        the same 10M hands from their raw card ids (7 bytes per hand):
//                           seven EvalHand::add, then rank()
// and two slower entry points for reference:
//   RandomCardArrays        the same hands through rank(const Card*, 7)
//   RandomCardSets          the same hands as CardSet through evaluate(CardSet)
// Quote medians: --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

#include "game/hand_evaluator.h"
#include "util/split_mix64.h"

namespace {

using hulhe::Card;
using hulhe::EvalHand;
using hulhe::HandEvaluator;

void EnumerateAllSevenCards(benchmark::State& state) {
  const HandEvaluator& ev = HandEvaluator::instance();
  std::uint64_t total = 0;
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (Card g = 6; g < 52; ++g) {
      const EvalHand hg = EvalHand{}.add(g);
      for (Card f = 5; f < g; ++f) {
        const EvalHand hf = hg.add(f);
        for (Card e = 4; e < f; ++e) {
          const EvalHand he = hf.add(e);
          for (Card d = 3; d < e; ++d) {
            const EvalHand hd = he.add(d);
            for (Card c = 2; c < d; ++c) {
              const EvalHand hc = hd.add(c);
              for (Card b = 1; b < c; ++b) {
                const EvalHand hb = hc.add(b);
                for (Card a = 0; a < b; ++a) sum += ev.rank(hb.add(a));
              }
            }
          }
        }
      }
    }
    benchmark::DoNotOptimize(sum);
    total += 133784560;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(total));
}
BENCHMARK(EnumerateAllSevenCards)->Unit(benchmark::kMillisecond);

constexpr std::size_t kRandomHands = 10'000'000;

// 10M uniform random 7-card hands (seeded): each card drawn by rejection on a 64-bit mask.
const std::vector<std::array<Card, 7>>& random_hands() {
  static const std::vector<std::array<Card, 7>> hands = [] {
    std::vector<std::array<Card, 7>> h(kRandomHands);
    hulhe::SplitMix64 rng(1);
    for (auto& hand : h) {
      std::uint64_t used = 0;
      for (Card& c : hand) {
        do {
          c = static_cast<Card>(rng.below(52));
        } while ((used >> c) & 1U);
        used |= std::uint64_t{1} << c;
      }
    }
    return h;
  }();
  return hands;
}

// Ranks each of `hands` by rank(hand) per iteration; items = hands ranked.
template <typename Hands, typename Rank>
void rank_all(benchmark::State& state, const Hands& hands, Rank rank) {
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const auto& h : hands) sum += rank(h);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * hands.size()));
}

void RandomEvalHands(benchmark::State& state) {
  const HandEvaluator& ev = HandEvaluator::instance();
  std::vector<EvalHand> hands;
  hands.reserve(kRandomHands);
  for (const auto& h : random_hands()) {
    EvalHand e;
    for (Card c : h) e = e.add(c);
    hands.push_back(e);
  }
  rank_all(state, hands, [&ev](const EvalHand& h) { return ev.rank(h); });
}
BENCHMARK(RandomEvalHands)->Unit(benchmark::kMillisecond);

void RandomSevenCards(benchmark::State& state) {
  const HandEvaluator& ev = HandEvaluator::instance();
  rank_all(state, random_hands(), [&ev](const std::array<Card, 7>& h) {
    return ev.rank(
        EvalHand{}.add(h[0]).add(h[1]).add(h[2]).add(h[3]).add(h[4]).add(h[5]).add(h[6]));
  });
}
BENCHMARK(RandomSevenCards)->Unit(benchmark::kMillisecond);

void RandomCardArrays(benchmark::State& state) {
  const HandEvaluator& ev = HandEvaluator::instance();
  rank_all(state, random_hands(),
           [&ev](const std::array<Card, 7>& h) { return ev.rank(h.data(), 7); });
}
BENCHMARK(RandomCardArrays)->Unit(benchmark::kMillisecond);

void RandomCardSets(benchmark::State& state) {
  std::vector<hulhe::CardSet> hands;
  hands.reserve(kRandomHands);
  for (const auto& h : random_hands()) hands.push_back(hulhe::CardSet::of(h));
  rank_all(state, hands, [](hulhe::CardSet h) { return hulhe::evaluate(h); });
}
BENCHMARK(RandomCardSets)->Unit(benchmark::kMillisecond);

void BuildTables(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(&HandEvaluator::instance());
}
BENCHMARK(BuildTables)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
