// The real-game hold'em best response (holdem_best_response.h): the checks of the game, the
// tree and both strategies read flat, the flop classes and the key of a run; run(), which
// puts the pieces together (the walks: holdem_round_walks.cpp; the units:
// holdem_best_response_units.cpp; the estimate: holdem_best_response_estimate.cpp; their
// shared state: holdem_best_response_walk.h); and the public class over them.
#include "best_response/holdem/holdem_best_response.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>

#include "best_response/holdem/holdem_best_response_walk.h"
#include "best_response/holdem/suit_symmetry.h"
#include "util/checksums.h"
#include "util/combinatorics.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using Clock = std::chrono::steady_clock;

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

}  // namespace

HoldemBestResponse::Impl::Impl(const Policy& o, const Policy* f, HoldemBestResponseOptions options)
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
    throw InputError("game '" + game.name + "': no round " + std::to_string(opt.subgames->round()) +
                     " to take subgame values from (rounds 1 to " +
                     std::to_string(game.num_rounds - 1) + ", best responses only)");
  hands = enumerate_private_hands(game);
  n = hands.size();
  rounds = game.num_rounds;
  deck = game.deck();
  for (int r = 0; r < rounds; ++r) fresh[r] = game.num_board_cards[r];
  for (int r = 0; r + 1 < rounds; ++r)
    compat[r] = static_cast<double>(
        binomial(game.deck_size() - game.total_board_cards(r) - 4, fresh[r + 1]));

  nodes = flatten_betting_tree(tree);
  entry.assign(nodes.size(), -1);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const BettingNode& b = tree.nodes()[i];
    if (b.kind == NodeKind::kShowdown && b.round != rounds - 1)
      throw InputError("game '" + game.name + "': a showdown before the last round");
    const bool starts = i == 0 || b.round > tree.node(b.parent).round;
    if (starts) {
      entry[i] = static_cast<std::int32_t>(entries[b.round].size());
      entries[b.round].push_back(static_cast<std::int32_t>(i));
    }
  }
  opp_strat = read_strategy(opp, opp_off);
  if (fixed != nullptr) fix_strat = read_strategy(*fixed, fix_off);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].kind == NodeKind::kDecision)
      nodes[i].table_offset = opp_off[nodes[i].round][tree.nodes()[i].id_in_round];
  max_depth = depth_of(0) + 2;
  single = opt.precision == HoldemBestResponseOptions::Precision::kSingle ||
           (opt.precision == HoldemBestResponseOptions::Precision::kAuto &&
            game.deck_size() == kMaxCards);
  if (single)
    last_single = std::make_unique<HoldemLastRound<float>>(opp, fixed, hands, entries[rounds - 1],
                                                           !opt.interpreted_last_round);
  else
    last_double = std::make_unique<HoldemLastRound<double>>(opp, fixed, hands, entries[rounds - 1],
                                                            !opt.interpreted_last_round);

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

int HoldemBestResponse::Impl::depth_of(std::int32_t i) const {
  int d = 0;
  for (int a = 0; a < kNumActionKinds; ++a)
    if (nodes[i].child[a] >= 0) d = std::max(d, depth_of(nodes[i].child[a]));
  return d + 1;
}

void HoldemBestResponse::Impl::init(Workspace& ws) const {
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
                      : compute_units(pre, sample.units, result, done, log ? &*log : nullptr,
                                      rep.deals_resumed);
  rep.units_done = resumed + rep.units_computed;
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  rep.complete = std::find(done.begin(), done.end(), 0) == done.end();
  if (rep.complete) {
    estimate(pre, sample, result, done, rep.exact, rep);
  } else if (!rep.exact) {
    // An interim estimate over the finished units (of only_units, when given).
    std::vector<std::uint8_t> use = unit_scope(U);
    for (std::size_t u = 0; u < use.size(); ++u) use[u] &= done[u];
    for (std::int64_t u = 0; u < U; ++u)
      if (use[u]) rep.interim_units.push_back(static_cast<std::int32_t>(u));
    if (!rep.interim_units.empty()) {
      rep.interim = true;
      for (std::int32_t u : rep.interim_units) rep.interim_draws += sample.draws[u];
      estimate(pre, sample, result, use, false, rep);
    }
  }
  rep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return rep;
}

void HoldemBestResponse::Impl::estimate(Workspace& pre, const SystematicSample& sample,
                                        const std::vector<std::vector<double>>& result,
                                        const std::vector<std::uint8_t>& use, bool exact,
                                        HoldemBestResponseReport& rep) const {
  if (std::find(use.begin(), use.end(), 0) == use.end()) {  // the whole run: no copy
    const RatioTerms ratio = flop_entry_values(pre, sample, result, exact);
    seat_values(pre, rep);
    if (!exact) sample_intervals(pre, sample, result, ratio, rep);
    return;
  }
  SystematicSample part;  // an interim's units (a few of a sampled run's)
  std::vector<std::vector<double>> part_result;
  for (std::size_t u = 0; u < sample.units.size(); ++u) {
    if (!use[u]) continue;
    part.units.push_back(sample.units[u]);
    part.draws.push_back(sample.draws[u]);
    part_result.push_back(result[u]);
  }
  estimate(pre, part, part_result, std::vector<std::uint8_t>(part.units.size(), 1), exact, rep);
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