// The last round of the real-game hold'em best response (holdem_last_round.h): the sequences
// entering it grouped into chunks of lanes and the opponent's strategy laid out per chunk; the
// deals of the last round's cards for one board; and the batched walk of every chunk over them.
// Each chunk's walk is compiled either as the unrolled limit kernel's
// (holdem_last_round_limit.cpp) or as the interpreted program (holdem_last_round_program.cpp).
#include "best_response/holdem/holdem_last_round.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <span>
#include <string>

#include "game/betting_tree.h"
#include "game/hand_evaluator.h"
#include "util/combinatorics.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

constexpr std::size_t kMaxVectors = 64;

// Preorder node indices of the subtree below `i` (all in i's round: the last one).
void preorder(const BettingTree& tree, std::int32_t i, std::vector<std::int32_t>& out) {
  out.push_back(i);
  const BettingNode& b = tree.node(i);
  if (b.kind != NodeKind::kDecision) return;
  for (int a = 0; a < b.num_actions; ++a) preorder(tree, b.child[a], out);
}

std::string shape_of(const BettingTree& tree, const std::vector<std::int32_t>& nodes) {
  std::string s;
  for (std::int32_t i : nodes) {
    const BettingNode& b = tree.node(i);
    s += static_cast<char>('0' + static_cast<int>(b.kind));
    s += static_cast<char>('0' + b.player);
    s += static_cast<char>('0' + b.num_actions);
    for (int a = 0; a < b.num_actions; ++a) s += action_char(b.actions[a]);
    s += ';';
  }
  return s;
}

}  // namespace

template <typename Real>
HoldemLastRound<Real>::HoldemLastRound(const Policy& opp, const Policy* fixed,
                                       const PrivateHands& hands,
                                       const std::vector<std::int32_t>& entries, bool unrolled)
    : opp_(opp), fixed_(fixed), hands_(hands) {
  const BettingTree& tree = opp.tree();
  const GameDefinition& game = tree.game();
  round_ = game.num_rounds - 1;
  n_ = hands.size();
  E_ = static_cast<std::int32_t>(entries.size());
  opp_buckets_ = opp.abstraction().num_buckets(round_);
  fix_buckets_ = fixed != nullptr ? fixed->abstraction().num_buckets(round_) : 0;
  full_deck_ = game.deck_size() == kMaxCards;
  deck_ = game.deck();

  // Entries grouped by subtree shape (limit games: one group), 8 to a chunk.
  std::map<std::string, std::vector<std::int32_t>> groups;
  std::vector<std::vector<std::int32_t>> nodes_of(E_);
  for (std::int32_t e = 0; e < E_; ++e) {
    preorder(tree, entries[e], nodes_of[e]);
    groups[shape_of(tree, nodes_of[e])].push_back(e);
  }
  std::int64_t slots = 0;
  std::vector<double> p(kNumActionKinds);
  for (const auto& [shape, members] : groups) {
    const std::vector<std::int32_t>& shape_nodes = nodes_of[members[0]];
    // Strategy slots of the decision positions of this shape.
    std::vector<std::int32_t> pos_slot(shape_nodes.size(), -1);
    std::int32_t per_chunk = 0;
    for (std::size_t k = 0; k < shape_nodes.size(); ++k) {
      const BettingNode& b = tree.node(shape_nodes[k]);
      if (b.kind != NodeKind::kDecision) continue;
      pos_slot[k] = per_chunk;
      per_chunk += b.num_actions;
    }
    for (std::size_t first = 0; first < members.size(); first += kLanes) {
      Chunk c;
      c.entry.fill(-1);
      c.table = slots;
      std::vector<std::vector<std::int32_t>> lane_nodes(kLanes);
      for (int l = 0; l < kLanes && first + l < members.size(); ++l) {
        c.entry[l] = members[first + l];
        lane_nodes[l] = nodes_of[members[first + l]];
      }
      slots += per_chunk;
      // The strategies, [slot][bucket][lane].
      strategy_.assign(static_cast<std::size_t>(per_chunk) * opp_buckets_, Lanes{});  // local
      if (fixed_ != nullptr)
        fixed_strategy_.resize(static_cast<std::size_t>(slots) * fix_buckets_, Lanes{});
      for (std::size_t k = 0; k < shape_nodes.size(); ++k) {
        if (pos_slot[k] < 0) continue;
        for (int l = 0; l < kLanes; ++l) {
          if (c.entry[l] < 0) continue;
          const BettingNode& b = tree.node(lane_nodes[l][k]);
          const auto A = static_cast<std::size_t>(b.num_actions);
          auto fill = [&](const Policy& pol, std::int32_t nb, std::vector<Lanes>& table,
                          std::int64_t base) {
            for (std::int32_t bk = 0; bk < nb; ++bk) {
              pol.action_probabilities(round_, b.id_in_round, bk, std::span<double>(p.data(), A));
              for (std::size_t a = 0; a < A; ++a)
                table[(static_cast<std::size_t>(base + pos_slot[k]) + a) * nb + bk][l] =
                    static_cast<Real>(p[a]);
            }
          };
          fill(opp_, opp_buckets_, strategy_, 0);
          if (fixed_ != nullptr) fill(*fixed_, fix_buckets_, fixed_strategy_, c.table);
        }
      }
      for (int seat = 0; seat < 2; ++seat) {
        if (unrolled) c.limit[seat] = compile_limit(shape_nodes, seat, c, lane_nodes, pos_slot);
        if (c.limit[seat].cap > 0) continue;  // the interpreted program is not needed
        c.program[seat] = compile(shape_nodes, seat, c, lane_nodes, pos_slot);
        if (c.program[seat].vec.size() > kMaxVectors)
          throw InputError("the last round of game '" + game.name + "' is too deep");
      }
      chunks_.push_back(std::move(c));
    }
  }
  strategy_ = std::vector<Lanes>();  // the programs hold their own copies
}

template <typename Real>
typename HoldemLastRound<Real>::Lanes HoldemLastRound<Real>::terminal_coef(
    const Chunk& c, const std::vector<std::vector<std::int32_t>>& lane_nodes, std::size_t k,
    int seat) const {
  const BettingTree& tree = opp_.tree();
  Lanes coef{};
  for (int l = 0; l < kLanes; ++l) {
    if (c.entry[l] < 0) continue;
    const BettingNode& nl = tree.node(lane_nodes[l][k]);
    if (nl.kind == NodeKind::kFold) {
      const int folder = nl.player;
      coef[l] = static_cast<Real>(folder == seat ? -nl.committed[seat] : nl.committed[folder]);
    } else {
      if (nl.committed[0] != nl.committed[1])
        throw InputError("a showdown with unequal pots in game '" + tree.game().name + "'");
      coef[l] = static_cast<Real>(nl.committed[seat]);
    }
  }
  return coef;
}

template <typename Real>
template <typename Test>
bool HoldemLastRound<Real>::every_used_lane(const Chunk& c, Test test) const {
  for (std::size_t b = 0; b < static_cast<std::size_t>(opp_buckets_); ++b)
    for (int l = 0; l < kLanes; ++l)
      if (c.entry[l] >= 0 && !test(b, l)) return false;
  return true;
}

template <typename Real>
bool HoldemLastRound<Real>::sums_to_one(const Chunk& c, std::int64_t slot, int A) const {
  const std::size_t nb = static_cast<std::size_t>(opp_buckets_);
  return every_used_lane(c, [&](std::size_t b, int l) {
    double s = 0.0;
    for (int a = 0; a < A; ++a) s += strategy_[static_cast<std::size_t>(slot + a) * nb + b][l];
    return !(std::abs(s - 1.0) > 8.0 * std::numeric_limits<Real>::epsilon());
  });
}

template <typename Real>
bool HoldemLastRound<Real>::never_taken(const Chunk& c, std::int64_t slot) const {
  const std::size_t nb = static_cast<std::size_t>(opp_buckets_);
  return every_used_lane(c, [&](std::size_t b, int l) {
    return strategy_[static_cast<std::size_t>(slot) * nb + b][l] == 0.0;
  });
}

template <typename Real>
void HoldemLastRound<Real>::copy_strategy_column(std::int64_t slot, std::vector<Lanes>& table,
                                                 std::size_t columns, std::size_t column) const {
  const std::size_t nb = static_cast<std::size_t>(opp_buckets_);
  for (std::size_t b = 0; b < nb; ++b)
    table[b * columns + column] = strategy_[static_cast<std::size_t>(slot) * nb + b];
}

template <typename Real>
void HoldemLastRound<Real>::prepare(Scratch& s, const Card* board, CardSet mask, int known,
                                    int fresh, const FlopClasses* suits) const {
  const CardAbstraction& ao = opp_.abstraction();
  std::array<Card, kMaxCards> pool{};
  int m = 0;
  for (Card c : deck_)
    if (!mask.contains(c)) pool[m++] = c;
  const auto deals = static_cast<std::int32_t>(binomial(m, fresh));
  const std::size_t cap = static_cast<std::size_t>(deals) * n_;
  LastRoundDeals& dl = s.deals;
  for (auto* v : {&dl.hand, &dl.bucket_opp, &dl.bucket_fix, &dl.group_end, &dl.by_hand})
    v->resize(cap);
  s.rank_index.assign(n_, -1);
  dl.card_a.resize(cap);
  dl.card_b.resize(cap);
  dl.stride = static_cast<std::size_t>(n_);
  dl.size.clear();
  dl.weight.clear();
  const bool symmetric = suits != nullptr && s.stabilizer.size() > 1;
  std::array<Card, kMaxBoardCards> full{};
  std::copy(board, board + known, full.begin());
  std::array<int, kMaxBoardCards> pos{};
  for (int i = 0; i < fresh; ++i) pos[i] = i;
  const HandEvaluator& ev = HandEvaluator::instance();
  for (std::int32_t next = 0; next < deals; ++next) {
    CardSet dealt;
    for (int i = 0; i < fresh; ++i) {
      full[known + i] = pool[pos[i]];
      dealt.insert(pool[pos[i]]);
    }
    const CardSet dm = mask | dealt;
    const std::int32_t weight = symmetric ? deal_orbit_size(*suits, s.stabilizer, dealt) : 1;
    const auto d = static_cast<std::int32_t>(dl.size.size());
    if (weight == 0) {
      next_k_subset(pos, fresh, m);
      continue;
    }
    s.ranked.clear();
    const EvalHand eb = EvalHand::of(dm);
    for (std::int32_t h = 0; h < n_; ++h) {
      if (hands_.masks[h].intersects(dm)) continue;
      const std::int32_t r = full_deck_
                                 ? ev.rank(eb.add(hands_.cards[h][0]).add(hands_.cards[h][1]))
                                 : rank_cards_acpc(dm | hands_.masks[h]);
      s.ranked.emplace_back(r, h);
    }
    std::sort(s.ranked.begin(), s.ranked.end());
    const auto m_d = static_cast<std::int32_t>(s.ranked.size());
    dl.size.push_back(m_d);
    dl.weight.push_back(static_cast<double>(weight));
    const std::size_t o = static_cast<std::size_t>(d) * n_;
    for (std::int32_t i = 0; i < m_d; ++i) {
      const std::int32_t h = s.ranked[i].second;
      dl.hand[o + i] = h;
      dl.card_a[o + i] = hands_.cards[h][0];
      dl.card_b[o + i] = hands_.cards[h][1];
      dl.bucket_opp[o + i] = ao.bucket(round_, hands_.cards[h].data(), full.data());
      dl.bucket_fix[o + i] = fixed_ != nullptr ? fixed_->abstraction().bucket(
                                                     round_, hands_.cards[h].data(), full.data())
                                               : 0;
    }
    // Hand-index order: hands of one first card are consecutive (enumerate_private_hands),
    // so the limit kernel's per-card totals keep that card's sums in registers.
    for (std::int32_t i = 0; i < m_d; ++i) s.rank_index[s.ranked[i].second] = i;
    for (std::int32_t h = 0, k = 0; h < n_; ++h)
      if (s.rank_index[h] >= 0) {
        dl.by_hand[o + k++] = s.rank_index[h];
        s.rank_index[h] = -1;
      }
    for (std::int32_t i = m_d; i > 0;) {
      std::int32_t j = i - 1;
      while (j > 0 && s.ranked[j - 1].first == s.ranked[i - 1].first) --j;
      for (std::int32_t k = j; k < i; ++k) dl.group_end[o + k] = i;
      i = j;
    }
    next_k_subset(pos, fresh, m);
  }
}

template <typename Real>
void HoldemLastRound<Real>::accumulate(Scratch& s, const Card* board, CardSet mask, int known,
                                       int fresh, const double* reach, const std::uint8_t* live,
                                       double* out, const FlopClasses* suits) const {
  s.stabilizer.clear();
  if (suits != nullptr && fresh > 0) s.stabilizer = board_stabilizer(*suits, mask);
  const bool symmetric = s.stabilizer.size() > 1;
  prepare(s, board, mask, known, fresh, suits);
  const auto deals = static_cast<std::int32_t>(s.deals.size.size());
  s.reach.resize(n_);
  s.acc.resize(n_);
  for (int t = 0; t < 2; ++t)
    for (const Chunk& c : chunks_) {
      bool any = false;
      for (int l = 0; l < kLanes; ++l) any |= c.entry[l] >= 0 && live[t * E_ + c.entry[l]] != 0;
      if (!any) continue;
      for (std::int32_t h = 0; h < n_; ++h) s.reach[h] = Lanes{};
      for (int l = 0; l < kLanes; ++l) {
        if (c.entry[l] < 0 || live[t * E_ + c.entry[l]] == 0) continue;
        const double* r = reach + (static_cast<std::size_t>(t) * E_ + c.entry[l]) * n_;
        for (std::int32_t h = 0; h < n_; ++h) s.reach[h][l] = static_cast<Real>(r[h]);
      }
      std::fill(s.acc.begin(), s.acc.end(), Lanes{});
      walk_chunk(s, c, t, deals);
      for (int l = 0; l < kLanes; ++l) {
        if (c.entry[l] < 0 || live[t * E_ + c.entry[l]] == 0) continue;
        double* o = out + (static_cast<std::size_t>(t) * E_ + c.entry[l]) * n_;
        if (!symmetric) {
          for (std::int32_t h = 0; h < n_; ++h) o[h] += s.acc[h][l];
          continue;
        }
        // Each walked deal stood for its orbit: Σ_π V(π h) / |G| (canonical_flops.h).
        const double inv = 1.0 / static_cast<double>(s.stabilizer.size());
        for (std::int32_t h = 0; h < n_; ++h) {
          double x = 0.0;
          for (std::int32_t p : s.stabilizer) x += s.acc[suits->hand_perm[p][h]][l];
          o[h] += x * inv;
        }
      }
    }
}

template class HoldemLastRound<float>;
template class HoldemLastRound<double>;

}  // namespace hulhe