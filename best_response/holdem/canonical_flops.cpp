#include "best_response/holdem/canonical_flops.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <numeric>

#include "util/combinatorics.h"

namespace hulhe {

FlopClasses make_flop_classes(const GameDefinition& game, const PrivateHands& hands,
                              bool merge_suits) {
  FlopClasses fc;
  fc.flop_cards = game.num_rounds > 1 ? game.num_board_cards[1] : 0;
  const std::vector<Card> deck = game.deck();
  fc.min_rank = kMaxRanks;
  for (Card c : deck) {
    fc.min_rank = std::min(fc.min_rank, rank_of(c));
    fc.max_rank = std::max(fc.max_rank, rank_of(c));
  }
  // The deck's suits (ACPC deals the last num_suits suits) and every permutation of them.
  std::vector<int> suits;
  for (Card c : deck)
    if (std::find(suits.begin(), suits.end(), suit_of(c)) == suits.end())
      suits.push_back(suit_of(c));
  std::sort(suits.begin(), suits.end());
  std::vector<int> image = suits;
  do {
    std::array<Card, kMaxCards> perm{};
    for (Card c : deck) {
      const auto i = std::find(suits.begin(), suits.end(), suit_of(c)) - suits.begin();
      perm[c] = make_card(rank_of(c), image[i]);
    }
    fc.card_perm.push_back(perm);
  } while (merge_suits && std::next_permutation(image.begin(), image.end()));

  std::map<std::uint64_t, std::int32_t> hand_of_mask;
  for (std::int32_t h = 0; h < hands.size(); ++h) hand_of_mask[hands.masks[h].mask()] = h;
  for (const auto& perm : fc.card_perm) {
    std::vector<std::int32_t> hp(hands.size());
    for (std::int32_t h = 0; h < hands.size(); ++h) {
      CardSet m;
      for (int i = 0; i < hands.num_hole_cards; ++i) m.insert(perm[hands.cards[h][i]]);
      hp[h] = hand_of_mask.at(m.mask());
    }
    fc.hand_perm.push_back(std::move(hp));
  }

  // Every flop, keyed by the smallest mask in its orbit.
  std::map<std::uint64_t, std::int32_t> class_of;
  const int k = fc.flop_cards;
  const int n = static_cast<int>(deck.size());
  std::array<int, kMaxBoardCards> pos{};
  std::iota(pos.begin(), pos.begin() + k, 0);
  while (true) {
    CardSet flop;
    for (int i = 0; i < k; ++i) flop.insert(deck[pos[i]]);
    std::uint64_t key = flop.mask();
    for (const auto& perm : fc.card_perm) {
      CardSet m;
      for (int i = 0; i < k; ++i) m.insert(perm[deck[pos[i]]]);
      key = std::min(key, m.mask());
    }
    auto [it, fresh] = class_of.emplace(key, static_cast<std::int32_t>(fc.flops.size()));
    if (fresh) {
      CanonicalFlop cf;
      cf.mask = CardSet(key);
      const std::vector<Card> cs = cf.mask.cards();
      std::copy(cs.begin(), cs.end(), cf.cards.begin());
      fc.flops.push_back(cf);
    }
    ++fc.flops[it->second].weight;
    ++fc.total_weight;
    if (!next_k_subset(pos, k, n)) break;
  }
  return fc;
}

std::vector<std::int32_t> flops_by_texture(const FlopClasses& fc) {
  const auto n = static_cast<std::int32_t>(fc.flops.size());
  std::vector<std::array<int, kMaxBoardCards + 2>> key(n);
  for (std::int32_t c = 0; c < n; ++c) {
    const CanonicalFlop& f = fc.flops[c];
    std::array<int, kMaxBoardCards> ranks{};
    int suits = 0, distinct = 0;
    for (int i = 0; i < fc.flop_cards; ++i) {
      ranks[i] = rank_of(f.cards[i]);
      suits |= 1 << suit_of(f.cards[i]);
    }
    for (int i = 1; i < fc.flop_cards; ++i)  // descending (insertion sort of ≤ 3 ranks)
      for (int j = i; j > 0 && ranks[j - 1] < ranks[j]; --j) std::swap(ranks[j - 1], ranks[j]);
    for (int i = 0; i < fc.flop_cards; ++i) distinct += i == 0 || ranks[i] != ranks[i - 1];
    key[c][0] = distinct;
    key[c][1] = std::popcount(static_cast<unsigned>(suits));
    for (int i = 0; i < kMaxBoardCards; ++i) key[c][2 + i] = ranks[i];
  }
  std::vector<std::int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return key[a] < key[b]; });
  return order;
}

std::vector<double> flop_rank_covariates(const FlopClasses& fc, const CanonicalFlop& f) {
  const int m = fc.flop_cards;
  const double span = std::max(1, fc.max_rank - fc.min_rank);
  std::vector<double> r(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) r[i] = (rank_of(f.cards[i]) - fc.min_rank) / span;
  std::sort(r.begin(), r.end(), std::greater<>());
  std::vector<double> x = r;
  for (int i = 0; i < m; ++i) x.push_back(r[i] * r[i]);
  for (int i = 0; i < m; ++i)
    for (int j = i + 1; j < m; ++j) x.push_back(r[i] * r[j]);
  return x;
}

CardSet permute_cards(const FlopClasses& fc, std::size_t p, CardSet cards) {
  CardSet out;
  for (std::uint64_t m = cards.mask(); m != 0; m &= m - 1)
    out.insert(fc.card_perm[p][static_cast<Card>(std::countr_zero(m))]);
  return out;
}

std::vector<std::int32_t> board_stabilizer(const FlopClasses& fc, CardSet board) {
  std::vector<std::int32_t> group;
  for (std::size_t p = 0; p < fc.card_perm.size(); ++p)
    if (permute_cards(fc, p, board) == board) group.push_back(static_cast<std::int32_t>(p));
  return group;
}

std::int32_t deal_orbit_size(const FlopClasses& fc, const std::vector<std::int32_t>& group,
                             CardSet deal) {
  std::array<std::uint64_t, 24> images{};
  std::size_t k = 0;
  for (std::int32_t p : group) {
    const std::uint64_t m = permute_cards(fc, static_cast<std::size_t>(p), deal).mask();
    if (m < deal.mask()) return 0;
    if (std::find(images.begin(), images.begin() + k, m) == images.begin() + k) images[k++] = m;
  }
  return static_cast<std::int32_t>(k);
}

}  // namespace hulhe
