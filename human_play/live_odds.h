#pragma once
// The odds panel of a person at the table (the desktop poker games hulhe grew from show the
// same three numbers), for any 2-player ACPC deck (Kuhn, Leduc, hold'em):
//   - equity against a random hand: the share of the pot the person's hand wins at showdown
//     (ties shared) against every opponent hand with equal weight, the board completed;
//   - equity against the opponent's range: the same with each opponent hand weighted by the
//     product of the probabilities the opponent's strategy gives, holding that hand, to the
//     actions it took this hand (Bayes' rule with a uniform prior over the deal, the range
//     reading of Billings et al. 2003 / Southey et al. 2005 "Bayes' bluff"); an opponent
//     that gives no probabilities (agents/agent.h) leaves the range uniform;
//   - the chance of each hand category (high card ... straight flush) of the person's best
//     hand once the whole board is out.
// Each is exact (every opponent hand and board completion enumerated) when that visits at
// most `exact_limit` deals, else Monte Carlo over `samples` deals drawn from a generator
// seeded by the caller, with its standard error reported.
#include <array>
#include <cstdint>
#include <vector>

#include "agents/agent.h"
#include "game/card.h"
#include "game/game_definition.h"
#include "game/game_state.h"
#include "game/hand_evaluator.h"

namespace hulhe {

struct LiveOddsConfig {
  int samples = 20000;                   // Monte Carlo deals when enumeration is too large
  std::int64_t exact_limit = 2'000'000;  // enumerate when there are at most this many deals
};

struct EquityEstimate {
  double equity = 0;       // in [0, 1]
  double std_error = 0;    // 0 when exact
  bool exact = false;      // every deal enumerated
  std::int64_t deals = 0;  // deals enumerated or sampled
};

struct CategoryChances {
  std::array<double, kNumHandCategories> chance{};  // by HandCategory; sums to 1
  bool exact = false;
  std::int64_t deals = 0;  // board completions enumerated or sampled
};

struct LiveOdds {
  EquityEstimate vs_random;
  EquityEstimate vs_range;
  // False when the opponent gave no probabilities (or the range's weights vanished): then
  // vs_range is over a uniform range, the same as vs_random.
  bool range_from_strategy = false;
  CategoryChances categories;
};

// The showdown rank of `cards` under `game` (GameState::hand_rank's ranking: the 7-card
// evaluator on a standard deck, the ACPC dealer's otherwise): higher wins, equal ties.
std::int32_t showdown_rank(const GameDefinition& game, CardSet cards);
// The category of the best hand in `cards` under `game`.
HandCategory hand_category(const GameDefinition& game, CardSet cards);

// The opponent's possible hole cards, each with a weight (1 before any action).
class OpponentRange {
 public:
  struct Hand {
    std::array<Card, kMaxHoleCards> cards{};
    CardSet set;
  };

  // Every combination of the game's hole cards from its deck (1,326 in hold'em).
  explicit OpponentRange(const GameDefinition& game);

  // All weights back to 1 (a new hand).
  void reset();
  // The opponent, in `position`, took `action` at `state` (the state before the action, with
  // any hole cards: they are replaced here). Multiplies each hand's weight by the probability
  // `agent` gives `action` holding it; hands touching `dead` (cards the opponent cannot hold:
  // the person's and the board's) are left alone, since they are excluded when used. An agent
  // without probabilities makes the range uniform for the rest of the hand.
  void observe(Agent& agent, const GameState& state, int position, Action action, CardSet dead);

  const std::vector<Hand>& hands() const { return hands_; }
  const std::vector<double>& weights() const { return weights_; }
  // False once an action came from an agent without probabilities.
  bool from_strategy() const { return from_strategy_; }

 private:
  int hole_cards_ = 0;
  std::vector<Hand> hands_;
  std::vector<double> weights_;
  bool from_strategy_ = true;
};

// Equity of `hole` with the first `board_count` board cards against `hands` weighted by
// `weights` (hands touching the person's cards or the board count 0). Throws InputError when
// no opponent hand has a positive weight.
EquityEstimate range_equity(const GameDefinition& game, const Card* hole, const Card* board,
                            int board_count, const std::vector<OpponentRange::Hand>& hands,
                            const std::vector<double>& weights, const LiveOddsConfig& config,
                            std::uint64_t seed);

// Chance of each category of the person's best hand once the board is complete.
CategoryChances category_chances(const GameDefinition& game, const Card* hole, const Card* board,
                                 int board_count, const LiveOddsConfig& config, std::uint64_t seed);

// All three for the person's hand and the board so far. A range whose weights all vanished
// (the opponent played a hand's action with probability 0 in every hand left, possible only
// with bots) is replaced by the uniform one and reported so.
LiveOdds live_odds(const GameDefinition& game, const Card* hole, const Card* board, int board_count,
                   const OpponentRange& range, const LiveOddsConfig& config, std::uint64_t seed);

}  // namespace hulhe
