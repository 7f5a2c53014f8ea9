#pragma once
// A person playing hands against an agent (a strategy file or a bot, agents/
// agent_factory.h) in any 2-player limit game: the game logic behind `hulhe play --human`
// (terminal) and `hulhe serve` (browser). No input or output here: the callers show view()
// and odds() and pass the person's actions to act().
//
// As in ACPC matches (and agents/match.h) the person and the agent swap positions every
// hand: in hand k (0-based) the person is in position k % 2. All chips come from GameState
// (value, spent, pot); nothing of the rules is computed here.
//
// Determinism: hand k's cards come from a generator seeded by (seed, k), the opponent's
// choices in hand k from one seeded by (seed, k) on another stream, and the Monte Carlo odds
// from (seed, k, actions so far); so a seed and the person's actions replay a session exactly.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "game/card.h"
#include "game/game_definition.h"
#include "game/game_state.h"
#include "game/hand_evaluator.h"
#include "human_play/live_odds.h"
#include "util/split_mix64.h"

namespace hulhe {

// One action of the hand so far.
struct TableAction {
  int round = 0;
  bool by_person = false;
  Action action = Action::kCall;
  // The opponent's actions: the probabilities it drew this action from (by Action; fold,
  // call, raise). `probabilities_known` is false for bots that give none (agents/
  // agent.h); their action is reported with probability 1.
  ActionProbabilities probabilities{};
  bool probabilities_known = false;
  // The kinds that were legal for whoever acted (by Action: fold, call, raise).
  std::array<bool, kNumActionKinds> legal{};
};

struct SessionTotals {
  std::int64_t hands = 0;  // hands completed
  double chips = 0;        // the person's winnings
  double mbb_per_game = 0;
  double ci95_mbb = 0;  // 1.96 · sample standard deviation of per-hand mbb / √hands (0 below 2)
};

// Everything a table shows.
struct TableView {
  std::int64_t hand = 0;      // hands dealt so far; the current or last hand is number `hand`
  bool hand_running = false;  // a hand is dealt and not over
  int person_position = 0;    // ACPC position this hand (HULHE: 0 = big blind)
  std::vector<Card> person_hole;
  std::vector<Card> board;  // the board dealt so far
  int round = 0;
  std::int32_t pot = 0;
  std::int32_t person_spent = 0;  // chips each side has put in this hand
  std::int32_t opponent_spent = 0;
  bool person_to_act = false;
  std::string betting;                   // ACPC betting text, e.g. "rc/cr"
  std::vector<TableAction> actions;      // the betting so far, the opponent's with probabilities
  std::vector<BetAction> legal_actions;  // the person's, only at their turn
  // At the person's turn: chips to call (0: a check) and the total a raise goes to (0 when
  // no raise is legal), for the buttons' labels.
  std::int32_t to_call = 0;
  std::int32_t raise_to = 0;
  // When the hand is over (hand > 0 and !hand_running):
  bool showdown = false;
  std::vector<Card> opponent_hole;                  // shown at a showdown only
  std::optional<HandCategory> person_category;      // at a showdown
  std::optional<HandCategory> opponent_category;    // at a showdown
  std::int32_t person_rank = 0, opponent_rank = 0;  // showdown ranks (higher wins)
  double person_won = 0;                            // chips (GameState::value), negative when lost
  SessionTotals totals;
};

class HumanSession {
 public:
  // Throws InputError for a game that is not a 2-player limit game.
  HumanSession(GameDefinition game, std::unique_ptr<Agent> opponent, std::uint64_t seed,
               std::string person_name = "person", LiveOddsConfig odds = {});
  HumanSession(const HumanSession&) = delete;
  HumanSession& operator=(const HumanSession&) = delete;

  const GameDefinition& game() const { return game_; }
  const Agent& opponent() const { return *opponent_; }
  const std::string& person_name() const { return person_name_; }
  const std::string& opponent_name() const { return opponent_log_name_; }

  // Deals the next hand and lets the opponent act until it is the person's turn or the hand
  // is over. InputError while a hand is running.
  void start_hand();
  bool hand_running() const { return running_; }
  bool person_to_act() const;
  // The person's legal actions (fold only when facing a bet); empty unless it is their turn.
  std::vector<BetAction> legal_actions() const;
  // The person's action, then the opponent's until the person's turn or the hand's end.
  // InputError (and nothing changes) when no hand is running, it is not the person's turn,
  // or the action is illegal.
  void act(BetAction action);

  TableView view() const;
  SessionTotals totals() const;
  // The odds panel for the current (or last) hand; InputError before the first hand.
  // Cached until the next action.
  const LiveOdds& odds();

  // A saved point of the session to come back to with restore(): a caller that must undo a
  // step (`hulhe serve`, when the hand a step completed could not be stored) takes one before
  // start_hand() or act(). It holds copies of the hand's values (not of the completed hands'
  // history, which restore() truncates: a checkpoint is only restored backwards).
  struct Checkpoint {
    std::int64_t hands_dealt = 0;
    bool running = false;
    int person_position = 0;
    GameState state, opponent_view;
    int shown_board = 0;
    SplitMix64 opponent_rng{0};
    std::vector<TableAction> actions;
    OpponentRange range;
    std::optional<LiveOdds> odds;
    std::size_t results = 0, log_lines = 0;
    std::int64_t illegal_opponent_actions = 0;
  };
  Checkpoint checkpoint() const;
  // Returns to `c`, taken from this session earlier: exactly as it was, the opponent's
  // per-hand state included (a running hand is dealt again from its seed and its actions
  // replayed, so the opponent draws from the same stream as before). A step taken after the
  // restore therefore plays out as it would have without the undone one.
  void restore(const Checkpoint& c);
  // Ends the running hand of a person who left it (`hulhe serve`: a session expired,
  // replaced or stopped): at each of the person's decisions a fold where there is a bet to
  // face, else a check (a fold is then not legal), until the hand is over; its log line and
  // result are then the completed hand's, as if the person had played so. Nothing when no
  // hand is running.
  void abandon_hand();

  // The hand history: one ACPC dealer-log STATE line per completed hand, positions' names
  // being this session's two names.
  const std::vector<std::string>& log_lines() const { return log_lines_; }
  // The lines and a SCORE line, as `hulhe logs` reads them.
  std::string dealer_log() const;
  // Actions the opponent got wrong (played as calls, as the ACPC dealer does); 0 for every
  // agent of the factory, which play legally.
  std::int64_t illegal_opponent_actions() const { return illegal_opponent_actions_; }

 private:
  void show_board();
  void opponent_moves();
  void finish_hand();
  void invalidate_odds() { odds_.reset(); }

  GameDefinition game_;
  std::unique_ptr<Agent> opponent_;
  std::uint64_t seed_;
  std::string person_name_;        // as given, for the log (separators replaced)
  std::string opponent_log_name_;  // the agent's name, made distinct from the person's
  LiveOddsConfig odds_config_;

  std::int64_t hands_dealt_ = 0;
  bool running_ = false;
  int person_position_ = 0;
  GameState state_;          // every card (for values and the log)
  GameState opponent_view_;  // the opponent's cards and the board shown so far
  int shown_board_ = 0;
  SplitMix64 opponent_rng_{0};
  std::vector<TableAction> actions_;
  OpponentRange range_;
  std::optional<LiveOdds> odds_;

  std::vector<double> results_;  // the person's chips per completed hand
  std::vector<std::string> log_lines_;
  std::int64_t illegal_opponent_actions_ = 0;
};

}  // namespace hulhe
