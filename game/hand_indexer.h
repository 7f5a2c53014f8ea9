#pragma once
// Suit-isomorphic hand indexing (Waugh 2013, "A fast and optimal hand isomorphism
// algorithm"): a bijection between canonical hands and 0..size()-1. Cards come in groups
// whose order within a group does not matter (hole cards; the board so far), and two hands
// that differ by a permutation of suits get the same index.
//
// How: each suit's cards form a tuple of rank sets, one per group. A suit's *shape* is its
// card count per group; a suit's *index* is the colex rank of each group's rank set among the
// ranks that suit has not used in earlier groups, combined in mixed radix. Two hands are
// suit-isomorphic exactly when their multisets of (shape, index) agree, so the hand index is:
// the offset of its *configuration* (the four shapes sorted), plus, for each run of suits
// with equal shape, the multiset (colex with repetition) rank of their indices, in mixed radix.
#include <array>
#include <cstdint>
#include <vector>

#include "game/card.h"

namespace hulhe {

class HandIndexer {
 public:
  // e.g. {2, 3}: two hole cards, then the three-card flop as one set.
  // At most 8 groups and 8 cards in all.
  explicit HandIndexer(std::vector<int> cards_per_group);
  // Hold'em round r: {2}, {2, 3}, {2, 4}, {2, 5} (hole cards with the board so far).
  // Sizes 169; 1,286,792; 13,960,050; 123,156,254. Built once, shared, thread-safe.
  static const HandIndexer& holdem(int round);
  // holdem(round)'s index of the hand of two hole cards and the round's board cards.
  static std::uint64_t holdem_index(int round, const Card* hole, const Card* board) {
    const HandIndexer& indexer = holdem(round);
    Card cards[7];
    cards[0] = hole[0];
    cards[1] = hole[1];
    for (int i = 2; i < indexer.num_cards(); ++i) cards[i] = board[i - 2];
    return indexer.index(cards);
  }

  std::uint64_t size() const { return size_; }
  int num_cards() const { return num_cards_; }
  // cards: the groups one after another (hole cards first). Cards must be distinct.
  std::uint64_t index(const Card* cards) const;
  // The index of `cards` plus each possible last card at once: `cards` holds num_cards() - 1
  // cards (the last group one short), and out[c] = index(cards + c) for every card c not
  // among them (out[c] of a used card is left alone). One suit's key changes per card, so
  // this skips most of index()'s work: the turn's river histograms call it per hand.
  void index_each_last_card(const Card* cards, std::uint64_t* out) const;
  // Writes one representative hand of `index` (each group's cards ascending).
  void unindex(std::uint64_t index, Card* cards) const;

 private:
  static constexpr int kMaxGroups = 8;
  static constexpr int kSuits = 4;

  std::vector<int> cards_per_group_;
  int num_cards_ = 0;
  std::uint64_t size_ = 0;
  int num_groups_ = 0;
  // Shapes as mixed-radix ids: sum over groups of count * shape_stride_[g] (radix n_g + 1).
  int num_shapes_ = 0;
  std::array<int, kMaxGroups> shape_stride_{};
  std::vector<std::uint64_t> shape_size_;  // rank tuples a suit of this shape can hold
  // Configurations: the four suits' shapes, descending. config_offset_ ascends.
  std::vector<std::array<int, kSuits>> config_shapes_;
  std::vector<std::uint64_t> config_offset_;
  std::vector<std::int32_t> config_of_key_;  // ((s0*S + s1)*S + s2)*S + s3 -> config, or -1
  // What index() needs of a configuration, per sorted suit position i: the index adds
  // radix[i] * C(suit_index_i + extra[i], choose[i]) (the multiset rank of its run of equal
  // shapes, in the mixed radix of the runs before it).
  struct IndexTerms {
    std::uint64_t offset;
    std::array<std::uint64_t, kSuits> radix;
    std::array<std::uint8_t, kSuits> extra;
    std::array<std::uint8_t, kSuits> choose;
  };
  std::vector<IndexTerms> index_terms_;

  // Each group's cards as 16 bits per suit; with `last_short`, the last group one card short.
  using GroupMasks = std::array<std::uint64_t, kMaxGroups>;
  GroupMasks group_masks(const Card* cards, bool last_short) const;
  // One suit over the first groups: its index within its shape so far, the radix of the next
  // group, the ranks it has used and its shape.
  struct SuitPrefix {
    std::uint64_t index = 0, radix = 1;
    unsigned used = 0;
    int shape = 0;
  };
  SuitPrefix suit_prefix(const GroupMasks& masks, int suit, int groups) const;
  // The suit's key (shape above its index) with the ranks `m` as the last group.
  std::uint64_t suit_key(const SuitPrefix& prefix, unsigned m) const;
  // The hand's index from its four suit keys, in any order.
  std::uint64_t index_of_keys(std::array<std::uint64_t, kSuits> keys) const;
};

}  // namespace hulhe
