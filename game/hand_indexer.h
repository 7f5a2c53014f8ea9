#pragma once
// Suit-isomorphic hand indexing (Waugh 2013, "A fast and optimal hand isomorphism
// algorithm"): a bijection between canonical hands and 0..size()-1. Cards come in groups
// whose order within a group does not matter (hole cards; the board so far), and two hands
// that differ by a permutation of suits get the same index.
#include <cstdint>
#include <vector>

#include "game/card.h"

namespace hulhe {

class HandIndexer {
 public:
  // e.g. {2, 3}: two hole cards, then the three-card flop as one set.
  explicit HandIndexer(std::vector<int> cards_per_group);
  // Hold'em round r: {2}, {2, 3}, {2, 4}, {2, 5} (hole cards with the board so far).
  // Sizes 169; 1,286,792; 13,960,050; 123,156,254. Built once, shared, thread-safe.
  static const HandIndexer& holdem(int round);

  std::uint64_t size() const { return size_; }
  int num_cards() const { return num_cards_; }
  // cards: the groups one after another (hole cards first). Cards must be distinct.
  std::uint64_t index(const Card* cards) const;
  // Writes one representative hand of `index` (each group's cards ascending).
  void unindex(std::uint64_t index, Card* cards) const;

 private:
  std::vector<int> cards_per_group_;
  int num_cards_ = 0;
  std::uint64_t size_ = 0;
  // Implementation tables live in hand_indexer.cpp.
  struct Tables;
  std::vector<std::uint64_t> tables_storage_;
};

}  // namespace hulhe
