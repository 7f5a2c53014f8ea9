// Hand evaluator speed (one thread). Figures: items_per_second = hands ranked per second.
//   EnumerateAllSevenCards  all 133,784,560 7-card hands, nested loops, incremental EvalHand
//   RandomSevenCards        2^20 random 7-card hands prepared in advance as card arrays,
//                           ranked by HandEvaluator::rank(cards, 7)
//   RandomEvalHands         the same hands prepared as EvalHand (lookup cost only)
//   RandomCardSets          the same hands as CardSet through evaluate(CardSet)
#include <benchmark/benchmark.h>

#include <array>
#include <numeric>
#include <random>
#include <vector>

#include "game/hand_evaluator.h"

namespace {

using hulhe::Card;
using hulhe::EvalHand;
using hulhe::HandEvaluator;

void EnumerateAllSevenCards(benchmark::State& state) {
  const HandEvaluator& ev = HandEvaluator::instance();
  std::uint64_t total = 0;
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (Card a = 0; a < 52; ++a) {
      const EvalHand ha = EvalHand{}.add(a);
      for (Card b = a + 1; b < 52; ++b) {
        const EvalHand hb = ha.add(b);
        for (Card c = b + 1; c < 52; ++c) {
          const EvalHand hc = hb.add(c);
          for (Card d = c + 1; d < 52; ++d) {
            const EvalHand hd = hc.add(d);
            for (Card e = d + 1; e < 52; ++e) {
              const EvalHand he = hd.add(e);
              for (Card f = e + 1; f < 52; ++f) {
                const EvalHand hf = he.add(f);
                for (Card g = f + 1; g < 52; ++g) sum += ev.rank(hf.add(g));
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

constexpr std::size_t kRandomHands = std::size_t{1} << 20;

std::vector<std::array<Card, 7>> random_hands() {
  std::mt19937_64 rng(1);
  std::array<Card, 52> deck;
  std::iota(deck.begin(), deck.end(), Card{0});
  std::vector<std::array<Card, 7>> hands(kRandomHands);
  for (auto& h : hands) {
    for (int i = 0; i < 7; ++i) {  // partial Fisher-Yates
      std::uniform_int_distribution<int> pick(i, 51);
      std::swap(deck[i], deck[pick(rng)]);
      h[i] = deck[i];
    }
  }
  return hands;
}

void RandomSevenCards(benchmark::State& state) {
  const HandEvaluator& ev = HandEvaluator::instance();
  const auto hands = random_hands();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const auto& h : hands)
      sum +=
          ev.rank(EvalHand{}.add(h[0]).add(h[1]).add(h[2]).add(h[3]).add(h[4]).add(h[5]).add(h[6]));
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kRandomHands));
}
BENCHMARK(RandomSevenCards);

void RandomEvalHands(benchmark::State& state) {
  const HandEvaluator& ev = HandEvaluator::instance();
  std::vector<EvalHand> hands;
  for (const auto& h : random_hands()) hands.push_back(EvalHand::of(hulhe::CardSet::of(h)));
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const EvalHand& h : hands) sum += ev.rank(h);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kRandomHands));
}
BENCHMARK(RandomEvalHands);

void RandomCardSets(benchmark::State& state) {
  std::vector<hulhe::CardSet> hands;
  for (const auto& h : random_hands()) hands.push_back(hulhe::CardSet::of(h));
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (hulhe::CardSet h : hands) sum += hulhe::evaluate(h);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kRandomHands));
}
BENCHMARK(RandomCardSets);

void BuildTables(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(&HandEvaluator::instance());
}
BENCHMARK(BuildTables)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
