#include "best_response/local_best_response.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "public_tree/sampled_deal.h"
#include "util/input_error.h"
#include "util/progress.h"

namespace hulhe {
namespace {

using Clock = std::chrono::steady_clock;

int slot_of(const BettingNode& nd, Action a) {
  for (int s = 0; s < nd.num_actions; ++s)
    if (nd.actions[s] == a) return s;
  return -1;
}

// Mean and 95% half-width (normal approximation) of values[first], values[first + step], ...
std::pair<double, double> mean_ci95(const std::vector<double>& values, std::size_t first,
                                    std::size_t step) {
  double sum = 0.0;
  std::size_t n = 0;
  for (std::size_t i = first; i < values.size(); i += step, ++n) sum += values[i];
  if (n == 0) return {0.0, 0.0};
  const double mean = sum / static_cast<double>(n);
  if (n < 2) return {mean, 0.0};
  double sq = 0.0;
  for (std::size_t i = first; i < values.size(); i += step)
    sq += (values[i] - mean) * (values[i] - mean);
  const double sd = std::sqrt(sq / static_cast<double>(n - 1));
  return {mean, 1.96 * sd / std::sqrt(static_cast<double>(n))};
}

}  // namespace

struct LocalBestResponse::Impl {
  // Per-thread state of one hand in progress.
  struct Workspace {
    std::vector<double> range;         // opponent's weight per hand
    std::vector<double> calling;       // the range after the policy's folds to a raise
    std::vector<std::int32_t> bucket;  // opponent bucket per hand this round (-1: impossible)
    RangeEquity::Scores scores;
    int scores_round = -1;
    std::vector<Card> deck;
    std::array<std::int64_t, kNumActionKinds> decisions{};
  };

  const Policy& policy;
  LocalBestResponseOptions opt;
  const BettingTree& tree;
  const GameDefinition& game;
  PrivateHands hands;
  std::int32_t n = 0;
  int hole = 0;
  std::unique_ptr<RangeEquity> equity;
  std::vector<std::int32_t> hand_of;  // [card a * 52 + card b] -> hand id
  std::vector<Card> deck;

  Impl(const Policy& p, LocalBestResponseOptions options)
      : policy(p), opt(options), tree(p.tree()), game(p.tree().game()) {
    if (game.num_players != 2 || game.num_board_cards[0] != 0 || game.num_hole_cards < 1 ||
        game.num_hole_cards > 2)
      throw InputError("game '" + game.name +
                       "': local best response needs 2 players, 1 or 2 hole cards and no board "
                       "before the first round");
    hands = enumerate_private_hands(game);
    n = hands.size();
    hole = game.num_hole_cards;
    equity = std::make_unique<RangeEquity>(game, hands, opt.equity);
    deck = game.deck();
    hand_of.assign(kMaxCards * kMaxCards, -1);
    for (std::int32_t h = 0; h < n; ++h)
      hand_of[hands.cards[h][0] * kMaxCards + hands.cards[h][1]] = h;
  }

  Workspace workspace() const {
    Workspace ws;
    ws.range.assign(n, 0.0);
    ws.calling.assign(n, 0.0);
    ws.bucket.assign(n, -1);
    ws.deck = deck;
    return ws;
  }

  std::int32_t hand_id(const Card* cards) const {
    const Card a = hole == 2 ? std::min(cards[0], cards[1]) : cards[0];
    const Card b = hole == 2 ? std::max(cards[0], cards[1]) : cards[0];
    return hand_of[a * kMaxCards + b];
  }

  // A new round: hands that clash with the board are out, buckets of the rest looked up once.
  void enter_round(Workspace& ws, int round, std::int32_t mine, const Card* board) const {
    CardSet dead = hands.masks[mine];
    for (int i = 0; i < game.total_board_cards(round); ++i) dead.insert(board[i]);
    const CardAbstraction& abs = policy.abstraction();
    for (std::int32_t h = 0; h < n; ++h) {
      if (hands.masks[h].intersects(dead)) {
        ws.range[h] = 0.0;
        ws.bucket[h] = -1;
      } else {
        ws.bucket[h] = abs.bucket(round, hands.cards[h].data(), board);
      }
    }
    normalise(ws);
    ws.scores_round = -1;
  }

  // Scale the range to sum 1; a range with no weight left (the policy took an action its
  // strategy gives probability 0, by rounding) restarts from every possible hand.
  void normalise(Workspace& ws) const {
    double sum = 0.0;
    for (std::int32_t h = 0; h < n; ++h) sum += ws.range[h];
    if (sum > 0.0) {
      const double inv = 1.0 / sum;
      for (std::int32_t h = 0; h < n; ++h) ws.range[h] *= inv;
      return;
    }
    for (std::int32_t h = 0; h < n; ++h) ws.range[h] = ws.bucket[h] >= 0 ? 1.0 : 0.0;
    normalise(ws);
  }

  // Bayes: the opponent took action `slot` at decision node `node`.
  void observe(Workspace& ws, const BettingNode& nd, int slot) const {
    std::array<double, kNumActionKinds> p{};
    const std::span<double> out(p.data(), nd.num_actions);
    for (std::int32_t h = 0; h < n; ++h) {
      if (ws.range[h] == 0.0) continue;
      policy.action_probabilities(nd.round, nd.id_in_round, ws.bucket[h], out);
      ws.range[h] *= p[slot];
    }
    normalise(ws);
  }

  LbrDecision decide(Workspace& ws, int seat, std::int32_t mine, const Card* board,
                     std::int32_t node, SplitMix64& rng) const {
    const BettingNode& nd = tree.node(node);
    const int round = nd.round;
    if (ws.scores_round != round) {
      equity->score(mine, board, game.total_board_cards(round), rng, ws.scores);
      ws.scores_round = round;
    }
    LbrDecision d;
    d.value.fill(-std::numeric_limits<double>::infinity());
    const double mine_in = nd.committed[seat];
    const double theirs_in = nd.committed[1 - seat];
    const double called = std::max(mine_in, theirs_in);
    const int call = slot_of(nd, Action::kCall);
    const int fold = slot_of(nd, Action::kFold);
    const int raise = slot_of(nd, Action::kRaise);
    const auto kind = [](Action a) { return static_cast<int>(a); };
    const double eq = RangeEquity::equity(ws.scores, ws.range);
    d.value[kind(Action::kCall)] = called * (2.0 * eq - 1.0);
    if (fold >= 0) d.value[kind(Action::kFold)] = -mine_in;
    if (raise >= 0) {
      const BettingNode& reply = tree.node(nd.child[raise]);
      const int reply_fold = reply.kind == NodeKind::kDecision ? slot_of(reply, Action::kFold) : -1;
      double total = 0.0, folds = 0.0;
      std::array<double, kNumActionKinds> p{};
      const std::span<double> out(p.data(), reply.num_actions);
      for (std::int32_t h = 0; h < n; ++h) {
        const double w = ws.range[h];
        ws.calling[h] = w;
        if (w == 0.0 || reply_fold < 0) {
          total += w;
          continue;
        }
        policy.action_probabilities(round, reply.id_in_round, ws.bucket[h], out);
        total += w;
        folds += w * p[reply_fold];
        ws.calling[h] = w * (1.0 - p[reply_fold]);
      }
      d.fold_probability = total > 0.0 ? std::clamp(folds / total, 0.0, 1.0) : 0.0;
      const double raised = reply.committed[seat];
      double v = d.fold_probability * theirs_in;
      if (d.fold_probability < 1.0)
        v += (1.0 - d.fold_probability) * raised *
             (2.0 * RangeEquity::equity(ws.scores, ws.calling) - 1.0);
      d.value[kind(Action::kRaise)] = v;
    }
    d.slot = call;
    double best = d.value[kind(Action::kCall)];
    if (raise >= 0 && d.value[kind(Action::kRaise)] > best) {
      d.slot = raise;
      best = d.value[kind(Action::kRaise)];
    }
    if (fold >= 0 && d.value[kind(Action::kFold)] > best) d.slot = fold;
    return d;
  }

  double play(Workspace& ws, std::int64_t i) const {
    SplitMix64 rng = SplitMix64::for_iteration(opt.seed, i);
    const int seat = static_cast<int>(i & 1);
    const int board_cards = game.total_board_cards(game.num_rounds - 1);
    const int need = 2 * hole + board_cards;
    std::copy(deck.begin(), deck.end(), ws.deck.begin());
    for (int k = 0; k < need; ++k)
      std::swap(ws.deck[k], ws.deck[k + rng.below(static_cast<std::uint32_t>(ws.deck.size() - k))]);
    const Card* my_cards = ws.deck.data();
    const Card* board = ws.deck.data() + 2 * hole;
    const std::int32_t mine = hand_id(my_cards);
    const std::int32_t theirs = hand_id(ws.deck.data() + hole);
    for (std::int32_t h = 0; h < n; ++h)
      ws.range[h] = hands.masks[h].intersects(hands.masks[mine]) ? 0.0 : 1.0;
    std::array<double, kNumActionKinds> p{};
    std::int32_t node = tree.root();
    int round = -1;
    while (true) {
      const BettingNode& nd = tree.node(node);
      if (nd.round != round) {
        round = nd.round;
        enter_round(ws, round, mine, board);
      }
      if (nd.kind == NodeKind::kFold)
        return nd.player == seat ? -nd.committed[seat] : nd.committed[1 - seat];
      if (nd.kind == NodeKind::kShowdown) {
        CardSet full;
        for (int k = 0; k < board_cards; ++k) full.insert(board[k]);
        const std::int32_t a = equity->showdown_rank(mine, full);
        const std::int32_t b = equity->showdown_rank(theirs, full);
        return a > b ? nd.committed[seat] : a < b ? -nd.committed[seat] : 0.0;
      }
      int slot = 0;
      if (nd.player != seat) {
        const std::span<double> out(p.data(), nd.num_actions);
        policy.action_probabilities(round, nd.id_in_round, ws.bucket[theirs], out);
        slot = sample_slot(p.data(), nd.num_actions, rng);
        observe(ws, nd, slot);
      } else {
        slot = decide(ws, seat, mine, board, node, rng).slot;
        ++ws.decisions[static_cast<int>(nd.actions[slot])];
      }
      node = nd.child[slot];
    }
  }
};

LocalBestResponse::LocalBestResponse(const Policy& policy, LocalBestResponseOptions options)
    : impl_(std::make_unique<Impl>(policy, options)) {}

LocalBestResponse::~LocalBestResponse() = default;

const PrivateHands& LocalBestResponse::hands() const {
  return impl_->hands;
}

const RangeEquity& LocalBestResponse::equity() const {
  return *impl_->equity;
}

double LocalBestResponse::play_hand(std::int64_t i) const {
  Impl::Workspace ws = impl_->workspace();
  return impl_->play(ws, i);
}

LbrDecision LocalBestResponse::decide(int seat, std::int32_t hand, const Card* board,
                                      std::int32_t node, std::span<const double> range,
                                      std::uint64_t seed) const {
  const Impl& m = *impl_;
  Impl::Workspace ws = m.workspace();
  std::copy(range.begin(), range.end(), ws.range.begin());
  const int round = m.tree.node(node).round;
  m.enter_round(ws, round, hand, board);
  SplitMix64 rng(seed);
  return m.decide(ws, seat, hand, board, node, rng);
}

LocalBestResponseReport LocalBestResponse::run() const {
  const Impl& m = *impl_;
  const std::int64_t total = m.opt.hands;
  if (total < 1) throw InputError("local best response needs at least 1 hand");
  std::vector<double> values(static_cast<std::size_t>(total));
  LocalBestResponseReport r;
  const auto start = Clock::now();
  std::atomic<std::int64_t> done{0};
  std::atomic<double> sum{0.0};  // of the hands done: the running mean in progress reports
  ProgressTimer timer(m.opt.progress_every_seconds);
  auto report = [&](std::int64_t d, bool last) {
    Progress e = progress_at("lbr", d, total, d, timer.elapsed_seconds());
    e.seconds_per_unit_per_thread =
        e.elapsed_seconds * std::max(1, m.opt.threads) / static_cast<double>(d);
    e.estimate = sum.load() / static_cast<double>(d);
    e.last = last;
    m.opt.on_progress(e);
  };
#pragma omp parallel num_threads(std::max(1, m.opt.threads))
  {
    Impl::Workspace ws = m.workspace();
    // Small chunks keep threads busy to the end; each hand's result lands in its own slot.
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t i = 0; i < total; ++i) {
      const double v = m.play(ws, i);
      values[static_cast<std::size_t>(i)] = v;
      if (!m.opt.on_progress) continue;
      sum.fetch_add(v, std::memory_order_relaxed);
      const std::int64_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      // Thread 0 alone looks at the clock, so the timer needs no lock.
      if (omp_get_thread_num() == 0 && d < total && timer.due()) report(d, false);
    }
#pragma omp critical
    for (int a = 0; a < kNumActionKinds; ++a) r.decisions[a] += ws.decisions[a];
  }
  if (m.opt.on_progress) report(total, true);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.hands = total;
  std::tie(r.mean, r.ci95) = mean_ci95(values, 0, 1);
  for (int t = 0; t < 2; ++t) {
    std::tie(r.seat_mean[t], r.seat_ci95[t]) = mean_ci95(values, static_cast<std::size_t>(t), 2);
    r.seat_hands[t] = (total + 1 - t) / 2;
  }
  return r;
}

}  // namespace hulhe
