#pragma once
// CFR-BR with the hybrid opponent, sampled (Johanson, Bard, Burch & Bowling 2012, "Finding
// optimal abstract strategies in extensive-form games", AAAI, Section 5): CFR-BR for games
// whose exact best response is too costly to compute every iteration, HULHE above all.
//
// The game is split into a trunk (every round but the last two) and subgames (the last two
// rounds, one per public board entering the second-to-last round: in HULHE the turn and the
// river below a dealt flop and turn). Each seat p's abstract strategy trains against a hybrid
// opponent that, in the trunk, is a regret minimiser over *real* information sets (its own
// cards up to suit isomorphism and the board; no abstraction) and, in the subgames, plays
// an exact best response to sigma_p^t. Every iteration t deals one board chain from the
// (seed, t) stream (public chance sampling); then for each seat p:
//   1. the opponent's trunk strategy on that board is regret matching of its trunk regrets;
//   2. one walk, the opponent as responder, with the last round's boards all enumerated:
//      trunk nodes mix and collect counterfactual regret increments (added to the trunk
//      regrets after the walk), subgame nodes take the max and write the chosen action of
//      every hand on the dealt board;
//   3. one public-chance-sampled CFR pass of p over the dealt chain against that opponent:
//      p's regrets and its uniform average (weight 1, as the paper) are updated.
// As the trunk regret minimiser's regret grows sublinearly, the hybrid approaches a real-game
// best response and p's average converges to the abstract strategy least exploitable in the
// real game, as in exact CFR-BR (cfr_br.h), here at the cost of one subgame best response per
// seat and iteration instead of a whole-game one.
//
// State beyond the tables: the trunk regrets (float; HULHE: 169 canonical preflop hands and
// 1,286,792 canonical flop hands per betting node, ~0.9 GB), kept in checkpoints
// (extra_state). Step 2 spreads the last round's boards over OpenMP threads and sums their
// values in board order, so a run is the same for every thread count and a resumed run
// continues bit-for-bit.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "game/hand_indexer.h"
#include "solver/vector_form_cfr.h"

namespace hulhe {

// Why the sampled hybrid cannot run on `game` ("" when it can).
std::string hybrid_cfr_br_unavailable_reason(const GameDefinition& game);

class HybridCfrBr final : public VectorFormCfr {
 public:
  // Throws InputError (hybrid_cfr_br_unavailable_reason) for games it cannot walk.
  HybridCfrBr(const CfrParameters& params, const BettingTree& tree,
              const CardAbstraction& abstraction, StrategyTables& tables);
  void run(std::int64_t first, std::int64_t count, int threads) override;
  std::vector<float>* extra_state() override { return &trunk_regrets_; }

  // The first subgame round (the trunk is the rounds before it).
  int subgame_round() const { return subgame_round_; }
  // The trunk regret minimiser's current strategy (regret matching) at decision node `node`
  // of a trunk round for trunk index `index` (trunk_index), written to sigma[0..A).
  void trunk_strategy(std::int32_t node, std::int64_t index, double* sigma) const;
  // A hand's trunk index in round r (< subgame_round): its canonical (suit-isomorphic) index.
  std::int64_t trunk_index(int round, const Card* hole, const Card* board) const;

 private:
  void index_dealt_hands();

  const BettingTree& tree_;
  int subgame_round_ = 0;
  std::vector<HandIndexer> indexers_;       // per trunk round
  std::vector<std::int64_t> trunk_offset_;  // per node: first regret (-1: not a trunk decision)
  std::vector<float> trunk_regrets_;        // [offset + index * A + a]
  std::array<std::vector<std::int64_t>, kMaxRounds> dealt_index_;  // [round][hand], -1: clash
  std::vector<double> trunk_sigma_, trunk_delta_;                  // walker's sampled hand layout
  std::vector<std::uint8_t> actions_;                              // walker's sampled action layout
};

}  // namespace hulhe
