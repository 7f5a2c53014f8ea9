#pragma once
// The last betting round (the river in HULHE) of the real-game hold'em best response
// (holdem_best_response.h), batched: it holds ~all of the work (per flop 2,352 turn-river
// boards x 567 river sequences x 2 seats in HULHE), so it is laid out for the memory system
// and SIMD rather than walked sequence by sequence.
//
// - Lanes are sequences. The sequences entering the last round are grouped by the shape of
//   their subtree (in limit games all alike) and packed into chunks of one 64-byte line:
//   16 sequences in single precision, 8 in double, so each vector operation serves a whole
//   chunk (one AVX-512 register). The opponent's last-round strategy is re-laid out once
//   per chunk and seat as [bucket][column][lane]: the probabilities one opponent hand needs
//   are a few consecutive lines.
// - Boards inner, chunks outer. For one board before the last round, every deal of the last
//   round's cards is prepared once (hands that do not touch the board, sorted by showdown
//   rank, with their buckets); then each chunk walks all deals while its strategy lines and
//   reach stay in cache.
// - The subtree is compiled per chunk and seat into a program: the opponent's reach vectors
//   (the reach changes only at the opponent's actions), how each is formed (a strategy
//   column times its parent, or parent minus siblings where σ sums to 1), and which need
//   per-card sums; vectors are numbered so that each list the walk loops over is a dense
//   range.
// - Per deal and chunk, hands go in blocks of 16 (ending at the end of a group of tied
//   hands), each operation looping over the block innermost, so the program is interpreted
//   once per block. A pre-pass sums each directly summed vector per card; one sweep in rank
//   order gives the showdown sums (Johanson et al. 2011's O(n) showdown with card removal,
//   rewritten so that ties need no second sweep: with W the disjoint reach strictly below a
//   hand and W' the same including its rank group, the showdown sum is
//   W + W' - (fold sum - own reach)). Fold sums come from the per-card totals, or for a
//   vector that ends only in folds, per hand as its parent's minus its siblings'
//   (linearity); such vectors are not formed at all. Values go up the subtree position by
//   position: max over the responder's actions (best response) or the fixed strategy's mix
//   (head-to-head), sums over the opponent's, terminals read as coefficient × sum.
// - Reach vectors whose strategy entries are all zero for the chunk are never formed (their
//   subtrees are worth 0).
//
// In double: the same sums of products as the sequence-by-sequence walk. In single: see
// holdem_best_response.h for the error bound.
#include <array>
#include <cstdint>
#include <vector>

#include "abstraction/policy.h"
#include "best_response/holdem/canonical_flops.h"
#include "best_response/holdem/last_round_deals.h"
#include "game/card.h"
#include "public_tree/private_hands.h"

namespace hulhe {

// 64 bytes (one cache line, one AVX-512 register) of Real.
template <typename Real>
struct LaneVector;
template <>
struct LaneVector<float> {
  typedef float type __attribute__((vector_size(64)));
};
template <>
struct LaneVector<double> {
  typedef double type __attribute__((vector_size(64)));
};

// `Real`: double (sums as exact as the reference walk's) or float (twice the lanes per
// cache line and per instruction; see holdem_best_response.h for the error bound).
template <typename Real>
class HoldemLastRound {
 public:
  static constexpr int kLanes = 64 / static_cast<int>(sizeof(Real));
  using Lanes = typename LaneVector<Real>::type;

  // Per-thread buffers (sized on first use).
  struct Scratch {
    LastRoundDeals deals;                  // of the board being walked
    std::vector<std::int32_t> rank_index;  // [hand]: scratch
    std::vector<std::int32_t> stabilizer;  // suit permutations fixing the board
    std::vector<std::pair<std::int32_t, std::int32_t>> ranked;  // (rank, hand)
    std::vector<Lanes> reach, acc;                              // [hand]
    std::vector<Lanes> card_total, card_below;                  // [card][vector]
    std::vector<Lanes> total, below;                            // [vector]
    // [hand of a block][vector] (value_block: [position][hand])
    std::vector<Lanes> reach_block, fold_block, showdown_block, below_block, value_block,
        zero_block;
  };

  // `entries`: the tree's node indices of the sequences entering the last round, in the
  // order of the caller's value arrays.
  // `unrolled`: limit games walk the last round with the kernel unrolled for their subtree
  // (limit_last_round_kernel.h); false keeps the interpreted walk (tests compare the two).
  HoldemLastRound(const Policy& opp, const Policy* fixed, const PrivateHands& hands,
                  const std::vector<std::int32_t>& entries, bool unrolled = true);

  // Whether every chunk walks the last round with the unrolled limit kernel.
  bool unrolled() const;

  // For a board `board`/`mask` of `known` cards, deals every `fresh`-card completion (one
  // deal, the board itself, when fresh == 0) and adds each hand's value summed over the
  // deals to out[(t * E + e) * n + h] for every seat t and live (`live[t * E + e]`) entry
  // e; `reach[(t * E + e) * n + h]` is the opponent's reach entering the round.
  // With `suits` (suit permutations of a suit-symmetric run), only one deal per orbit of the
  // board's stabilizer is walked (canonical_flops.h).
  void accumulate(Scratch& s, const Card* board, CardSet mask, int known, int fresh,
                  const double* reach, const std::uint8_t* live, double* out,
                  const FlopClasses* suits) const;

 private:
  enum class Kind : std::uint8_t { kResponder, kOpponent, kFold, kShowdown, kZero };
  struct Position {  // one node of a last-round subtree, preorder
    Kind kind = Kind::kFold;
    std::uint8_t num_children = 0;
    std::array<std::int32_t, 3> child{};  // positions
    std::int32_t vec = 0;                 // the opponent's reach vector here
    std::int32_t slot = -1;               // strategy slot of action 0 (decisions)
    std::int32_t term = -1;               // terminal index (folds and showdowns)
  };
  struct ReachVector {
    std::int32_t parent = -1;       // -1: the reach entering the round
    std::int32_t slot = -1;         // the opponent's strategy slot that multiplies the parent's
    bool showdown = false;          // swept in rank order
    bool totals = false;            // per-card totals needed (showdown or fold)
    bool direct = false;            // totals summed in the pre-pass (else derived)
    std::int32_t derive_from = -1;  // parent vector (derived totals)
    std::vector<std::int32_t> derive_minus;  // sibling vectors (derived totals)
    std::int32_t family = -1;                // the opponent position it leaves
    bool rest = false;  // formed as parent minus its formed siblings (σ sums to 1)
  };
  struct FormOp {  // one reach vector formed per hand, in order
    std::int32_t dst = 0, src = 0;
    std::int32_t row = -1;  // column of `sigma`; -1: dst = src - minus
    std::array<std::int32_t, 2> minus{-1, -1};
  };
  struct Program {  // one seat's walk of one chunk
    std::vector<Position> pos;
    std::vector<ReachVector> vec;
    std::vector<std::int32_t> computed;  // vectors formed per hand, parents first
    std::vector<FormOp> form;            // how computed[1..] are formed
    std::int32_t columns = 0;            // strategy columns per bucket
    std::vector<Lanes> sigma;            // [bucket][column]: the opponent's σ per lane
    std::vector<std::int32_t> direct, derived, swept;
    std::vector<Lanes> coef;  // per terminal: fold payoff or showdown pot, per lane
    std::int32_t root = 0;    // the vector entering the round
  };
  // One seat's walk of one chunk by the unrolled limit kernel (cap 0: not applicable).
  struct LimitProgram {
    int cap = 0;                   // raises allowed in the last round
    bool responder_first = false;  // the responder acts first in the last round
    int num_direct = 0;            // the plan's per-card summed vectors (scratch sizes)
    int num_swept = 0;             // the plan's showdown vectors
    std::vector<Lanes> sigma;      // [bucket][plan column]
    std::vector<Lanes> coef;       // [terminal, preorder]
  };
  struct Chunk {
    std::array<std::int32_t, kLanes> entry{};  // -1: empty lane
    std::array<Program, 2> program;            // by responder seat
    std::array<LimitProgram, 2> limit;         // by responder seat
    std::int64_t table = 0;                    // first slot of this chunk in the tables
  };

  Program compile(const std::vector<std::int32_t>& shape_nodes, int seat, const Chunk& c,
                  const std::vector<std::vector<std::int32_t>>& lane_nodes,
                  const std::vector<std::int32_t>& pos_slot) const;
  LimitProgram compile_limit(const std::vector<std::int32_t>& shape_nodes, int seat, const Chunk& c,
                             const std::vector<std::vector<std::int32_t>>& lane_nodes,
                             const std::vector<std::int32_t>& pos_slot) const;
  // Payoff coefficient per lane of the terminal at position k (fold payoff or showdown pot).
  Lanes terminal_coef(const Chunk& c, const std::vector<std::vector<std::int32_t>>& lane_nodes,
                      std::size_t k, int seat) const;
  // Whether test(bucket, lane) holds in every bucket of the opponent and used lane of `c`.
  template <typename Test>
  bool every_used_lane(const Chunk& c, Test test) const;
  // The opponent's probabilities of the `A` actions from local slot `slot` sum to 1 in every
  // used lane and bucket (to 8 ulps of Real).
  bool sums_to_one(const Chunk& c, std::int64_t slot, int A) const;
  // The opponent never takes the action of local slot `slot` (probability 0 in every used lane
  // and bucket).
  bool never_taken(const Chunk& c, std::int64_t slot) const;
  // Local slot `slot`'s probabilities ([bucket] lanes) into column `column` of a
  // [bucket][columns] table (a program's `sigma`).
  void copy_strategy_column(std::int64_t slot, std::vector<Lanes>& table, std::size_t columns,
                            std::size_t column) const;
  void walk_limit(Scratch& s, const Chunk& c, int seat, std::int32_t deals) const;
  void prepare(Scratch& s, const Card* board, CardSet mask, int known, int fresh,
               const FlopClasses* suits) const;
  void walk_chunk(Scratch& s, const Chunk& c, int seat, std::int32_t deals) const;

  const Policy& opp_;
  const Policy* fixed_;
  const PrivateHands& hands_;
  int round_ = 0;
  std::int32_t n_ = 0;
  std::int32_t E_ = 0;
  std::int32_t opp_buckets_ = 0, fix_buckets_ = 0;
  bool full_deck_ = false;
  std::vector<Card> deck_;
  std::vector<Chunk> chunks_;
  // [slot][bucket] lanes: opponent's (strategy_, only while compiling; the walks read each
  // program's `sigma`) and fixed (fixed_strategy_) probabilities; a slot is (chunk,
  // decision position, action).
  std::vector<Lanes> strategy_, fixed_strategy_;
};

extern template class HoldemLastRound<float>;
extern template class HoldemLastRound<double>;

}  // namespace hulhe
