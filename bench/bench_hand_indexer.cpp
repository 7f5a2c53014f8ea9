// Hand indexer speed (one thread). items_per_second = hands indexed (or unindexed) per
// second, over 2^20 random hands (hole cards, then the board) prepared in advance.
#include <benchmark/benchmark.h>

#include <array>
#include <numeric>
#include <random>
#include <vector>

#include "game/hand_indexer.h"

namespace {

using hulhe::Card;
using hulhe::HandIndexer;

constexpr std::size_t kHands = std::size_t{1} << 20;

std::vector<std::array<Card, 7>> random_deals() {
  std::mt19937_64 rng(2);
  std::array<Card, 52> deck;
  std::iota(deck.begin(), deck.end(), Card{0});
  std::vector<std::array<Card, 7>> deals(kHands);
  for (auto& d : deals) {
    for (int i = 0; i < 7; ++i) {
      std::uniform_int_distribution<int> pick(i, 51);
      std::swap(deck[i], deck[pick(rng)]);
      d[i] = deck[i];
    }
  }
  return deals;
}

// Arg: round (1 flop, 2 turn, 3 river); the first 2 + round + 2 cards of each deal.
void Index(benchmark::State& state) {
  const HandIndexer& indexer = HandIndexer::holdem(static_cast<int>(state.range(0)));
  const auto deals = random_deals();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const auto& d : deals) sum += indexer.index(d.data());
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kHands));
}
BENCHMARK(Index)->Arg(1)->Arg(2)->Arg(3);

void UnindexRiver(benchmark::State& state) {
  const HandIndexer& river = HandIndexer::holdem(3);
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::uint64_t> any(0, river.size() - 1);
  std::vector<std::uint64_t> indices(kHands);
  for (auto& i : indices) i = any(rng);
  std::array<Card, 7> cards;
  for (auto _ : state) {
    unsigned sum = 0;
    for (std::uint64_t i : indices) {
      river.unindex(i, cards.data());
      sum += cards[6];
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kHands));
}
BENCHMARK(UnindexRiver);

}  // namespace

BENCHMARK_MAIN();
