#pragma once
// CFR-BR (Johanson, Bard, Burch & Bowling 2012, "Finding optimal abstract strategies in
// extensive-form games", AAAI): each seat's abstract strategy is trained by CFR against a
// best response in the real game instead of against the other seat's abstract strategy.
// Every iteration t, for each seat p: the opponent's exact real-game best response to
// sigma_p^t is computed (per real hand: its information set is the public node and its own
// cards, the abstraction does not bind it), then p's regrets are updated by one CFR pass in
// which the opponent plays that pure response, and sigma_p^t is added to p's average with
// weight 1. p's regret against the sequence of responses bounds how far its average is from
// the best value the abstraction can guarantee, so the average converges to the abstract
// strategy least exploitable in the real game (for that seat), free of the pathologies of
// abstract self-play (Waugh et al. 2009). Regret matching and uniform averaging, as in the
// paper; the two seats train independently, each half of the tables.
//
// Lives beside the other CFR algorithms because the exact best response it needs is the
// public-tree walker's best-response pass (public_tree_traversal.h; best_response/ wraps
// the same pass for any Policy): no layer above solver/ is involved, and make_cfr_algorithm
// builds it like the others. Full traversals with enumerated boards, so only for games whose
// exact best response is affordable (Kuhn, Leduc, the reduced hold'em games); deterministic,
// so a resumed run continues bit-for-bit. Larger games (HULHE) get the paper's sampled
// trunk/subgame hybrid instead (hybrid_cfr_br.h; make_cfr_algorithm picks it).
#include <string>
#include <vector>

#include "solver/vector_form_cfr.h"

namespace hulhe {

// Why CFR-BR cannot run on `game` ("" when it can): its boards x hands must be few enough for
// the walker to enumerate, as an exact best response every iteration needs.
std::string cfr_br_unavailable_reason(const GameDefinition& game);

class CfrBr final : public VectorFormCfr {
 public:
  // Throws InputError (cfr_br_unavailable_reason) for games too large.
  CfrBr(const CfrParameters& params, const BettingTree& tree, const CardAbstraction& abstraction,
        StrategyTables& tables);
  void run(std::int64_t first, std::int64_t count, int threads) override;

 private:
  // The opponent's best response per real information set (walker's hand-strategy layout),
  // and what it starts as before each best-response walk: the walk skips subtrees the
  // trained seat never reaches, where every action is a best response worth 0, and those
  // keep the first action, the walk's own choice among equals, whatever came before (so a
  // resumed run continues bit-for-bit).
  std::vector<double> response_, first_action_;
};

}  // namespace hulhe
