#pragma once
// The last round of a 2-player limit game for one chunk of sequences and one responder seat,
// unrolled at compile time from limit_last_round_plan.h: the work of HoldemLastRound
// (holdem_last_round.h) when the game is a limit game, with the same sums in the same
// formulas, but one hand at a time with all of that hand's reach vectors, fold and showdown
// sums and subtree values in registers. The interpreted walk streams each of them through
// per-block arrays; at ~13 vectors and 27 positions a hand, those loads and stores were most
// of its time (docs/best-response.md).
//
// Per deal, two passes over the hands:
//  1. per-card totals of every directly summed vector (fold sums by inclusion-exclusion,
//     Johanson et al. 2011), in hand-index order;
//  2. in showdown-rank order, the showdown sweep: with W the disjoint reach strictly below a hand
//  and W' the same
//     including its group of tied hands, the showdown sum (win - lose) is
//     W + W' - (fold sum - own reach); then the values up the subtree (max over the
//     responder's actions for a best response, its fixed strategy's mix otherwise), added to
//     the hand's accumulated value times the deal's orbit weight.
// The reach vectors are formed again in pass 2 rather than stored: a strategy line and a few
// multiplies cost less than a store and a load per vector.
#include <cstddef>
#include <cstdint>
#include <utility>

#include "best_response/holdem/last_round_deals.h"
#include "best_response/holdem/limit_last_round_plan.h"
#include "game/card.h"

// Every lambda of the kernel is inlined, so that its per-hand arrays have constant indices
// and live in registers (clang does not flatten lambdas into their caller on its own).
#define HULHE_INLINE __attribute__((always_inline))

namespace hulhe::limit_last_round {

template <typename Lanes>
struct KernelArgs {
  std::int32_t num_deals = 0;
  const LastRoundDeals* deals = nullptr;  // the first num_deals are walked
  const Lanes* reach = nullptr;           // [hand]: the opponent's reach entering the round
  Lanes* acc = nullptr;                   // [hand]: values, accumulated
  const Lanes* sigma = nullptr;           // [bucket][plan column]: the opponent's σ per lane
  const Lanes* coef = nullptr;            // [terminal]: fold payoff or showdown pot per lane
  // Head-to-head only: the fixed strategy, [(table + slot) * fixed_buckets + bucket].
  const Lanes* fixed = nullptr;
  std::size_t fixed_buckets = 0;
  std::int64_t table = 0;
  // Scratch: [card][direct], [card][swept], [hand of a tie group][swept].
  Lanes* card_total = nullptr;
  Lanes* card_below = nullptr;
  Lanes* group_below = nullptr;
};

template <int Cap, bool ResponderFirst>
inline constexpr Plan kPlan = make_plan(Cap, ResponderFirst);

template <int N, typename F>
[[gnu::always_inline]] inline void unroll(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) HULHE_INLINE {
    (f(std::integral_constant<int, I>{}), ...);
  }
  (std::make_integer_sequence<int, N>{});
}

template <typename Lanes>
[[gnu::always_inline]] inline Lanes lanes_max(Lanes x, Lanes y) {
  return x > y ? x : y;
}

// `Real`: the lanes' element type. `BestResponse`: max at the responder's decisions, else
// the fixed strategy's mix (head-to-head).
template <typename Real, typename Lanes, int Cap, bool ResponderFirst, bool BestResponse>
[[gnu::flatten]] void walk(const KernelArgs<Lanes>& a) {
  constexpr const Plan& P = kPlan<Cap, ResponderFirst>;
  constexpr int V = P.num_vectors;
  constexpr int ND = P.num_direct;
  constexpr int NS = P.num_swept;
  constexpr int NP = P.num_positions;
  constexpr std::size_t C = static_cast<std::size_t>(P.columns);
  constexpr int kCards = kMaxCards;

  // The opponent's reach at every vector of the plan, for hand h of opponent bucket b.
  auto form = [&](std::int32_t h, std::int32_t b, Lanes* r) HULHE_INLINE {
    r[0] = a.reach[h];
    const Lanes* row = a.sigma + static_cast<std::size_t>(b) * C;
    unroll<V - 1>([&](auto I) HULHE_INLINE {
      constexpr int v = decltype(I)::value + 1;
      constexpr PlanVector x = P.vec[v];
      if constexpr (x.column >= 0) {
        r[v] = r[x.parent] * row[x.column];
      } else {
        Lanes y = r[x.parent];
        if constexpr (x.num_sib > 0) y -= r[x.sib[0]];
        if constexpr (x.num_sib > 1) y -= r[x.sib[1]];
        r[v] = y;
      }
    });
  };
  // Fold sums (opponent reach disjoint from the hand): per-card totals for direct vectors,
  // parent minus siblings for derived ones.
  auto fold_sums = [&](const Lanes* r, const Lanes* tot, const Lanes* xa, const Lanes* xb, Lanes* f)
                       HULHE_INLINE {
                         unroll<V>([&](auto I) HULHE_INLINE {
                           constexpr int v = decltype(I)::value;
                           constexpr PlanVector x = P.vec[v];
                           if constexpr (x.direct >= 0)
                             f[v] = tot[x.direct] - xa[x.direct] - xb[x.direct] + r[v];
                         });
                         unroll<V>([&](auto I) HULHE_INLINE {
                           constexpr int v = decltype(I)::value;
                           constexpr PlanVector x = P.vec[v];
                           if constexpr (x.derived) {
                             Lanes y = f[x.parent];
                             if constexpr (x.num_sib > 0) y -= f[x.sib[0]];
                             if constexpr (x.num_sib > 1) y -= f[x.sib[1]];
                             f[v] = y;
                           }
                         });
                       };
  // The subtree's values, last position first; returns the root's.
  auto values = [&](const Lanes* f, const Lanes* dd, std::int32_t bf) HULHE_INLINE {
    Lanes val[NP];
    unroll<NP>([&](auto I) HULHE_INLINE {
      constexpr int p = NP - 1 - decltype(I)::value;
      constexpr PlanPosition q = P.pos[p];
      if constexpr (q.kind == PositionKind::kFold) {
        val[p] = a.coef[q.term] * f[q.vec];
      } else if constexpr (q.kind == PositionKind::kShowdown) {
        val[p] = a.coef[q.term] * dd[q.vec];
      } else if constexpr (q.kind == PositionKind::kOpponent) {
        Lanes y = val[q.child[0]] + val[q.child[1]];
        if constexpr (q.num_children > 2) y += val[q.child[2]];
        val[p] = y;
      } else if constexpr (BestResponse) {
        Lanes y =
            q.num_children > 1 ? lanes_max(val[q.child[0]], val[q.child[1]]) : val[q.child[0]];
        if constexpr (q.num_children > 2) y = lanes_max(y, val[q.child[2]]);
        val[p] = y;
      } else {
        const std::size_t nbf = a.fixed_buckets;
        const Lanes* fx = a.fixed + static_cast<std::size_t>(a.table + q.slot) * nbf +
                          static_cast<std::size_t>(bf);
        Lanes y = fx[0] * val[q.child[0]];
        if constexpr (q.num_children > 1) y += fx[nbf] * val[q.child[1]];
        if constexpr (q.num_children > 2) y += fx[2 * nbf] * val[q.child[2]];
        val[p] = y;
      }
    });
    return val[0];
  };

  // A hand's reach joins the sweep: the running sum below, and its two cards' sums.
  auto sweep_add = [&](const Lanes* r, Lanes* below, Lanes* xa, Lanes* xb) HULHE_INLINE {
    unroll<V>([&](auto I) HULHE_INLINE {
      constexpr int v = decltype(I)::value;
      constexpr int k = P.vec[v].swept;
      if constexpr (k >= 0) {
        below[k] += r[v];
        xa[k] += r[v];
        xb[k] += r[v];
      }
    });
  };

  Lanes* const ct = a.card_total;
  Lanes* const cb = a.card_below;
  const LastRoundDeals& deals = *a.deals;
  for (std::int32_t d = 0; d < a.num_deals; ++d) {
    const std::size_t o = static_cast<std::size_t>(d) * deals.stride;
    const std::int32_t m = deals.size[d];
    const std::int32_t* hand = deals.hand.data() + o;
    const std::int32_t* bko = deals.bucket_opp.data() + o;
    const std::int32_t* bkf = deals.bucket_fix.data() + o;
    const std::uint8_t* ca = deals.card_a.data() + o;
    const std::uint8_t* cbd = deals.card_b.data() + o;
    const std::int32_t* gend = deals.group_end.data() + o;
    const Lanes weight = Lanes{} + static_cast<Real>(deals.weight[d]);

    // Pass 1: per-card totals; each hand holds two cards, so the total is half their sum.
    // In hand-index order the first card changes rarely: its sums stay in registers.
    for (int k = 0; k < kCards * ND; ++k) ct[k] = Lanes{};
    const std::int32_t* by_hand = deals.by_hand.data() + o;
    Lanes run[ND];
    for (int k = 0; k < ND; ++k) run[k] = Lanes{};
    int first = m > 0 ? ca[by_hand[0]] : 0;
    for (std::int32_t i = 0; i < m; ++i) {
      const std::int32_t j = by_hand[i];
      if (ca[j] != first) {
        Lanes* xa = ct + first * ND;
        for (int k = 0; k < ND; ++k) {
          xa[k] += run[k];
          run[k] = Lanes{};
        }
        first = ca[j];
      }
      Lanes r[V];
      form(hand[j], bko[j], r);
      Lanes* xb = ct + cbd[j] * ND;
      unroll<V>([&](auto I) HULHE_INLINE {
        constexpr int v = decltype(I)::value;
        constexpr int k = P.vec[v].direct;
        if constexpr (k >= 0) {
          run[k] += r[v];
          xb[k] += r[v];
        }
      });
    }
    for (int k = 0; k < ND; ++k) ct[first * ND + k] += run[k];
    Lanes tot[ND];
    for (int k = 0; k < ND; ++k) tot[k] = Lanes{};
    for (int q = 0; q < kCards; ++q)
      for (int k = 0; k < ND; ++k) tot[k] += ct[q * ND + k];
    for (int k = 0; k < ND; ++k) tot[k] *= Real{0.5};

    // Pass 2: the showdown sweep in rank order, then the values.
    Lanes below[NS];
    for (int k = 0; k < NS; ++k) below[k] = Lanes{};
    for (int k = 0; k < kCards * NS; ++k) cb[k] = Lanes{};
    for (std::int32_t i = 0; i < m;) {
      const std::int32_t g1 = gend[i];
      if (g1 == i + 1) {  // no tie: W' = W - own reach, so the sum is 2W - fold sum
        Lanes r[V], f[V], dd[V];
        form(hand[i], bko[i], r);
        fold_sums(r, tot, ct + ca[i] * ND, ct + cbd[i] * ND, f);
        Lanes* xa = cb + ca[i] * NS;
        Lanes* xb = cb + cbd[i] * NS;
        unroll<V>([&](auto I) HULHE_INLINE {
          constexpr int v = decltype(I)::value;
          constexpr int k = P.vec[v].swept;
          if constexpr (k >= 0) {
            const Lanes w = below[k] - xa[k] - xb[k];
            dd[v] = w + w - f[v];
          }
        });
        sweep_add(r, below, xa, xb);
        a.acc[hand[i]] += weight * values(f, dd, bkf[i]);
        i = g1;
        continue;
      }
      // A group of tied hands: W of each before the group is added, W' after.
      for (std::int32_t q = i; q < g1; ++q) {
        const Lanes* xa = cb + ca[q] * NS;
        const Lanes* xb = cb + cbd[q] * NS;
        Lanes* w = a.group_below + static_cast<std::size_t>(q - i) * NS;
        for (int k = 0; k < NS; ++k) w[k] = below[k] - xa[k] - xb[k];
      }
      for (std::int32_t q = i; q < g1; ++q) {
        Lanes r[V];
        form(hand[q], bko[q], r);
        sweep_add(r, below, cb + ca[q] * NS, cb + cbd[q] * NS);
      }
      for (std::int32_t q = i; q < g1; ++q) {
        Lanes r[V], f[V], dd[V];
        form(hand[q], bko[q], r);
        fold_sums(r, tot, ct + ca[q] * ND, ct + cbd[q] * ND, f);
        const Lanes* xa = cb + ca[q] * NS;
        const Lanes* xb = cb + cbd[q] * NS;
        const Lanes* w = a.group_below + static_cast<std::size_t>(q - i) * NS;
        unroll<V>([&](auto I) HULHE_INLINE {
          constexpr int v = decltype(I)::value;
          constexpr int k = P.vec[v].swept;
          if constexpr (k >= 0) dd[v] = w[k] + (below[k] - xa[k] - xb[k]) - (f[v] - r[v]);
        });
        a.acc[hand[q]] += weight * values(f, dd, bkf[q]);
      }
      i = g1;
    }
  }
}

}  // namespace hulhe::limit_last_round

#undef HULHE_INLINE
