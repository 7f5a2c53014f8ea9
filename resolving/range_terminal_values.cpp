#include "resolving/range_terminal_values.h"

#include <algorithm>
#include <array>

#include "public_tree/terminal_values.h"
#include "util/input_error.h"

namespace hulhe {

namespace {

// The lanes of the loops below are independent (each its own terminal), which GCC cannot see
// through the row pointers: without `omp simd` it keeps scalar code for their possible overlap
// (half the speed of the lanes, measured; `GCC ivdep` did no better). Clang, the sanitizer
// build's compiler, cannot vectorize them under the sanitizers and makes a forced `omp simd`
// that fails a warning, so it goes without.
#if defined(__GNUC__) && !defined(__clang__)
#define HULHE_LANES_INDEPENDENT _Pragma("omp simd")
#else
#define HULHE_LANES_INDEPENDENT
#endif

// The most hands of a 2-card game (52 choose 2): the sweeps' stack buffers.
constexpr std::int32_t kMostHands = 1326;

// card[c] += Σ of reach over the hands holding c; returns Σ of reach.
template <typename Real>
double add_card_sums(const RangeHands& hands, const Real* reach, double* card) {
  double total = 0.0;
  for (const RangeHands::Run& run : hands.runs) {
    // Four partial sums: independent adds (the order is fixed, so the result is too).
    double s[4] = {0.0, 0.0, 0.0, 0.0};
    std::int32_t i = run.begin;
    for (; i + 4 <= run.end; i += 4)
      for (int k = 0; k < 4; ++k) s[k] += static_cast<double>(reach[i + k]);
    for (; i < run.end; ++i) s[0] += static_cast<double>(reach[i]);
    const double sum = (s[0] + s[1]) + (s[2] + s[3]);
    card[run.card] += sum;
    total += sum;
  }
  // Second cards: consecutive hands hold different ones, so these adds do not wait on each
  // other.
  const std::uint8_t* b = hands.card_b.data();
  for (std::int32_t i = 0; i < hands.size(); ++i) card[b[i]] += static_cast<double>(reach[i]);
  return total;
}

// The same sums for W terminals at once (reach[i·W + L]), each lane added in add_card_sums'
// order so that its sums are the same bits: card[c·W + L], total[L].
template <typename Real, int W>
void add_card_sums_lanes(const RangeHands& hands, const Real* __restrict reach,
                         double* __restrict card, double* __restrict total) {
  for (const RangeHands::Run& run : hands.runs) {
    alignas(64) double s[4][W] = {};
    std::int32_t i = run.begin;
    for (; i + 4 <= run.end; i += 4)
      for (int k = 0; k < 4; ++k) {
        const Real* r = reach + static_cast<std::int64_t>(i + k) * W;
        HULHE_LANES_INDEPENDENT
        for (int l = 0; l < W; ++l) s[k][l] += static_cast<double>(r[l]);
      }
    for (; i < run.end; ++i) {
      const Real* r = reach + static_cast<std::int64_t>(i) * W;
      HULHE_LANES_INDEPENDENT
      for (int l = 0; l < W; ++l) s[0][l] += static_cast<double>(r[l]);
    }
    double* c = card + run.card * W;
    HULHE_LANES_INDEPENDENT
    for (int l = 0; l < W; ++l) {
      const double sum = (s[0][l] + s[1][l]) + (s[2][l] + s[3][l]);
      c[l] += sum;
      total[l] += sum;
    }
  }
  const std::uint8_t* b = hands.card_b.data();
  for (std::int32_t i = 0; i < hands.size(); ++i) {
    const Real* r = reach + static_cast<std::int64_t>(i) * W;
    double* c = card + b[i] * W;
    HULHE_LANES_INDEPENDENT
    for (int l = 0; l < W; ++l) c[l] += static_cast<double>(r[l]);
  }
}

}  // namespace

RangeHands::RangeHands(const PrivateHands& all, CardSet root_board) {
  if (all.num_hole_cards != 2 || all.size() > kMostHands)
    throw InputError("the range solver needs a game with 2 hole cards");
  for (std::int32_t h = 0; h < all.size(); ++h) {
    if (all.masks[h].intersects(root_board)) continue;
    full.push_back(h);
    card_a.push_back(static_cast<std::uint8_t>(all.cards[h][0]));
    card_b.push_back(static_cast<std::uint8_t>(all.cards[h][1]));
  }
  for (std::int32_t i = 0; i < size(); ++i)
    if (runs.empty() || runs.back().card != card_a[i])
      runs.push_back({card_a[i], i, i + 1});
    else
      runs.back().end = i + 1;
}

RangeShowdown::RangeShowdown(const GameDefinition& game, const PrivateHands& all,
                             const RangeHands& hands, CardSet board) {
  // The game's showdown order (public_tree/terminal_values.h), in the solver's hand indices.
  const ShowdownOrder order = make_showdown_order(game, all, board);
  std::vector<std::int32_t> slot(all.size(), -1);
  for (std::int32_t i = 0; i < hands.size(); ++i) slot[hands.full[i]] = i;
  for (std::int32_t i = 0; i < hands.size(); ++i)
    if (all.masks[hands.full[i]].intersects(board)) touching.push_back(i);
  const std::int32_t m = static_cast<std::int32_t>(order.hands.size());
  for (std::int32_t k = 0; k < m; ++k) {
    // Hands touching the root board are not the solver's; they touch `board` too.
    const std::int32_t i = slot[order.hands[k]];
    hand.push_back(i);
    card_a.push_back(hands.card_a[i]);
    card_b.push_back(hands.card_b[i]);
  }
  group_end.resize(m);
  for (std::int32_t end = m; end > 0;) {
    std::int32_t start = end;
    while (start > 0 && order.ranks[start - 1] == order.ranks[end - 1]) --start;
    for (std::int32_t i = start; i < end; ++i) group_end[i] = end;
    end = start;
  }
}

template <typename Real>
void range_fold_values(const RangeHands& hands, const Real* live, const Real* opp_reach,
                       Real payoff, Real* out) {
  const std::int32_t n = hands.size();
  const std::uint8_t* a = hands.card_a.data();
  const std::uint8_t* b = hands.card_b.data();
  std::array<double, kMaxCards> card{};  // opponent reach of the hands holding each card
  const double total = add_card_sums(hands, opp_reach, card.data());
  // T − C[a] − C[b] + π(h): the hand identical to h was subtracted twice.
  for (std::int32_t h = 0; h < n; ++h)
    out[h] = live[h] * payoff *
             static_cast<Real>(total - card[a[h]] - card[b[h]] + static_cast<double>(opp_reach[h]));
}

template <typename Real>
void range_showdown_values(const RangeHands& hands, const RangeShowdown& order,
                           const Real* opp_reach, Real win, Real lose, Real* out) {
  for (const std::int32_t h : order.touching) out[h] = 0;  // the sweep writes every other
  const std::int32_t m = static_cast<std::int32_t>(order.hand.size());
  const std::int32_t* hand = order.hand.data();
  const std::uint8_t* a = order.card_a.data();
  const std::uint8_t* b = order.card_b.data();
  const std::int32_t* end_of = order.group_end.data();
  std::array<double, kMaxCards> card{}, card_below{};
  const double total = add_card_sums(hands, opp_reach, card.data());
  const double w = win, l = lose;
  std::array<double, kMostHands> weaker;  // a tie group's W
  double below = 0.0;
  for (std::int32_t i = 0; i < m;) {
    const std::int32_t end = end_of[i];
    if (end == i + 1) {
      // A hand tied with no other: W' = W (counting it adds its reach once and takes it off
      // twice through its cards, plus the one added back).
      const double r = opp_reach[hand[i]];
      const double weak = below - card_below[a[i]] - card_below[b[i]];
      const double disjoint = total - card[a[i]] - card[b[i]] + r;
      out[hand[i]] = static_cast<Real>(w * weak + l * (disjoint - weak));
      below += r;
      card_below[a[i]] += r;
      card_below[b[i]] += r;
      i = end;
      continue;
    }
    for (std::int32_t j = i; j < end; ++j) weaker[j] = below - card_below[a[j]] - card_below[b[j]];
    for (std::int32_t j = i; j < end; ++j) {
      const double r = opp_reach[hand[j]];
      below += r;
      card_below[a[j]] += r;
      card_below[b[j]] += r;
    }
    for (std::int32_t j = i; j < end; ++j) {
      const double r = opp_reach[hand[j]];
      const double with_ties = below - card_below[a[j]] - card_below[b[j]] + r;
      const double disjoint = total - card[a[j]] - card[b[j]] + r;
      out[hand[j]] = static_cast<Real>(w * weaker[j] + l * (disjoint - with_ties));
    }
    i = end;
  }
}

template <typename Real, int W>
void range_fold_lanes(const RangeHands& hands, const Real* live, const Real* reach,
                      const Real* payoff, Real* out) {
  const std::int32_t n = hands.size();
  const std::uint8_t* a = hands.card_a.data();
  const std::uint8_t* b = hands.card_b.data();
  alignas(64) double card[kMaxCards * W] = {};
  alignas(64) double total[W] = {};
  add_card_sums_lanes<Real, W>(hands, reach, card, total);
  for (std::int32_t h = 0; h < n; ++h) {
    const Real* __restrict r = reach + static_cast<std::int64_t>(h) * W;
    const double* __restrict ca = card + a[h] * W;
    const double* __restrict cb = card + b[h] * W;
    Real* __restrict o = out + static_cast<std::int64_t>(h) * W;
    HULHE_LANES_INDEPENDENT
    for (int l = 0; l < W; ++l)
      o[l] = live[h] * payoff[l] *
             static_cast<Real>(total[l] - ca[l] - cb[l] + static_cast<double>(r[l]));
  }
}

template <typename Real, int W>
void range_showdown_lanes(const RangeHands& hands, const RangeShowdown& order, const Real* reach,
                          const double* win, const double* lose, Real* out) {
  for (const std::int32_t h : order.touching)
    std::fill(out + static_cast<std::int64_t>(h) * W, out + static_cast<std::int64_t>(h + 1) * W,
              Real(0));
  const std::int32_t m = static_cast<std::int32_t>(order.hand.size());
  const std::int32_t* hand = order.hand.data();
  const std::uint8_t* a = order.card_a.data();
  const std::uint8_t* b = order.card_b.data();
  const std::int32_t* end_of = order.group_end.data();
  alignas(64) double card[kMaxCards * W] = {};
  alignas(64) double card_below[kMaxCards * W] = {};
  alignas(64) double total[W] = {}, below[W] = {}, w[W], l[W];
  HULHE_LANES_INDEPENDENT
  for (int k = 0; k < W; ++k) {
    w[k] = win[k];
    l[k] = lose[k];
  }
  add_card_sums_lanes<Real, W>(hands, reach, card, total);
  thread_local std::vector<double> weaker;  // a tie group's W, per lane
  for (std::int32_t i = 0; i < m;) {
    const std::int32_t end = end_of[i];
    if (end == i + 1) {
      const Real* __restrict r = reach + static_cast<std::int64_t>(hand[i]) * W;
      double* __restrict xa = card_below + a[i] * W;
      double* __restrict xb = card_below + b[i] * W;
      const double* __restrict ta = card + a[i] * W;
      const double* __restrict tb = card + b[i] * W;
      Real* __restrict o = out + static_cast<std::int64_t>(hand[i]) * W;
      HULHE_LANES_INDEPENDENT
      for (int k = 0; k < W; ++k) {
        const double x = static_cast<double>(r[k]);
        const double weak = below[k] - xa[k] - xb[k];
        const double disjoint = total[k] - ta[k] - tb[k] + x;
        o[k] = static_cast<Real>(w[k] * weak + l[k] * (disjoint - weak));
        below[k] += x;
        xa[k] += x;
        xb[k] += x;
      }
      i = end;
      continue;
    }
    weaker.resize(static_cast<std::size_t>(end - i) * W);
    for (std::int32_t j = i; j < end; ++j) {
      const double* xa = card_below + a[j] * W;
      const double* xb = card_below + b[j] * W;
      double* wk = weaker.data() + static_cast<std::int64_t>(j - i) * W;
      HULHE_LANES_INDEPENDENT
      for (int k = 0; k < W; ++k) wk[k] = below[k] - xa[k] - xb[k];
    }
    for (std::int32_t j = i; j < end; ++j) {
      const Real* r = reach + static_cast<std::int64_t>(hand[j]) * W;
      double* xa = card_below + a[j] * W;
      double* xb = card_below + b[j] * W;
      HULHE_LANES_INDEPENDENT
      for (int k = 0; k < W; ++k) {
        const double x = static_cast<double>(r[k]);
        below[k] += x;
        xa[k] += x;
        xb[k] += x;
      }
    }
    for (std::int32_t j = i; j < end; ++j) {
      const Real* r = reach + static_cast<std::int64_t>(hand[j]) * W;
      const double* xa = card_below + a[j] * W;
      const double* xb = card_below + b[j] * W;
      const double* ta = card + a[j] * W;
      const double* tb = card + b[j] * W;
      const double* wk = weaker.data() + static_cast<std::int64_t>(j - i) * W;
      Real* o = out + static_cast<std::int64_t>(hand[j]) * W;
      HULHE_LANES_INDEPENDENT
      for (int k = 0; k < W; ++k) {
        const double x = static_cast<double>(r[k]);
        const double with_ties = below[k] - xa[k] - xb[k] + x;
        const double disjoint = total[k] - ta[k] - tb[k] + x;
        o[k] = static_cast<Real>(w[k] * wk[k] + l[k] * (disjoint - with_ties));
      }
    }
    i = end;
  }
}

template void range_fold_values<float>(const RangeHands&, const float*, const float*, float,
                                       float*);
template void range_fold_values<double>(const RangeHands&, const double*, const double*, double,
                                        double*);
template void range_showdown_values<float>(const RangeHands&, const RangeShowdown&, const float*,
                                           float, float, float*);
template void range_showdown_values<double>(const RangeHands&, const RangeShowdown&, const double*,
                                            double, double, double*);

#define HULHE_RANGE_LANES(Real, W)                                                     \
  template void range_fold_lanes<Real, W>(const RangeHands&, const Real*, const Real*, \
                                          const Real*, Real*);                         \
  template void range_showdown_lanes<Real, W>(const RangeHands&, const RangeShowdown&, \
                                              const Real*, const double*, const double*, Real*);
HULHE_RANGE_LANES(float, 4)
HULHE_RANGE_LANES(float, 8)
HULHE_RANGE_LANES(float, 12)
HULHE_RANGE_LANES(float, 16)
HULHE_RANGE_LANES(double, 4)
HULHE_RANGE_LANES(double, 8)
HULHE_RANGE_LANES(double, 12)
HULHE_RANGE_LANES(double, 16)
#undef HULHE_RANGE_LANES

}  // namespace hulhe
