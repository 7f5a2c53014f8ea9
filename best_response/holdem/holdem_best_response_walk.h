#pragma once
// The state and the steps of the real-game hold'em best response (holdem_best_response.h):
// what every file of it shares. The steps live by what they do:
//   holdem_best_response.cpp           the checks, the strategies read flat, the flop
//                                      classes and the run key; run() and the public class
//   holdem_round_walks.cpp             the walks of the public tree: one round's forward and
//                                      backward passes, the deals of the next round, a unit
//   holdem_best_response_units.cpp     which units, the parallel unit loop, the loop over
//                                      processes (unit_distribution.h), progress
//   holdem_best_response_estimate.cpp  flop-entry values, seat values and a sample's
//                                      intervals (systematic_sample.h)
// Not part of the library's interface: only those files include it.
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "best_response/holdem/deal_journal.h"
#include "best_response/holdem/holdem_best_response.h"
#include "best_response/holdem/holdem_last_round.h"
#include "best_response/holdem/resume_log.h"
#include "best_response/holdem/systematic_sample.h"
#include "public_tree/flat_betting_tree.h"
#include "util/progress_pace.h"

namespace hulhe {

struct HoldemBestResponse::Impl {
  // The re-solves of a run whose subgames are re-solved (options' `subgames`): done of
  // `total` over this run's units, reported as stage "re-solves" (holdem_best_response_units).
  class ResolveProgress {
   public:
    ResolveProgress(const HoldemBestResponseOptions& opt, std::int64_t total);
    // `count` more re-solves done; `computed`: by this run (not read back from the journal).
    void add(std::int64_t count, bool computed);

   private:
    const HoldemBestResponseOptions& opt_;
    std::mutex mutex_;
    std::int64_t done_ = 0, computed_ = 0, total_;
    ProgressTimer timer_;
  };

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
    // With re-solved subgames, units one at a time (compute_units): the unit's flop class, the
    // progress of the re-solves and the deal journal (null: none). The subgames of a deal
    // then run on the options' threads.
    std::int32_t flop = -1;
    ResolveProgress* resolves = nullptr;
    DealJournal* journal = nullptr;
  };

  const Policy& opp;
  const Policy* fixed = nullptr;
  HoldemBestResponseOptions opt;
  const BettingTree& tree;
  const GameDefinition& game;
  PrivateHands hands;
  std::int32_t n = 0;
  int rounds = 0;
  // The tree's nodes flat (flat_betting_tree.h), a decision node's table_offset that of bucket
  // 0 in opp_strat.
  std::vector<FlatNode> nodes;
  std::vector<std::int32_t> entry;  // per node: its id among the sequences entering its round
                                    // if it starts one, else -1
  std::array<std::vector<std::int32_t>, kMaxRounds> entries;  // node index per entry id
  std::array<std::vector<std::int64_t>, kMaxRounds> opp_off, fix_off;
  std::vector<double> opp_strat, fix_strat;
  FlopClasses flops;
  std::array<int, kMaxRounds> fresh{};      // board cards dealt at the start of round r
  std::array<double, kMaxRounds> compat{};  // boards of round r+1 compatible with two hands
  std::vector<Card> deck;
  // The last round's batched walk, in the precision chosen (one of the two is set).
  std::unique_ptr<HoldemLastRound<float>> last_single;
  std::unique_ptr<HoldemLastRound<double>> last_double;
  int max_depth = 0;
  bool single = false;
  std::uint64_t run_key = 0;

  // Throws InputError for games the walk does not handle (holdem_best_response.cpp).
  Impl(const Policy& o, const Policy* f, HoldemBestResponseOptions options);

  int depth_of(std::int32_t i) const;
  std::size_t block(int r) const { return entries[r].size() * static_cast<std::size_t>(n); }
  double* at(std::vector<double>& v, int r, int t, std::int32_t e) const {
    return v.data() + (static_cast<std::size_t>(t) * entries[r].size() + e) * n;
  }
  const double* at(const std::vector<double>& v, int r, int t, std::int32_t e) const {
    return v.data() + (static_cast<std::size_t>(t) * entries[r].size() + e) * n;
  }
  void init(Workspace& ws) const;

  // The walks (holdem_round_walks.cpp): one round's passes (folds: terminal_values.h), the
  // rounds.
  void forward(Workspace& ws, int t, int r, std::int32_t i, const double* reach, int depth) const;
  void value(Workspace& ws, int t, int r, std::int32_t i, const double* reach, double* out,
             int depth) const;
  void lookup_buckets(Workspace& ws, int r) const;
  void accumulate_last(Workspace& ws, int r, int deal, const double* reach,
                       const std::uint8_t* live, double* out) const;
  void process(Workspace& ws, int r) const;
  void deal_next_round(Workspace& ws, int r) const;
  // The suit permutations when flops are merged by suit isomorphism (the strategies passed the
  // symmetry check), else null.
  const FlopClasses* suits() const { return flops.hand_perm.size() > 1 ? &flops : nullptr; }
  void unit(Workspace& ws, const Workspace& pre, std::int32_t c, double* out) const;
  // Deals walked from round r's board `board` down to round `to` (one per orbit with suit
  // isomorphism, as deal_next_round walks them): 1 when r == to.
  std::int64_t deals_to(CardSet board, int r, int to) const;
  // The re-solves (subgame calls, live or not) of flop class c's unit, or below one deal of
  // round r's board `board`.
  std::int64_t resolves_below(CardSet board, int r) const;
  void preflop_forward(Workspace& ws) const;
  void coefficients(Workspace& ws, int t, std::int32_t i, const double* reach,
                    std::vector<double>& coef, int depth) const;

  // The pieces of run(): the flop units and their draws, the parallel unit loop, and the
  // estimator (flop-entry values, seat values, and a sample's intervals).
  SystematicSample draw_units(bool exact) const;
  // Which of the run's U units are in scope: opt.only_units, or all (InputError for a unit
  // the run does not have).
  std::vector<std::uint8_t> unit_scope(std::int64_t U) const;
  // The units to compute now, in sample order: not done, in opt.only_units if given, at most
  // opt.max_units of them; `resumed`: those in scope already done.
  struct PendingUnits {
    std::vector<std::int64_t> units;
    std::int64_t resumed = 0;
    std::int64_t in_scope = 0;  // units of this run (only_units, or all)
  };
  PendingUnits pending_units(const std::vector<std::uint8_t>& done) const;
  std::int64_t compute_units(const Workspace& pre, const std::vector<std::int32_t>& units,
                             std::vector<std::vector<double>>& result,
                             std::vector<std::uint8_t>& done, ResumeLog* log,
                             std::int64_t& deals_resumed) const;
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
  // The estimate (value, mean, intervals, draws) over the sample's units u with use[u].
  void estimate(Workspace& pre, const SystematicSample& sample,
                const std::vector<std::vector<double>>& result,
                const std::vector<std::uint8_t>& use, bool exact,
                HoldemBestResponseReport& rep) const;
  HoldemBestResponseReport run();
};

}  // namespace hulhe
