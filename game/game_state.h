#pragma once
// The state of one hand of any ACPC game, with the semantics of ACPC game.c `State`
// (initState, raiseIsValid, isValidAction, doAction, valueOfState): limit and no-limit,
// 2-10 players, blinds, stacks and all-ins, raise caps, folds, round ends, and showdown
// payouts with ties split and side pots. Values are per position (ACPC's per-hand index).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "game/betting_tree.h"
#include "game/card.h"
#include "game/game_definition.h"

namespace hulhe {

// One betting action. `size` is the no-limit raise-to amount (total chips the raiser has
// put in after the raise, ACPC's `r<N>`); it is 0 for folds, calls and limit raises.
struct BetAction {
  Action type = Action::kCall;
  std::int32_t size = 0;
  bool operator==(const BetAction&) const = default;
};

// ACPC's limit on actions in one round (game.h MAX_NUM_ACTIONS).
inline constexpr int kMaxActionsPerRound = 64;

class GameState {
 public:
  // The start of hand `hand_id`: blinds posted, no cards known. `game` must outlive the state.
  explicit GameState(const GameDefinition& game, std::uint32_t hand_id = 0);

  const GameDefinition& game() const { return *game_; }
  std::uint32_t hand_id() const { return hand_id_; }
  int round() const { return round_; }
  bool finished() const { return finished_; }
  // Position to act; only meaningful while !finished().
  int current_player() const;
  std::int32_t spent(int position) const { return spent_[position]; }
  std::int32_t max_spent() const { return max_spent_; }
  std::int32_t pot() const;
  bool folded(int position) const { return folded_[position]; }
  bool all_in(int position) const { return spent_[position] >= game_->stack[position]; }
  int num_folded() const;
  int num_raises() const;  // raises so far in the current round
  int num_actions(int round) const { return num_actions_[round]; }
  BetAction action(int round, int i) const { return actions_[round][i]; }

  // Legal actions of the player to act (ACPC isValidAction without fixing).
  bool can_fold() const;
  bool can_call() const { return !finished_; }
  // Whether a raise is legal; for no-limit games also its raise-to range, where
  // min = max(last raise size, big blind) above the current bet, or all-in if the stack is
  // short, and max = all-in. Limit games report min = max = the raise-to amount.
  bool can_raise(std::int32_t* min_to = nullptr, std::int32_t* max_to = nullptr) const;
  bool is_legal(BetAction a) const;
  // Applies a legal action; throws InputError naming it otherwise.
  void apply(BetAction a);

  // ACPC betting text: actions `f` `c` `r` (`r<N>` in no-limit), rounds split by '/'.
  // apply_betting reads it (stopping at ':' or the end) and returns the characters used;
  // throws InputError on a bad character or an illegal action.
  std::size_t apply_betting(std::string_view betting);
  std::string betting_string() const;

  // Cards. Hole cards are known per position; the board holds every card dealt so far.
  void set_hole_cards(int position, const Card* cards);
  bool has_hole_cards(int position) const { return has_hole_[position]; }
  const Card* hole_cards(int position) const { return hole_[position].data(); }
  void set_board_card(int index, Card c) { board_[index] = c; }
  const Card* board_cards() const { return board_.data(); }

  // Chips won (positive) or lost by `position` at the end of the hand (ACPC valueOfState).
  // A showdown needs the hole cards of everyone still in and the whole board so far.
  double value(int position) const;
  // The rank of a position's best hand at showdown: higher is better, equal ranks tie.
  std::int32_t hand_rank(int position) const;

 private:
  int next_player(int after) const;
  int num_called() const;
  int num_acting() const;

  const GameDefinition* game_;
  std::uint32_t hand_id_ = 0;
  int round_ = 0;
  bool finished_ = false;
  std::int32_t max_spent_ = 0;
  std::int32_t min_no_limit_raise_to_ = 0;
  std::array<std::int32_t, kMaxPlayers> spent_{};
  std::array<bool, kMaxPlayers> folded_{};
  std::array<int, kMaxRounds> num_actions_{};
  std::array<std::array<BetAction, kMaxActionsPerRound>, kMaxRounds> actions_{};
  std::array<std::array<std::uint8_t, kMaxActionsPerRound>, kMaxRounds> acting_player_{};
  std::array<std::array<Card, kMaxHoleCards>, kMaxPlayers> hole_{};
  std::array<bool, kMaxPlayers> has_hole_{};
  std::array<Card, kMaxBoardCards> board_{};
};

}  // namespace hulhe
