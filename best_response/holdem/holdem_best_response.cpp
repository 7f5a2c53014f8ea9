#include "best_response/holdem/holdem_best_response.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <span>

#include "abstraction/bucket_map.h"
#include "best_response/holdem/holdem_last_round.h"
#include "best_response/holdem/resume_log.h"
#include "best_response/holdem/systematic_sample.h"
#include "game/hand_evaluator.h"
#include "public_tree/sampled_deal.h"
#include "util/input_error.h"
#include "util/progress_pace.h"

namespace hulhe {
namespace {

using Clock = std::chrono::steady_clock;

struct Node {
  NodeKind kind = NodeKind::kDecision;
  std::uint8_t round = 0;
  std::uint8_t player = 0;
  std::uint8_t num_actions = 0;
  std::array<std::int32_t, kNumActionKinds> child{-1, -1, -1};
  std::int32_t entry = -1;  // id among the sequences entering its round, if it starts one
  std::int64_t offset = 0;  // decision: strategy offset of bucket 0
  std::array<std::int32_t, 2> committed{};
};

// The policy's action probabilities at every information set, flat, by (round, node, bucket).
std::vector<double> read_strategy(const Policy& policy,
                                  std::array<std::vector<std::int64_t>, kMaxRounds>& offsets) {
  const BettingTree& tree = policy.tree();
  const CardAbstraction& abs = policy.abstraction();
  std::int64_t size = 0;
  for (int r = 0; r < tree.game().num_rounds; ++r) {
    offsets[r].resize(tree.num_decision_nodes(r));
    for (std::int32_t id = 0; id < tree.num_decision_nodes(r); ++id) {
      offsets[r][id] = size;
      size += static_cast<std::int64_t>(tree.node(tree.decision_node(r, id)).num_actions) *
              abs.num_buckets(r);
    }
  }
  std::vector<double> s(size);
  for (int r = 0; r < tree.game().num_rounds; ++r)
    for (std::int32_t id = 0; id < tree.num_decision_nodes(r); ++id) {
      const int a = tree.node(tree.decision_node(r, id)).num_actions;
      for (std::int32_t b = 0; b < abs.num_buckets(r); ++b)
        policy.action_probabilities(
            r, id, b,
            std::span<double>(s.data() + offsets[r][id] + static_cast<std::int64_t>(b) * a,
                              static_cast<std::size_t>(a)));
    }
  return s;
}

// Progress after the f-th of `todo` units this run (`resumed` read back, `total` in all),
// `elapsed` seconds in, on `threads` threads (all ranks' threads for a run over ranks).
EvaluationProgress unit_progress(std::int64_t f, std::int64_t todo, std::int64_t resumed,
                                 std::int64_t total, double elapsed, int threads) {
  const Pace p = pace(f, todo - f, elapsed);
  EvaluationProgress e;
  e.done = resumed + f;
  e.total = total;
  e.computed = f;
  e.elapsed_seconds = p.elapsed_seconds;
  e.per_second = p.per_second;
  e.eta_seconds = p.eta_seconds;
  e.seconds_per_unit_per_thread = p.elapsed_seconds * threads / static_cast<double>(f);
  e.last = f == todo;
  return e;
}

}  // namespace

bool is_suit_symmetric(const CardAbstraction& abstraction, const GameDefinition& game, int samples,
                       std::uint64_t seed) {
  const std::vector<Card> deck = game.deck();
  std::vector<int> suits;
  for (Card c : deck)
    if (std::find(suits.begin(), suits.end(), suit_of(c)) == suits.end())
      suits.push_back(suit_of(c));
  if (suits.size() < 2) return true;
  SplitMix64 rng(seed);
  std::vector<Card> cards = deck;
  for (int r = 0; r < abstraction.num_rounds(); ++r) {
    const int need = game.num_hole_cards + game.total_board_cards(r);
    if (need > static_cast<int>(deck.size())) continue;
    for (int s = 0; s < samples; ++s) {
      for (int i = 0; i < need; ++i) std::swap(cards[i], cards[i + rng.below(cards.size() - i)]);
      std::vector<int> image = suits;
      for (std::size_t i = 0; i + 1 < image.size(); ++i)
        std::swap(image[i], image[i + rng.below(image.size() - i)]);
      std::array<Card, kMaxHoleCards + kMaxBoardCards> p{};
      for (int i = 0; i < need; ++i) {
        const auto k = std::find(suits.begin(), suits.end(), suit_of(cards[i])) - suits.begin();
        p[i] = make_card(rank_of(cards[i]), image[k]);
      }
      const int h = game.num_hole_cards;
      if (abstraction.bucket(r, cards.data(), cards.data() + h) !=
          abstraction.bucket(r, p.data(), p.data() + h))
        return false;
    }
  }
  return true;
}

struct HoldemBestResponse::Impl {
  struct Workspace {
    std::array<std::vector<std::int32_t>, kMaxRounds> bk_opp, bk_fix;  // -1: clashes with board
    std::array<CardSet, kMaxRounds> board_mask;
    std::array<std::array<Card, kMaxBoardCards>, kMaxRounds> board{};
    std::array<std::vector<double>, kMaxRounds> reach, raw, acc, values;  // [t][entry][hand]
    std::array<std::vector<std::uint8_t>, kMaxRounds> live;               // [t][entry]
    std::vector<double> scratch;                                          // 4n per depth
    HoldemLastRound<float>::Scratch last_single;
    HoldemLastRound<double>::Scratch last_double;
    std::vector<std::int8_t> choice;  // preflop: [t][decision id][hand], BR's action slot
  };

  const Policy& opp;
  const Policy* fixed = nullptr;
  HoldemBestResponseOptions opt;
  const BettingTree& tree;
  const GameDefinition& game;
  PrivateHands hands;
  std::int32_t n = 0;
  int rounds = 0;
  std::vector<Node> nodes;
  std::array<std::vector<std::int32_t>, kMaxRounds> entries;  // node index per entry id
  std::array<std::vector<std::int64_t>, kMaxRounds> opp_off, fix_off;
  std::vector<double> opp_strat, fix_strat;
  FlopClasses flops;
  std::array<int, kMaxRounds> fresh{};      // board cards dealt at the start of round r
  std::array<double, kMaxRounds> compat{};  // boards of round r+1 compatible with two hands
  std::vector<Card> deck;
  std::vector<Card> c1, c2;  // hole cards per hand
  // The last round's batched walk, in the precision chosen (one of the two is set).
  std::unique_ptr<HoldemLastRound<float>> last_single;
  std::unique_ptr<HoldemLastRound<double>> last_double;
  int max_depth = 0;
  bool single = false;
  std::uint64_t run_key = 0;

  Impl(const Policy& o, const Policy* f, HoldemBestResponseOptions options)
      : opp(o), fixed(f), opt(std::move(options)), tree(o.tree()), game(o.tree().game()) {
    if (game.num_players != 2 || game.num_hole_cards != 2 || game.num_rounds < 2 ||
        game.num_board_cards[0] != 0)
      throw InputError("game '" + game.name +
                       "': the hold'em best response needs 2 players, 2 hole cards, 2 to 4 "
                       "rounds and no board before the first round");
    if (fixed != nullptr && !(fixed->tree().game() == game))
      throw InputError("the two strategies are of different games");
    if (opt.subgames != nullptr &&
        (fixed != nullptr || opt.subgames->round() < 1 || opt.subgames->round() >= game.num_rounds))
      throw InputError("game '" + game.name + "': no round " +
                       std::to_string(opt.subgames->round()) +
                       " to take subgame values from (rounds 1 to " +
                       std::to_string(game.num_rounds - 1) + ", best responses only)");
    hands = enumerate_private_hands(game);
    n = hands.size();
    rounds = game.num_rounds;
    deck = game.deck();
    for (std::int32_t h = 0; h < n; ++h) {
      c1.push_back(hands.cards[h][0]);
      c2.push_back(hands.cards[h][1]);
    }
    for (int r = 0; r < rounds; ++r) fresh[r] = game.num_board_cards[r];
    for (int r = 0; r + 1 < rounds; ++r)
      compat[r] = static_cast<double>(
          binomial(game.deck_size() - game.total_board_cards(r) - 4, fresh[r + 1]));

    nodes.resize(tree.nodes().size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const BettingNode& b = tree.nodes()[i];
      Node& nd = nodes[i];
      nd.kind = b.kind;
      nd.round = b.round;
      nd.player = b.player;
      nd.num_actions = b.num_actions;
      nd.child = b.child;
      nd.committed = b.committed;
      if (b.kind == NodeKind::kShowdown && b.round != rounds - 1)
        throw InputError("game '" + game.name + "': a showdown before the last round");
      const bool starts = i == 0 || b.round > tree.node(b.parent).round;
      if (starts) {
        nd.entry = static_cast<std::int32_t>(entries[b.round].size());
        entries[b.round].push_back(static_cast<std::int32_t>(i));
      }
    }
    opp_strat = read_strategy(opp, opp_off);
    if (fixed != nullptr) fix_strat = read_strategy(*fixed, fix_off);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      Node& nd = nodes[i];
      if (nd.kind != NodeKind::kDecision) continue;
      const std::int32_t id = tree.nodes()[i].id_in_round;
      nd.offset = opp_off[nd.round][id];
    }
    max_depth = depth_of(0) + 2;
    single = opt.precision == HoldemBestResponseOptions::Precision::kSingle ||
             (opt.precision == HoldemBestResponseOptions::Precision::kAuto &&
              game.deck_size() == kMaxCards);
    if (single)
      last_single = std::make_unique<HoldemLastRound<float>>(opp, fixed, hands, entries[rounds - 1],
                                                             !opt.interpreted_last_round);
    else
      last_double = std::make_unique<HoldemLastRound<double>>(
          opp, fixed, hands, entries[rounds - 1], !opt.interpreted_last_round);

    bool merge = opt.flops == HoldemBestResponseOptions::Flops::kCanonical;
    if (opt.flops == HoldemBestResponseOptions::Flops::kAuto)
      merge = is_suit_symmetric(opp.abstraction(), game) &&
              (fixed == nullptr || is_suit_symmetric(fixed->abstraction(), game));
    flops = make_flop_classes(game, hands, merge);

    // What a resume file must match: the game, both strategies, and which units.
    std::uint64_t key = game.hash();
    key = checksum64(opp_strat.data(), opp_strat.size() * sizeof(double), key);
    if (fixed != nullptr)
      key = checksum64(fix_strat.data(), fix_strat.size() * sizeof(double), key ^ 1);
    // The last word: the sampling design's version (2: systematic along texture order).
    const std::uint64_t mode[6] = {static_cast<std::uint64_t>(merge),
                                   static_cast<std::uint64_t>(opt.sample_flops),
                                   opt.seed,
                                   fixed != nullptr ? 2u : 1u,
                                   single ? 4u : 8u,
                                   2u};
    run_key = checksum64(mode, sizeof mode, key);
    if (opt.subgames != nullptr) {
      const std::uint64_t source[2] = {static_cast<std::uint64_t>(opt.subgames->round()),
                                       opt.subgames->key()};
      run_key = checksum64(source, sizeof source, run_key);
    }
  }

  int depth_of(std::int32_t i) const {
    int d = 0;
    for (int a = 0; a < kNumActionKinds; ++a)
      if (nodes[i].child[a] >= 0) d = std::max(d, depth_of(nodes[i].child[a]));
    return d + 1;
  }

  std::size_t block(int r) const { return entries[r].size() * static_cast<std::size_t>(n); }
  double* at(std::vector<double>& v, int r, int t, std::int32_t e) const {
    return v.data() + (static_cast<std::size_t>(t) * entries[r].size() + e) * n;
  }
  const double* at(const std::vector<double>& v, int r, int t, std::int32_t e) const {
    return v.data() + (static_cast<std::size_t>(t) * entries[r].size() + e) * n;
  }

  void init(Workspace& ws) const {
    for (int r = 0; r < rounds; ++r) {
      ws.bk_opp[r].assign(n, -1);
      ws.bk_fix[r].assign(n, -1);
      for (auto* v : {&ws.reach[r], &ws.raw[r], &ws.acc[r], &ws.values[r]})
        v->assign(2 * block(r), 0.0);
      ws.live[r].assign(2 * entries[r].size(), 0);
    }
    ws.scratch.assign(static_cast<std::size_t>(max_depth + 1) * 4 * n, 0.0);
    ws.choice.assign(2 * static_cast<std::size_t>(tree.num_decision_nodes(0)) * n, 0);
  }

  // --- terminal values, O(n) with card removal (inclusion-exclusion over per-card sums) ---

  void fold_values(const std::int32_t* valid, const double* reach, double payoff,
                   double* out) const {
    std::array<double, kMaxCards> card{};
    double total = 0.0;
    for (std::int32_t h = 0; h < n; ++h) {
      const double p = reach[h];
      total += p;
      card[c1[h]] += p;
      card[c2[h]] += p;
    }
    for (std::int32_t h = 0; h < n; ++h)
      out[h] = valid[h] >= 0 ? payoff * (total - card[c1[h]] - card[c2[h]] + reach[h]) : 0.0;
  }

  // --- the walks within one round ---

  // Opponent's reach at every sequence entering round r + 1 (into ws.raw[r + 1]).
  void forward(Workspace& ws, int t, int r, std::int32_t i, const double* reach, int depth) const {
    const Node& nd = nodes[i];
    if (nd.round > r) {
      std::copy(reach, reach + n, at(ws.raw[r + 1], r + 1, t, nd.entry));
      ws.live[r + 1][t * entries[r + 1].size() + nd.entry] = 1;
      return;
    }
    if (nd.kind != NodeKind::kDecision) return;
    if (nd.player == t) {
      for (int a = 0; a < nd.num_actions; ++a) forward(ws, t, r, nd.child[a], reach, depth + 1);
      return;
    }
    double* cr = ws.scratch.data() + static_cast<std::size_t>(depth) * 4 * n + 3 * n;
    const std::int32_t* bk = ws.bk_opp[r].data();
    const double* s = opp_strat.data() + nd.offset;
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
  void value(Workspace& ws, int t, int r, std::int32_t i, const double* reach, double* out,
             int depth) const {
    const Node& nd = nodes[i];
    if (nd.round > r) {
      const std::size_t live_index = t * entries[r + 1].size() + nd.entry;
      if (ws.live[r + 1][live_index]) {
        const double* a = at(ws.acc[r + 1], r + 1, t, nd.entry);
        std::copy(a, a + n, out);
      } else {
        std::fill(out, out + n, 0.0);
      }
      return;
    }
    if (nd.kind == NodeKind::kFold) {
      const int folder = nd.player;
      const double payoff = folder == t ? -nd.committed[t] : nd.committed[folder];
      fold_values(ws.bk_opp[r].data(), reach, payoff, out);
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
    const double* s = opp_strat.data() + nd.offset;
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

  // --- rounds ---

  void lookup_buckets(Workspace& ws, int r) const {
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

  void accumulate_last(Workspace& ws, int r, int deal, const double* reach,
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
  void process(Workspace& ws, int r) const {
    const auto E = static_cast<std::int32_t>(entries[r].size());
    if (opt.subgames != nullptr && r == opt.subgames->round()) {
      const std::span<const Card> board(ws.board[r].data(), game.total_board_cards(r));
      for (int t = 0; t < 2; ++t)
        for (std::int32_t e = 0; e < E; ++e) {
          double* out = at(ws.values[r], r, t, e);
          if (ws.live[r][t * E + e])
            opt.subgames->best_response_values(entries[r][e], board, t, at(ws.reach[r], r, t, e),
                                               out);
          else
            std::fill(out, out + n, 0.0);
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
  void deal_next_round(Workspace& ws, int r) const {
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
    const std::vector<std::int32_t> group = suits() != nullptr
                                                ? board_stabilizer(flops, ws.board_mask[r])
                                                : std::vector<std::int32_t>{0};
    const bool symmetric = group.size() > 1;
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
      for (int t = 0; t < 2; ++t)
        for (std::int32_t e = 0; e < En; ++e) {
          if (!ws.live[q][t * En + e]) continue;
          const double* src = at(ws.raw[q], q, t, e);
          double* dst = at(ws.reach[q], q, t, e);
          for (std::int32_t h = 0; h < n; ++h)
            dst[h] = hands.masks[h].intersects(added) ? 0.0 : src[h];
        }
      process(ws, q);
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

  // The suit permutations when flops are merged by suit isomorphism (the strategies passed the
  // symmetry check), else null.
  const FlopClasses* suits() const { return flops.hand_perm.size() > 1 ? &flops : nullptr; }

  // One work unit: flop class c; its values summed over the flop's orbit into `out`
  // ([t][flop entry][hand]). `pre` holds the preflop forward pass (raw[1], live[1]).
  void unit(Workspace& ws, const Workspace& pre, std::int32_t c, double* out) const {
    const CanonicalFlop& f = flops.flops[c];
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
    const double scale =
        static_cast<double>(f.weight) / static_cast<double>(flops.hand_perm.size());
    const std::size_t total = 2 * block(1);
    std::fill(out, out + total, 0.0);
    for (const auto& perm : flops.hand_perm)
      for (std::size_t b = 0; b < total; b += n) {
        const double* v = ws.values[1].data() + b;
        for (std::int32_t h = 0; h < n; ++h) out[b + h] += v[perm[h]];
      }
    for (std::size_t i = 0; i < total; ++i) out[i] *= scale;
  }

  // Preflop: buckets (empty board) and the forward pass to the flop.
  void preflop_forward(Workspace& ws) const {
    ws.board_mask[0] = CardSet();
    lookup_buckets(ws, 0);
    std::vector<double> ones(n, 1.0);
    std::fill(ws.live[1].begin(), ws.live[1].end(), 0);
    for (int t = 0; t < 2; ++t) forward(ws, t, 0, 0, ones.data(), 0);
  }

  // Traverser's reach (0/1 for BR's choices, or the fixed strategy's product) at every flop
  // entry, for each seat: coef[t][e][h].
  void coefficients(Workspace& ws, int t, std::int32_t i, const double* reach,
                    std::vector<double>& coef, int depth) const {
    const Node& nd = nodes[i];
    if (nd.round > 0) {
      std::copy(reach, reach + n,
                coef.data() + (static_cast<std::size_t>(t) * entries[1].size() + nd.entry) * n);
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
          p = ws.choice[(static_cast<std::size_t>(t) * tree.num_decision_nodes(0) + id) * n + h] ==
                      a
                  ? 1.0
                  : 0.0;
        else
          p = fix_strat[fix_off[0][id] + static_cast<std::int64_t>(ws.bk_fix[0][h]) * A + a];
        cr[h] = reach[h] * p;
      }
      coefficients(ws, t, nd.child[a], cr.data(), coef, depth + 1);
    }
  }

  // The pieces of run(): the flop units and their draws, the parallel unit loop, and the
  // estimator (flop-entry values, seat values, and a sample's intervals).
  SystematicSample draw_units(bool exact) const;
  std::int64_t compute_units(const Workspace& pre, const std::vector<std::int32_t>& units,
                             std::vector<std::vector<double>>& result,
                             std::vector<std::uint8_t>& done, ResumeLog* log) const;
  std::int64_t distribute_units(const Workspace& pre, const std::vector<std::int32_t>& units,
                                std::vector<std::vector<double>>& result,
                                std::vector<std::uint8_t>& done, ResumeLog* log) const;
  struct RatioTerms {
    std::vector<std::vector<double>> indicator;  // per unit: I_k(h) / w_k
    std::vector<double> denom;                   // mean_k I_k(h) / w_k
  };
  RatioTerms flop_entry_values(Workspace& pre, const SystematicSample& sample,
                               const std::vector<std::vector<double>>& result, bool exact) const;
  void seat_values(Workspace& pre, HoldemBestResponseReport& rep) const;
  void sample_intervals(Workspace& pre, const SystematicSample& sample,
                        const std::vector<std::vector<double>>& result, const RatioTerms& ratio,
                        HoldemBestResponseReport& rep) const;
  HoldemBestResponseReport run();
};

HoldemBestResponseReport HoldemBestResponse::Impl::run() {
  const auto start = Clock::now();
  HoldemBestResponseReport rep;
  rep.suit_isomorphism = flops.hand_perm.size() > 1;
  rep.single_precision = single;
  rep.unrolled_last_round = single ? last_single->unrolled() : last_double->unrolled();
  rep.flop_classes = static_cast<std::int64_t>(flops.flops.size());
  rep.exact = opt.sample_flops <= 0;
  const SystematicSample sample = draw_units(rep.exact);
  const auto U = static_cast<std::int64_t>(sample.units.size());
  rep.units_total = U;

  Workspace pre;
  init(pre);
  preflop_forward(pre);

  // Unit results: kept per unit (needed for the interval of a sampled run).
  std::vector<std::vector<double>> result(U);
  std::vector<std::uint8_t> done(U, 0);
  UnitDistribution* const dist = opt.distribution.get();
  if (dist != nullptr) {
    dist->check_same(run_key, "the game, the strategies and the best-response options");
    if (!dist->coordinator()) {  // computes the units it is sent; the coordinator reports
      rep.units_computed = distribute_units(pre, sample.units, result, done, nullptr);
      rep.units_done = rep.units_computed;
      rep.complete = false;
      rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      return rep;
    }
  }
  std::optional<ResumeLog> log;
  if (!opt.resume_file.empty()) {
    log.emplace(opt.resume_file, run_key, U, 2 * block(1));
    for (ResumeRecord& r : log->take_records()) {
      result[r.unit] = std::move(r.values);
      done[r.unit] = 1;
    }
  }
  const std::int64_t resumed = std::count(done.begin(), done.end(), 1);
  rep.units_computed =
      dist != nullptr ? distribute_units(pre, sample.units, result, done, log ? &*log : nullptr)
                      : compute_units(pre, sample.units, result, done, log ? &*log : nullptr);
  rep.units_done = resumed + rep.units_computed;
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (std::find(done.begin(), done.end(), 0) != done.end()) {
    rep.complete = false;
    return rep;
  }
  const RatioTerms ratio = flop_entry_values(pre, sample, result, rep.exact);
  seat_values(pre, rep);
  if (!rep.exact) sample_intervals(pre, sample, result, ratio, rep);
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return rep;
}

// The units of this run and how often each was drawn: every flop class once, or a sample.
SystematicSample HoldemBestResponse::Impl::draw_units(bool exact) const {
  if (exact) {
    SystematicSample all;
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(flops.flops.size()); ++c) {
      all.units.push_back(c);
      all.draws.push_back(1);
    }
    return all;
  }
  // Systematic PPS sample along a texture order (systematic_sample.h): similar flops are
  // spread evenly over the draws, and class c is hit K·w_c/W times in expectation, as with
  // independent draws in proportion to weight, so the estimator below is unchanged.
  SplitMix64 rng(opt.seed);
  std::vector<std::int64_t> weight;
  for (const CanonicalFlop& f : flops.flops) weight.push_back(f.weight);
  return draw_systematic_sample(flops_by_texture(flops), weight, opt.sample_flops, rng.uniform());
}

// The parallel unit loop: the units not done yet (at most opt.max_units of them, until
// opt.should_stop), each appended to the resume log as it finishes; progress to the callback.
// Returns how many it computed.
std::int64_t HoldemBestResponse::Impl::compute_units(const Workspace& pre,
                                                     const std::vector<std::int32_t>& units,
                                                     std::vector<std::vector<double>>& result,
                                                     std::vector<std::uint8_t>& done,
                                                     ResumeLog* log) const {
  const auto U = static_cast<std::int64_t>(units.size());
  const std::size_t payload = 2 * block(1);
  std::vector<std::int64_t> pending;
  for (std::int64_t u = 0; u < U; ++u)
    if (!done[u]) pending.push_back(u);
  const std::int64_t resumed = U - static_cast<std::int64_t>(pending.size());
  std::int64_t todo = static_cast<std::int64_t>(pending.size());
  if (opt.max_units > 0) todo = std::min(todo, opt.max_units);
  std::atomic<std::int64_t> finished{0};
  ProgressTimer timer(opt.progress_every_seconds);
  bool write_failed = false;

#pragma omp parallel num_threads(std::max(1, opt.threads))
  {
    Workspace ws;
    init(ws);
    std::vector<double> out(payload);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t j = 0; j < todo; ++j) {
      if (opt.should_stop && opt.should_stop()) continue;  // the rest stay undone
      const std::int64_t u = pending[j];
      unit(ws, pre, units[u], out.data());
#pragma omp critical(holdem_br_unit_done)
      {
        result[u] = out;
        done[u] = 1;
        if (log != nullptr && !log->append(u, out.data())) write_failed = true;
        const std::int64_t f = ++finished;
        if (opt.on_progress && (f == todo || timer.due())) {
          opt.on_progress(unit_progress(f, todo, resumed, U, timer.elapsed_seconds(),
                                        std::max(1, opt.threads)));
        }
      }
    }
  }
  if (write_failed) throw InputError("cannot append to resume file " + log->path());
  return finished.load();
}

// The unit loop over several processes (opt.distribution, unit_distribution.h): the
// coordinator's pending units (at most opt.max_units, until opt.should_stop) are computed
// wherever the distribution sends them; the coordinator records each as compute_units does
// (result, done, resume log, progress). Returns the units computed now: by every process
// (coordinator) or by this one (the others).
std::int64_t HoldemBestResponse::Impl::distribute_units(const Workspace& pre,
                                                        const std::vector<std::int32_t>& units,
                                                        std::vector<std::vector<double>>& result,
                                                        std::vector<std::uint8_t>& done,
                                                        ResumeLog* log) const {
  UnitDistribution& dist = *opt.distribution;
  const auto U = static_cast<std::int64_t>(units.size());
  const std::size_t payload = 2 * block(1);
  const int threads = std::max(1, opt.threads);
  const int all_threads = dist.total_threads(threads);
  std::vector<std::int64_t> pending;
  if (dist.coordinator())
    for (std::int64_t u = 0; u < U; ++u)
      if (!done[u]) pending.push_back(u);
  const std::int64_t resumed = U - static_cast<std::int64_t>(pending.size());
  if (opt.max_units > 0 && static_cast<std::int64_t>(pending.size()) > opt.max_units)
    pending.resize(static_cast<std::size_t>(opt.max_units));
  const auto todo = static_cast<std::int64_t>(pending.size());
  // One workspace per compute thread, made on its first unit.
  std::vector<Workspace> ws(static_cast<std::size_t>(threads));
  std::vector<std::once_flag> made(static_cast<std::size_t>(threads));
  std::int64_t finished = 0;
  ProgressTimer timer(opt.progress_every_seconds);
  bool write_failed = false;
  auto compute = [&](std::int64_t u, double* out, int thread) {
    std::call_once(made[thread], [&] { init(ws[thread]); });
    unit(ws[thread], pre, units[u], out);
  };
  auto deliver = [&](std::int64_t u, const double* values) {
    result[u].assign(values, values + payload);
    done[u] = 1;
    if (log != nullptr && !log->append(u, values)) write_failed = true;
    const std::int64_t f = ++finished;
    if (opt.on_progress && (f == todo || timer.due())) {
      opt.on_progress(unit_progress(f, todo, resumed, U, timer.elapsed_seconds(), all_threads));
    }
  };
  const std::int64_t here = dist.run(payload, pending, threads, compute, deliver, opt.should_stop);
  if (write_failed) throw InputError("cannot append to resume file " + log->path());
  // The coordinator reports the units computed now by all processes, as one process would.
  return dist.coordinator() ? finished : here;
}

// Flop-entry values into pre.acc[1]. Exact: the sum of the orbit sums. Sampled: for each hand
// the self-normalised (ratio) estimate over the drawn flops that do not touch it,
//   Ê(h) = [Σ_k S_k(h)/w_k] / [Σ_k I_k(h)/w_k] · N,
// with I_k(h) the flops of draw k's orbit disjoint from h and N all flops disjoint from h:
// flops are drawn in proportion to w_k, so both sums are unbiased up to the same factor,
// and a value that does not depend on the flop (e.g. against always-fold) comes out exact.
HoldemBestResponse::Impl::RatioTerms HoldemBestResponse::Impl::flop_entry_values(
    Workspace& pre, const SystematicSample& sample, const std::vector<std::vector<double>>& result,
    bool exact) const {
  const auto U = static_cast<std::int64_t>(sample.units.size());
  const std::size_t payload = 2 * block(1);
  std::int64_t K = 0;
  for (std::int64_t k : sample.draws) K += k;
  const double Kd = static_cast<double>(K);
  std::vector<double>& acc1 = pre.acc[1];
  std::fill(acc1.begin(), acc1.end(), 0.0);
  const std::size_t E1 = entries[1].size();
  const double disjoint_flops =
      static_cast<double>(binomial(game.deck_size() - 2, flops.flop_cards));
  RatioTerms ratio;
  ratio.indicator.resize(exact ? 0 : U);
  ratio.denom.assign(n, 0.0);
  for (std::int64_t u = 0; u < U; ++u) {
    if (exact) {
      for (std::size_t i = 0; i < payload; ++i) acc1[i] += result[u][i];
      continue;
    }
    const CanonicalFlop& f = flops.flops[sample.units[u]];
    const double pk = static_cast<double>(sample.draws[u]) / Kd;
    std::vector<double>& indicator = ratio.indicator[u];
    indicator.assign(n, 0.0);
    const double scale = 1.0 / static_cast<double>(flops.hand_perm.size());
    for (const auto& perm : flops.hand_perm)
      for (std::int32_t h = 0; h < n; ++h)
        indicator[h] += hands.masks[perm[h]].intersects(f.mask) ? 0.0 : scale;
    for (std::int32_t h = 0; h < n; ++h) ratio.denom[h] += pk * indicator[h];
    for (std::size_t i = 0; i < payload; ++i) acc1[i] += pk * result[u][i] / f.weight;
  }
  if (exact) {
    for (double& x : acc1) x /= compat[0];
  } else {
    for (std::size_t b = 0; b < 2 * E1; ++b)
      for (std::int32_t h = 0; h < n; ++h) {
        double& x = acc1[b * n + h];
        const double d = ratio.denom[h];
        x = d > 0.0 ? x / d * disjoint_flops / compat[0] : 0.0;
      }
  }
  return ratio;
}

// Each seat's value: the preflop walk with the flop-entry values at its leaves (the best
// response's preflop choices land in pre.choice).
void HoldemBestResponse::Impl::seat_values(Workspace& pre, HoldemBestResponseReport& rep) const {
  std::vector<double> ones(n, 1.0), out(n);
  const double norm = static_cast<double>(n) * static_cast<double>(hands.compatible_opponent_hands);
  for (int t = 0; t < 2; ++t) {
    value(pre, t, 0, 0, ones.data(), out.data(), 0);
    double s = 0.0;
    for (double v : out) s += v;
    rep.value[t] = s / norm;
  }
  rep.mean = 0.5 * (rep.value[0] + rep.value[1]);
}

// A sampled run's 95% intervals (and regression adjustment) from the draws' contributions.
void HoldemBestResponse::Impl::sample_intervals(Workspace& pre, const SystematicSample& sample,
                                                const std::vector<std::vector<double>>& result,
                                                const RatioTerms& ratio,
                                                HoldemBestResponseReport& rep) const {
  const auto U = static_cast<std::int64_t>(sample.units.size());
  const std::size_t payload = 2 * block(1);
  std::int64_t K = 0;
  for (std::int64_t k : sample.draws) K += k;
  const std::vector<double>& acc1 = pre.acc[1];
  const std::vector<double>& denom = ratio.denom;
  const std::size_t E1 = entries[1].size();
  const double disjoint_flops =
      static_cast<double>(binomial(game.deck_size() - 2, flops.flop_cards));
  std::vector<double> ones(n, 1.0);
  const double norm = static_cast<double>(n) * static_cast<double>(hands.compatible_opponent_hands);
  // Delta method for the ratio, with the responder's preflop strategy found above held
  // fixed (which makes the value linear in the flop-entry values): each draw contributes
  //   z_k = Σ_{e,h} coef(e,h) · N / (compat · norm) · (S_k(e,h)/w_k − Ê'(e,h) I_k(h)/w_k) /
  //   denom(h)
  // (Ê' the ratio before scaling), and the interval is 1.96 · sd(mean z).
  std::vector<double> coef(payload, 0.0);
  for (int t = 0; t < 2; ++t) coefficients(pre, t, 0, ones.data(), coef, 0);
  const double c0 = disjoint_flops / compat[0] / norm;
  std::vector<std::array<double, 3>> zs;  // per unit: z of seat 0, seat 1, their mean
  for (std::int64_t u = 0; u < U; ++u) {
    const double w = flops.flops[sample.units[u]].weight;
    std::array<double, 2> z{};
    for (int t = 0; t < 2; ++t)
      for (std::size_t e = 0; e < E1; ++e) {
        const std::size_t o = (static_cast<std::size_t>(t) * E1 + e) * n;
        for (std::int32_t h = 0; h < n; ++h) {
          if (denom[h] <= 0.0 || coef[o + h] == 0.0) continue;
          const double r = acc1[o + h] * compat[0] / disjoint_flops;
          z[t] += coef[o + h] * (result[u][o + h] / w - r * ratio.indicator[u][h]) / denom[h];
        }
      }
    for (int t = 0; t < 2; ++t) z[t] *= c0;
    zs.push_back({z[0], z[1], 0.5 * (z[0] + z[1])});
  }
  // The draws in sample order (a class hit twice counts twice) with their flops' rank
  // covariates, whose mean over every flop of the deck is known exactly: the regression
  // estimator of systematic_sample.h removes the part of the flop-to-flop spread
  // that the ranks explain, and its interval comes from successive differences of the rest.
  const std::int64_t p =
      static_cast<std::int64_t>(flop_rank_covariates(flops, flops.flops[0]).size());
  Eigen::MatrixXd x(K, p);
  std::array<std::vector<double>, 3> zk;
  std::int64_t j = 0;
  rep.draw_units.clear();
  for (std::int64_t u = 0; u < U; ++u) {
    const std::vector<double> xu = flop_rank_covariates(flops, flops.flops[sample.units[u]]);
    for (std::int64_t d = 0; d < sample.draws[u]; ++d, ++j) {
      for (std::int64_t i = 0; i < p; ++i) x(j, i) = xu[i];
      for (int i = 0; i < 3; ++i) zk[i].push_back(zs[u][i]);
      rep.draw_units.push_back(sample.units[u]);
    }
  }
  Eigen::VectorXd x_all = Eigen::VectorXd::Zero(p);
  for (const CanonicalFlop& f : flops.flops) {
    const std::vector<double> xf = flop_rank_covariates(flops, f);
    for (std::int64_t i = 0; i < p; ++i) x_all[i] += f.weight * xf[i];
  }
  x_all /= static_cast<double>(flops.total_weight);
  for (int i = 0; i < 3; ++i) {
    const SystematicSampleEstimate est = estimate_systematic_sample(zk[i], x, x_all);
    (i < 2 ? rep.value[i] : rep.mean) += est.adjustment;
    (i < 2 ? rep.ci95[i] : rep.mean_ci95) = est.ci95;
    rep.regression = est.regression;
  }
  rep.draw_contributions = std::move(zk[2]);
  rep.draw_covariates = std::move(x);
  rep.covariate_means = std::move(x_all);
}

HoldemBestResponse::HoldemBestResponse(const Policy& policy, HoldemBestResponseOptions options)
    : impl_(std::make_unique<Impl>(policy, nullptr, std::move(options))) {}

HoldemBestResponse::HoldemBestResponse(const Policy& policy, const Policy& fixed,
                                       HoldemBestResponseOptions options)
    : impl_(std::make_unique<Impl>(policy, &fixed, std::move(options))) {}

HoldemBestResponse::~HoldemBestResponse() = default;

HoldemBestResponseReport HoldemBestResponse::run() {
  return impl_->run();
}

const FlopClasses& HoldemBestResponse::flops() const {
  return impl_->flops;
}

std::vector<double> HoldemBestResponse::flop_values(std::int32_t c) const {
  Impl::Workspace pre, ws;
  impl_->init(pre);
  impl_->init(ws);
  impl_->preflop_forward(pre);
  std::vector<double> out(2 * impl_->block(1));
  impl_->unit(ws, pre, c, out.data());
  return out;
}

std::string HoldemBestResponse::flop_entry(std::int32_t e) const {
  return impl_->tree.betting_string(impl_->entries[1][e]);
}

std::int32_t HoldemBestResponse::num_flop_entries() const {
  return static_cast<std::int32_t>(impl_->entries[1].size());
}

const PrivateHands& HoldemBestResponse::hands() const {
  return impl_->hands;
}

}  // namespace hulhe
