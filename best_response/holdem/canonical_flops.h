#pragma once
// The first board round's boards ("flops") of a 2-player hold'em game, grouped by suit
// isomorphism: two flops are equivalent when a permutation of the deck's suits maps one onto
// the other. Found by brute force over the suit permutations (at most 24), so it serves
// reduced decks as well as the 52-card deck (1,755 canonical flops, weights summing to
// 22,100). Also the permutation of hole-card pairs each suit permutation induces, which is
// what lets a value vector computed on one flop stand for its whole orbit.
#include <array>
#include <cstdint>
#include <vector>

#include "game/card.h"
#include "game/game_definition.h"
#include "public_tree/private_hands.h"

namespace hulhe {

struct CanonicalFlop {
  std::array<Card, kMaxBoardCards> cards{};  // the representative, ascending
  CardSet mask;
  std::int32_t weight = 0;  // flops in its orbit
};

struct FlopClasses {
  int flop_cards = 0;
  std::vector<CanonicalFlop> flops;
  std::int64_t total_weight = 0;   // every flop of the deck
  int min_rank = 0, max_rank = 0;  // of the deck's cards
  // hand_perm[p][h]: the hand that suit permutation p makes of hand h (p = 0: identity).
  std::vector<std::vector<std::int32_t>> hand_perm;
  // card_perm[p][c] for the deck's cards (other ids unused).
  std::vector<std::array<Card, kMaxCards>> card_perm;
};

// `merge_suits` false: every flop is its own class (weight 1) and only the identity is kept,
// for strategies that are not suit-symmetric.
FlopClasses make_flop_classes(const GameDefinition& game, const PrivateHands& hands,
                              bool merge_suits);

// The classes ordered by texture — paired or not, then suited-ness, then ranks high to low —
// so that neighbours in the order are similar flops (the sampled best response draws a
// systematic sample along it).
std::vector<std::int32_t> flops_by_texture(const FlopClasses& fc);

// Covariates of a flop for the sampled best response's regression adjustment
// (systematic_sample.h): a second-order response surface in the flop's ranks — the
// ranks sorted high to low and scaled to [0, 1] over the deck's ranks, their squares and their
// pairwise products (2m + m(m−1)/2 values for m flop cards: 9 in hold'em). A flop's best-
// response value moves smoothly with its ranks (low boards, broadway boards, the gaps between
// cards); on HULHE these explain about 80% of its spread between flops.
std::vector<double> flop_rank_covariates(const FlopClasses& fc, const CanonicalFlop& f);

// The image of a set of cards under suit permutation p of `fc`.
CardSet permute_cards(const FlopClasses& fc, std::size_t p, CardSet cards);

// The suit permutations of `fc` (indices) that map `board` onto itself. Inside one board the
// next round's deals fall into orbits of this group; values on a deal stand for its orbit
// the way a canonical flop stands for its own (Σ_{d ∈ orbit} V_d(h) = |orbit|/|G| ·
// Σ_{π ∈ G} V_{d0}(π h)), provided everything up to the board is suit-symmetric.
std::vector<std::int32_t> board_stabilizer(const FlopClasses& fc, CardSet board);

// The size of the orbit of `deal` under `group` when `deal` is its orbit's representative
// (the smallest mask), else 0.
std::int32_t deal_orbit_size(const FlopClasses& fc, const std::vector<std::int32_t>& group,
                             CardSet deal);

}  // namespace hulhe
