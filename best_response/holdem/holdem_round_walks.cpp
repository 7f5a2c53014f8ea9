// The walks of the real-game hold'em best response (holdem_best_response.h): within one
// round, a forward pass of the opponent's reach to the sequences entering the next round
// and a backward pass of the traverser's values (max for a best response, the fixed
// strategy's mix head to head); the rounds, each board's next round dealt and valued once for
// every sequence (the last one batched in HoldemLastRound); one work unit (a canonical flop);
// the preflop's forward pass and the responder's reach coefficients of a sampled run.
#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "best_response/holdem/holdem_best_response_walk.h"
#include "public_tree/terminal_values.h"
#include "util/combinatorics.h"

namespace hulhe {

// Opponent's reach at every sequence entering round r + 1 (into ws.raw[r + 1]).
void HoldemBestResponse::Impl::forward(Workspace& ws, int t, int r, std::int32_t i,
                                       const double* reach, int depth) const {
  const FlatNode& nd = nodes[i];
  if (nd.round > r) {
    std::copy(reach, reach + n, at(ws.raw[r + 1], r + 1, t, entry[i]));
    ws.live[r + 1][t * entries[r + 1].size() + entry[i]] = 1;
    return;
  }
  if (nd.kind != NodeKind::kDecision) return;
  if (nd.player == t) {
    for (int a = 0; a < nd.num_actions; ++a) forward(ws, t, r, nd.child[a], reach, depth + 1);
    return;
  }
  double* cr = ws.scratch.data() + static_cast<std::size_t>(depth) * 4 * n + 3 * n;
  const std::int32_t* bk = ws.bk_opp[r].data();
  const double* s = opp_strat.data() + nd.table_offset;
  const int A = nd.num_actions;
  for (int a = 0; a < A; ++a) {
    double live = 0.0;
    for (std::int32_t h = 0; h < n; ++h) {
      cr[h] = bk[h] >= 0 ? reach[h] * s[static_cast<std::int64_t>(bk[h]) * A + a] : 0.0;
      live += cr[h];
    }
    if (live > 0.0) forward(ws, t, r, nd.child[a], cr, depth + 1);
  }
}

// Values for the traverser's hands at node i of round r given the opponent's reach there;
// next-round leaves read ws.acc[r + 1] (averaged next-round values).
void HoldemBestResponse::Impl::value(Workspace& ws, int t, int r, std::int32_t i,
                                     const double* reach, double* out, int depth) const {
  const FlatNode& nd = nodes[i];
  if (nd.round > r) {
    const std::size_t live_index = t * entries[r + 1].size() + entry[i];
    if (ws.live[r + 1][live_index]) {
      const double* a = at(ws.acc[r + 1], r + 1, t, entry[i]);
      std::copy(a, a + n, out);
    } else {
      std::fill(out, out + n, 0.0);
    }
    return;
  }
  if (nd.kind == NodeKind::kFold) {
    fold_values(hands, ws.bk_opp[r].data(), reach, nd.win[t], out);
    return;
  }
  double* cv = ws.scratch.data() + static_cast<std::size_t>(depth) * 4 * n;
  double* cr = cv + 3 * n;
  const int A = nd.num_actions;
  if (nd.player == t) {
    for (int a = 0; a < A; ++a) value(ws, t, r, nd.child[a], reach, cv + a * n, depth + 1);
    if (fixed == nullptr) {
      std::int8_t* choice =
          r == 0 ? ws.choice.data() + (static_cast<std::size_t>(t) * tree.num_decision_nodes(0) +
                                       tree.nodes()[i].id_in_round) *
                                          n
                 : nullptr;
      for (std::int32_t h = 0; h < n; ++h) {
        double best = cv[h];
        int arg = 0;
        for (int a = 1; a < A; ++a)
          if (cv[a * n + h] > best) {
            best = cv[a * n + h];
            arg = a;
          }
        out[h] = best;
        if (choice != nullptr) choice[h] = static_cast<std::int8_t>(arg);
      }
    } else {
      const std::int32_t* bk = ws.bk_fix[r].data();
      const double* s = fix_strat.data() + fix_off[r][tree.nodes()[i].id_in_round];
      for (std::int32_t h = 0; h < n; ++h) {
        if (bk[h] < 0) {
          out[h] = 0.0;
          continue;
        }
        const double* p = s + static_cast<std::int64_t>(bk[h]) * A;
        double v = 0.0;
        for (int a = 0; a < A; ++a) v += p[a] * cv[a * n + h];
        out[h] = v;
      }
    }
    return;
  }
  std::fill(out, out + n, 0.0);
  const std::int32_t* bk = ws.bk_opp[r].data();
  const double* s = opp_strat.data() + nd.table_offset;
  for (int a = 0; a < A; ++a) {
    double live = 0.0;
    for (std::int32_t h = 0; h < n; ++h) {
      cr[h] = bk[h] >= 0 ? reach[h] * s[static_cast<std::int64_t>(bk[h]) * A + a] : 0.0;
      live += cr[h];
    }
    if (live == 0.0) continue;
    value(ws, t, r, nd.child[a], cr, cv, depth + 1);
    for (std::int32_t h = 0; h < n; ++h) out[h] += cv[h];
  }
}

void HoldemBestResponse::Impl::lookup_buckets(Workspace& ws, int r) const {
  const CardSet board = ws.board_mask[r];
  const Card* bc = ws.board[r].data();
  const CardAbstraction& ao = opp.abstraction();
  for (std::int32_t h = 0; h < n; ++h) {
    if (hands.masks[h].intersects(board)) {
      ws.bk_opp[r][h] = -1;
      ws.bk_fix[r][h] = -1;
      continue;
    }
    ws.bk_opp[r][h] = ao.bucket(r, hands.cards[h].data(), bc);
    if (fixed != nullptr)
      ws.bk_fix[r][h] = fixed->abstraction().bucket(r, hands.cards[h].data(), bc);
  }
}

void HoldemBestResponse::Impl::accumulate_last(Workspace& ws, int r, int deal, const double* reach,
                                               const std::uint8_t* live, double* out) const {
  if (single)
    last_single->accumulate(ws.last_single, ws.board[r].data(), ws.board_mask[r],
                            game.total_board_cards(r), deal, reach, live, out, suits());
  else
    last_double->accumulate(ws.last_double, ws.board[r].data(), ws.board_mask[r],
                            game.total_board_cards(r), deal, reach, live, out, suits());
}

// Values at every sequence entering round r (ws.values[r]) given the board of round r in
// ws.board/board_mask and the opponent's reach there (ws.reach[r], ws.live[r]).
void HoldemBestResponse::Impl::process(Workspace& ws, int r) const {
  const auto E = static_cast<std::int32_t>(entries[r].size());
  if (opt.subgames != nullptr && r == opt.subgames->round()) {
    const std::span<const Card> board(ws.board[r].data(), game.total_board_cards(r));
    // Units one at a time (ws.resolves set): this deal's re-solves share the threads. Each
    // writes only its own values, so the result is the same for any thread count.
    const int threads = ws.resolves != nullptr ? std::max(1, opt.threads) : 1;
    const std::int32_t calls = 2 * E;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
    for (std::int32_t i = 0; i < calls; ++i) {
      const int t = i / E;
      const std::int32_t e = i % E;
      double* out = at(ws.values[r], r, t, e);
      if (ws.live[r][i])
        opt.subgames->best_response_values(entries[r][e], board, t, at(ws.reach[r], r, t, e), out);
      else
        std::fill(out, out + n, 0.0);
      if (ws.resolves != nullptr) ws.resolves->add(1, true);
    }
    return;
  }
  if (r == rounds - 1) {  // a 2-round game's flop: the board is complete
    std::fill(ws.values[r].begin(), ws.values[r].end(), 0.0);
    accumulate_last(ws, r, 0, ws.reach[r].data(), ws.live[r].data(), ws.values[r].data());
    return;
  }
  lookup_buckets(ws, r);
  const int q = r + 1;
  std::fill(ws.live[q].begin(), ws.live[q].end(), 0);
  for (int t = 0; t < 2; ++t)
    for (std::int32_t e = 0; e < E; ++e)
      if (ws.live[r][t * E + e]) forward(ws, t, r, entries[r][e], at(ws.reach[r], r, t, e), 0);
  std::fill(ws.acc[q].begin(), ws.acc[q].end(), 0.0);
  // The last round in one batch, unless its subgames come from opt.subgames (then each
  // deal goes through process() as the rounds before it do).
  if (q == rounds - 1 && !(opt.subgames != nullptr && opt.subgames->round() == q)) {
    accumulate_last(ws, r, fresh[q], ws.raw[q].data(), ws.live[q].data(), ws.acc[q].data());
  } else {
    deal_next_round(ws, r);
  }
  const double inv = 1.0 / compat[r];
  for (double& v : ws.acc[q]) v *= inv;
  for (int t = 0; t < 2; ++t)
    for (std::int32_t e = 0; e < E; ++e) {
      double* out = at(ws.values[r], r, t, e);
      if (ws.live[r][t * E + e])
        value(ws, t, r, entries[r][e], at(ws.reach[r], r, t, e), out, 0);
      else
        std::fill(out, out + n, 0.0);
    }
}

// Sums round q = r + 1's values over its deals into ws.acc[q] (a round before the last).
void HoldemBestResponse::Impl::deal_next_round(Workspace& ws, int r) const {
  const int q = r + 1;
  const auto En = static_cast<std::int32_t>(entries[q].size());
  // Deal round q's cards: every k-subset of the cards not on the board.
  const int k = fresh[q];
  const int base = game.total_board_cards(r);
  std::array<Card, kMaxCards> pool{};
  int m = 0;
  for (Card c : deck)
    if (!ws.board_mask[r].contains(c)) pool[m++] = c;
  std::array<int, kMaxBoardCards> pos{};
  for (int i = 0; i < k; ++i) pos[i] = i;
  // With suit isomorphism, one deal per orbit of the board's stabilizer (canonical_flops.h).
  const std::vector<std::int32_t> group =
      suits() != nullptr ? board_stabilizer(flops, ws.board_mask[r]) : std::vector<std::int32_t>{0};
  const bool symmetric = group.size() > 1;
  // The deal journal holds the values of each deal of the round after the flop.
  DealJournal* const journal = r == 1 ? ws.journal : nullptr;
  std::int64_t walked = 0;  // the deal's index among those walked (the journal's numbering)
  while (true) {
    CardSet added;
    ws.board[q] = ws.board[r];
    for (int i = 0; i < k; ++i) {
      ws.board[q][base + i] = pool[pos[i]];
      added.insert(pool[pos[i]]);
    }
    const std::int32_t weight = symmetric ? deal_orbit_size(flops, group, added) : 1;
    if (weight == 0) {
      if (!next_k_subset(pos, k, m)) break;
      continue;
    }
    ws.board_mask[q] = ws.board_mask[r] | added;
    const std::int64_t deal = walked++;
    if (journal != nullptr && journal->restore(ws.flop, deal, ws.values[q].data())) {
      if (ws.resolves != nullptr) ws.resolves->add(resolves_below(ws.board_mask[q], q), false);
    } else {
      for (int t = 0; t < 2; ++t)
        for (std::int32_t e = 0; e < En; ++e) {
          if (!ws.live[q][t * En + e]) continue;
          const double* src = at(ws.raw[q], q, t, e);
          double* dst = at(ws.reach[q], q, t, e);
          for (std::int32_t h = 0; h < n; ++h)
            dst[h] = hands.masks[h].intersects(added) ? 0.0 : src[h];
        }
      process(ws, q);
      if (journal != nullptr) journal->save(ws.flop, deal, ws.values[q].data());
    }
    for (int t = 0; t < 2; ++t)
      for (std::int32_t e = 0; e < En; ++e) {
        if (!ws.live[q][t * En + e]) continue;
        const double* src = at(ws.values[q], q, t, e);
        double* dst = at(ws.acc[q], q, t, e);
        for (std::int32_t h = 0; h < n; ++h) dst[h] += weight * src[h];
      }
    if (!next_k_subset(pos, k, m)) break;
  }
  if (!symmetric) return;
  // Each walked deal stood for its orbit: Σ_π V(π h) / |G|.
  const double inv = 1.0 / static_cast<double>(group.size());
  std::vector<double>& tmp = ws.scratch;
  for (int t = 0; t < 2; ++t)
    for (std::int32_t e = 0; e < En; ++e) {
      if (!ws.live[q][t * En + e]) continue;
      double* v = at(ws.acc[q], q, t, e);
      for (std::int32_t h = 0; h < n; ++h) {
        double x = 0.0;
        for (std::int32_t p : group) x += v[flops.hand_perm[p][h]];
        tmp[h] = x * inv;
      }
      std::copy(tmp.begin(), tmp.begin() + n, v);
    }
}

// One work unit: flop class c; its values summed over the flop's orbit into `out`
// ([t][flop entry][hand]). `pre` holds the preflop forward pass (raw[1], live[1]).
void HoldemBestResponse::Impl::unit(Workspace& ws, const Workspace& pre, std::int32_t c,
                                    double* out) const {
  const CanonicalFlop& f = flops.flops[c];
  ws.flop = c;
  ws.board[1] = f.cards;
  ws.board_mask[1] = f.mask;
  ws.board_mask[0] = CardSet();
  ws.live[1] = pre.live[1];
  const auto E = static_cast<std::int32_t>(entries[1].size());
  for (int t = 0; t < 2; ++t)
    for (std::int32_t e = 0; e < E; ++e) {
      const double* src = at(pre.raw[1], 1, t, e);
      double* dst = at(ws.reach[1], 1, t, e);
      for (std::int32_t h = 0; h < n; ++h)
        dst[h] = hands.masks[h].intersects(f.mask) ? 0.0 : src[h];
    }
  process(ws, 1);
  // Orbit sum (canonical_flops.h): S(h) = weight / |G| · Σ_π V(π h).
  const double scale = static_cast<double>(f.weight) / static_cast<double>(flops.hand_perm.size());
  const std::size_t total = 2 * block(1);
  std::fill(out, out + total, 0.0);
  for (const auto& perm : flops.hand_perm)
    for (std::size_t b = 0; b < total; b += n) {
      const double* v = ws.values[1].data() + b;
      for (std::int32_t h = 0; h < n; ++h) out[b + h] += v[perm[h]];
    }
  for (std::size_t i = 0; i < total; ++i) out[i] *= scale;
}

std::int64_t HoldemBestResponse::Impl::deals_to(CardSet board, int r, int to) const {
  if (r >= to) return 1;
  const int q = r + 1;
  const int k = fresh[q];
  std::array<Card, kMaxCards> pool{};
  int m = 0;
  for (Card c : deck)
    if (!board.contains(c)) pool[m++] = c;
  std::array<int, kMaxBoardCards> pos{};
  for (int i = 0; i < k; ++i) pos[i] = i;
  const std::vector<std::int32_t> group =
      suits() != nullptr ? board_stabilizer(flops, board) : std::vector<std::int32_t>{0};
  std::int64_t count = 0;
  while (true) {
    CardSet added;
    for (int i = 0; i < k; ++i) added.insert(pool[pos[i]]);
    if (group.size() <= 1 || deal_orbit_size(flops, group, added) != 0)
      count += deals_to(board | added, q, to);
    if (!next_k_subset(pos, k, m)) break;
  }
  return count;
}

std::int64_t HoldemBestResponse::Impl::resolves_below(CardSet board, int r) const {
  const int to = opt.subgames->round();
  return deals_to(board, r, to) * 2 * static_cast<std::int64_t>(entries[to].size());
}

// Preflop: buckets (empty board) and the forward pass to the flop.
void HoldemBestResponse::Impl::preflop_forward(Workspace& ws) const {
  ws.board_mask[0] = CardSet();
  lookup_buckets(ws, 0);
  std::vector<double> ones(n, 1.0);
  std::fill(ws.live[1].begin(), ws.live[1].end(), 0);
  for (int t = 0; t < 2; ++t) forward(ws, t, 0, 0, ones.data(), 0);
}

// Traverser's reach (0/1 for BR's choices, or the fixed strategy's product) at every flop
// entry, for each seat: coef[t][e][h].
void HoldemBestResponse::Impl::coefficients(Workspace& ws, int t, std::int32_t i,
                                            const double* reach, std::vector<double>& coef,
                                            int depth) const {
  const FlatNode& nd = nodes[i];
  if (nd.round > 0) {
    std::copy(reach, reach + n,
              coef.data() + (static_cast<std::size_t>(t) * entries[1].size() + entry[i]) * n);
    return;
  }
  if (nd.kind != NodeKind::kDecision) return;
  if (nd.player != t) {
    for (int a = 0; a < nd.num_actions; ++a) coefficients(ws, t, nd.child[a], reach, coef, depth);
    return;
  }
  std::vector<double> cr(n);
  const std::int32_t id = tree.nodes()[i].id_in_round;
  const int A = nd.num_actions;
  for (int a = 0; a < A; ++a) {
    for (std::int32_t h = 0; h < n; ++h) {
      double p;
      if (fixed == nullptr)
        p = ws.choice[(static_cast<std::size_t>(t) * tree.num_decision_nodes(0) + id) * n + h] == a
                ? 1.0
                : 0.0;
      else
        p = fix_strat[fix_off[0][id] + static_cast<std::int64_t>(ws.bk_fix[0][h]) * A + a];
      cr[h] = reach[h] * p;
    }
    coefficients(ws, t, nd.child[a], cr.data(), coef, depth + 1);
  }
}

}  // namespace hulhe
