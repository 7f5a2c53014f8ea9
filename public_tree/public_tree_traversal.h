#pragma once
// Vector-form walk of the public tree of a small 2-player limit game (Johanson et al. 2012,
// "Efficient Nash equilibrium approximation through Monte Carlo CFR"; Johanson et al. 2011
// for best response). Instead of one walk per deal, one walk per public state carries a
// reach probability for every private hand of each player; chance nodes deal the public
// board (all boards, or one sampled chain for public chance sampling); terminals are valued
// for all hands at once in O(n) (terminal_values.h). Buckets of every (round, board, hand)
// are looked up once, when the walker is built, so the walk never calls the abstraction.
//
// The same walk serves the full-traversal CFR family (a pass for one traverser: regret and
// average updates), best response (max over actions at the responder's nodes, per real
// hand: its information set is (public node, own cards), so this is the real-game best
// response even when the strategy is abstracted) and the value of a profile.
// Parallelism: the boards below the first chance node are split across OpenMP threads, each
// with its own scratch and its own regret/average buffers, summed after the pass; a 1-thread
// pass is deterministic.
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "abstraction/card_abstraction.h"
#include "game/betting_tree.h"
#include "public_tree/flat_betting_tree.h"
#include "public_tree/private_hands.h"
#include "public_tree/sampled_deal.h"
#include "public_tree/strategy_tables.h"
#include "public_tree/terminal_values.h"

namespace hulhe {

// Board index of every round on one sampled chain (public chance sampling).
using BoardChain = std::array<std::int32_t, kMaxRounds>;

// How the walker knows the public boards. kEnumerate: every board of every round is listed
// and every hand's bucket on it looked up once, when the walker is built (small games; full
// traversals and best response). kSampleDeck: no board is listed; a sampled pass deals one
// board from the deck and looks up the buckets of every hand on it for that pass only
// (public chance sampling on HULHE, whose 2.6M river boards cannot be held).
enum class BoardMode { kEnumerate, kSampleDeck };

struct CfrPass {
  int traverser = 0;
  // sigma^t laid out like the tables; null: regret matching of `regrets` at each node as the
  // walk reaches it (the traverser's regrets of a node are updated after its children are
  // walked, and an information set is met once per pass, so this equals a snapshot taken
  // before the pass, without copying the tables).
  const double* strategy = nullptr;
  // Regret increments are added to `regrets`, weight * pi_i * sigma to `average_sums` when
  // weight > 0: the float32 pair or the float64 pair is set, never both (set_tables).
  float* regrets = nullptr;
  float* average_sums = nullptr;
  double* regrets64 = nullptr;
  double* average_sums64 = nullptr;
  double average_weight = 1.0;
  // Each regret increment is multiplied by this (CfrParameters::regret_weight: 1 but in a
  // solve over MPI ranks).
  double regret_weight = 1.0;
  // CFR-BR (cfr_br.h): the opponent's strategy per real information set (decision node,
  // board, own hand; layout PublicTreeTraversal::hand_strategy_offset). When set, the
  // opponent's nodes read it instead of `strategy` through the buckets. Enumerated boards only.
  const double* opponent_hand_strategy = nullptr;
  // Best-response walks: the responder's pure best response is written here in that layout (1
  // on its best action, the first of equals; hands that touch the board get 0s). Nodes the
  // policy never reaches are skipped and keep what they held.
  double* best_response_out = nullptr;
  bool sampled = false;  // walk the board set by sample_board() on the worker, not all boards
  // Sampled passes: below the dealt chain, every board of the last round is walked (an exact
  // expectation over the last cards, as a best response must take) instead of the dealt one
  // (prepare_last_round() must have listed them).
  bool enumerate_last_round = false;
  // Sampled CFR-BR with the hybrid opponent (hybrid_cfr_br.h), when >= 0: rounds before
  // `subgame_round` are the trunk, where the opponent is a regret minimiser over real
  // information sets; from it on, the subgames, where the opponent best-responds.
  // Best-response walks: the responder's trunk nodes play `responder_trunk_strategy` and add
  // their counterfactual regret increments to `responder_trunk_regrets` (both in the layout
  // of sampled_hand_offset); its subgame nodes take the max, and on the dealt board (the
  // dealt last-round board when the last round is enumerated) each hand's chosen action goes
  // to `response_actions` (layout sampled_action_offset; 0 where the walk never went).
  // CFR walks: the opponent plays `opponent_trunk_strategy` in the trunk and
  // `opponent_actions` in the subgames.
  int subgame_round = -1;
  const double* responder_trunk_strategy = nullptr;
  double* responder_trunk_regrets = nullptr;
  std::uint8_t* response_actions = nullptr;
  const double* opponent_trunk_strategy = nullptr;
  const std::uint8_t* opponent_actions = nullptr;
  // Several passes run at once on the same tables (hogwild, as in Pluribus): loads and stores
  // of the tables are relaxed atomics, so concurrent updates can be lost but nothing is torn.
  bool shared_tables = false;
  int threads = 1;

  // Points the pass at the tables, in their precision.
  void set_tables(StrategyTables& tables) {
    set_arrays(nullptr, nullptr, nullptr, nullptr);
    if (tables.precision() == TablePrecision::kFloat64)
      set_arrays(nullptr, nullptr, tables.regrets<double>().data(),
                 tables.average_sums<double>().data());
    else
      set_arrays(tables.regrets<float>().data(), tables.average_sums<float>().data(), nullptr,
                 nullptr);
  }
  void set_arrays(float* r32, float* s32, double* r64, double* s64) {
    regrets = r32;
    average_sums = s32;
    regrets64 = r64;
    average_sums64 = s64;
  }
  bool wide() const { return regrets64 != nullptr; }
  template <typename T>
  T* regret_table() const {
    return of_type<T>(regrets, regrets64);
  }
  template <typename T>
  T* average_table() const {
    return of_type<T>(average_sums, average_sums64);
  }

 private:
  // `f` or `d`, the one that points to T.
  template <typename T>
  static T* of_type(float* f, double* d) {
    if constexpr (std::is_same_v<T, double>)
      return d;
    else
      return f;
  }
};

class PublicTreeTraversal {
 public:
  // Default limit on boards x hands (the bucket lookups kept in memory): Leduc-sized games
  // and toy hold'em variants, not HULHE.
  static constexpr std::int64_t kDefaultMaxBoardHands = std::int64_t{1} << 26;

  // `layout`: tables built from the same tree and abstraction (only offsets are read).
  // Throws InputError for games it cannot walk (see private_hands.h) or that are too large
  // to enumerate (kEnumerate). The abstraction must outlive the walker.
  PublicTreeTraversal(const BettingTree& tree, const CardAbstraction& abstraction,
                      const StrategyTables& layout,
                      std::int64_t max_board_hands = kDefaultMaxBoardHands,
                      BoardMode mode = BoardMode::kEnumerate);

  // One CFR pass for pass.traverser over every board; returns its expected value (chips per
  // hand) under the pass's strategy.
  double cfr_pass(const CfrPass& pass);
  // One pass on scratch `worker` (0..max_workers-1), single-threaded, over the board last set
  // on that worker by sample_board() when pass.sampled: lets a caller run several sampled
  // passes concurrently, each on its own worker.
  double cfr_pass_on(int worker, const CfrPass& pass);
  // Draws one board of every round from `rng` (uniform over the deck) for `worker`'s next
  // sampled passes, and looks up every hand's buckets on it.
  void sample_board(int worker, SplitMix64& rng);
  // Deal-sampling mode: lists every last-round board below the chain sample_board() dealt on
  // `worker` (and each hand's bucket on it) for passes with enumerate_last_round; run before
  // such passes, after each sample_board().
  void prepare_last_round(int worker);
  // A best-response walk (CfrPass::subgame_round, pass.traverser the responder) over the
  // board dealt on worker 0, its last round enumerated on `pass.threads` threads; returns
  // the responder's value (chips per hand). Deterministic for any thread count.
  double hybrid_response_pass(const CfrPass& pass);
  // Per-sample layouts of one dealt chain: decision node i's entries of hand h are at
  // sampled_hand_offset(i) + h * num_actions (doubles, sampled_hand_size() in all; nodes
  // before the last round only, the rounds a trunk can hold) and sampled_action_offset(i) + h
  // (one action per hand, every decision node, sampled_action_size() in all).
  std::int64_t sampled_hand_offset(std::int32_t node) const { return sampled_offset_[node]; }
  std::int64_t sampled_hand_size() const { return sampled_size_; }
  std::int64_t sampled_action_offset(std::int32_t node) const { return action_offset_[node]; }
  std::int64_t sampled_action_size() const { return action_size_; }
  // The board dealt on `worker` by the last sample_board() (cumulative, dealing order).
  const Card* dealt_board(int worker) const { return workers_[worker].dealt_board.data(); }

  // Value of a best response of `responder` to `strategy` (both seats' strategies are in it;
  // only the other position's is used), in chips per hand. With `response`, the best response
  // itself is written there (CfrPass::best_response_out).
  double best_response_value(int responder, const double* strategy, int threads = 1,
                             double* response = nullptr);
  // Value for `player` of the profile `strategy`, in chips per hand.
  double expected_value(int player, const double* strategy);

  // Threads pay off only when a chance node holds enough work (hands x boards): an OpenMP
  // fork/join per chance node costs more than all of Leduc's 6 hands x 6 boards. Below
  // `min_parallel_work` passes run on one thread whatever `threads` says (tests lower it).
  bool parallel_worthwhile() const { return parallel_work_ >= min_parallel_work_; }
  void set_min_parallel_work(std::int64_t work) { min_parallel_work_ = work; }
  void reserve_workers(int workers);

  // A strategy per real information set (decision node, board, hand) rather than per bucket
  // (CFR-BR's best responding opponent): decision node i's entries for board b of its round
  // and hand h are at hand_strategy_offset(i) + (b * hands().size() + h) * num_actions, in
  // an array of hand_strategy_size() doubles. Enumerated boards only (0 otherwise).
  std::int64_t hand_strategy_offset(std::int32_t node) const { return hand_offset_[node]; }
  std::int64_t hand_strategy_size() const { return hand_strategy_size_; }

  const PrivateHands& hands() const { return hands_; }
  const PublicBoards& boards() const { return boards_; }
  BoardMode board_mode() const { return mode_; }

 private:
  enum class Mode { kCfr, kBestResponse, kExpectedValue };

  struct Workspace {
    std::vector<double> scratch;  // kBlock * n doubles per depth level
    // Threads > 0 of a parallel pass add here, in the tables' precision.
    std::vector<float> regret_buffer, average_buffer;
    std::vector<double> regret_buffer64, average_buffer64;
    // The board being walked: each round's bucket row ([hand], -1 where the hand touches the
    // board) and the final round's showdown order.
    std::array<const std::int32_t*, kMaxRounds> row{};
    const ShowdownOrder* showdown = nullptr;
    // kSampleDeck: the rows and order of the board dealt by sample_board().
    std::array<std::vector<std::int32_t>, kMaxRounds> dealt_rows;
    ShowdownOrder dealt_showdown;
    std::array<Card, kMaxBoardCards> dealt_board{};
    // Hybrid best-response walks: whether this walk is on the dealt board (response_actions).
    bool on_dealt_board = true;
    CfrPass pass;
  };

  template <Mode M, bool kShared, typename T = float>
  void walk(Workspace& ws, std::int32_t node, int round, std::int32_t board, const double* reach_t,
            const double* reach_o, double* out, int depth);
  template <Mode M, bool kShared, typename T = float>
  void chance(Workspace& ws, std::int32_t node, int round, std::int32_t board,
              const double* reach_t, const double* reach_o, double* out, int depth);
  // The last round's boards below the dealt chain, all of them (CfrPass::enumerate_last_round).
  template <Mode M, bool kShared, typename T = float>
  void enumerate_last_round(Workspace& ws, std::int32_t node, int round, const double* reach_t,
                            const double* reach_o, double* out, int depth);
  template <Mode M, bool kShared, typename T = float>
  double run_root(Workspace& ws);
  int compute_depth(std::int32_t node) const;
  const std::int32_t* buckets(int round, std::int32_t board) const {
    return buckets_[round].data() + static_cast<std::int64_t>(board) * n_;
  }

  static constexpr int kBlock = 8;  // doubles per hand per depth level (see walk)

  const BettingTree& tree_;
  const CardAbstraction& abstraction_;
  BoardMode mode_;
  PrivateHands hands_;
  PublicBoards boards_;  // kSampleDeck: only the per-round counts are filled in
  std::vector<FlatNode> nodes_;
  std::vector<std::int64_t> hand_offset_;  // per node (hand_strategy_offset); 0: not a decision
  std::int64_t hand_strategy_size_ = 0;
  std::array<std::vector<std::int32_t>, kMaxRounds> buckets_;  // [board * n + hand], -1: clash
  std::vector<ShowdownOrder> showdown_;                        // per final-round board
  std::vector<Card> deck_;
  std::int32_t n_ = 0;
  int num_rounds_ = 0;
  int max_depth_ = 0;
  std::int64_t table_size_ = 0;
  std::vector<Workspace> workers_;
  std::vector<double> chance_values_;  // per child board of a parallel chance node
  std::vector<std::int64_t> sampled_offset_, action_offset_;  // per node (0: not a decision)
  std::int64_t sampled_size_ = 0, action_size_ = 0;
  // prepare_last_round(): the last round's boards below the dealt chain, each hand's bucket
  // on them ([board * n + hand], -1: clash) and their showdown orders; which one was dealt.
  std::vector<std::int32_t> last_rows_;
  std::vector<ShowdownOrder> last_showdown_;
  std::int32_t last_boards_ = 0, last_dealt_ = -1;
  std::int64_t parallel_work_ = 0;  // hands x boards of the largest chance node
  std::int64_t min_parallel_work_ = 4096;
};

}  // namespace hulhe
