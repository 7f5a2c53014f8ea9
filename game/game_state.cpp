#include "game/game_state.h"

#include <algorithm>
#include <charconv>
#include <climits>

#include "game/hand_evaluator.h"
#include "util/input_error.h"

namespace hulhe {

GameState::GameState(const GameDefinition& game, std::uint32_t hand_id)
    : game_(&game), hand_id_(hand_id) {
  for (int p = 0; p < game.num_players; ++p) {
    spent_[p] = game.blind[p];
    max_spent_ = std::max(max_spent_, game.blind[p]);
  }
  if (game.betting_type == BettingType::kNoLimit) {
    // The first raise must call the big blind and raise by at least as much (initState);
    // with no blinds at all, a bet of one chip.
    min_no_limit_raise_to_ = max_spent_ > 0 ? 2 * max_spent_ : 1;
  }
}

int GameState::next_player(int after) const {
  const int n = game_->num_players;
  int p = after;
  for (int k = 0; k < n; ++k) {
    p = (p + 1) % n;
    if (!folded_[p] && !all_in(p)) return p;
  }
  return p;  // nobody can act; only reached on finished states
}

int GameState::current_player() const {
  // After an action, the next player who can act; at the start of a round, the round's
  // first player or the next one able to act (game.c currentPlayer).
  if (num_actions_[round_] > 0)
    return next_player(acting_player_[round_][num_actions_[round_] - 1]);
  return next_player(game_->first_player[round_] + game_->num_players - 1);
}

std::int32_t GameState::pot() const {
  std::int32_t t = 0;
  for (int p = 0; p < game_->num_players; ++p) t += spent_[p];
  return t;
}

int GameState::num_folded() const {
  return static_cast<int>(std::count(folded_.begin(), folded_.begin() + game_->num_players, true));
}

int GameState::num_raises() const {
  int r = 0;
  for (int i = 0; i < num_actions_[round_]; ++i) r += actions_[round_][i].type == Action::kRaise;
  return r;
}

int GameState::num_called() const {
  // Players (not all-in) who have matched the current bet: callers since the last raise,
  // plus the raiser (game.c numCalled).
  int n = 0;
  for (int i = num_actions_[round_] - 1; i >= 0; --i) {
    const int p = acting_player_[round_][i];
    const Action t = actions_[round_][i].type;
    if (t == Action::kRaise) return n + (all_in(p) ? 0 : 1);
    if (t == Action::kCall && !all_in(p)) ++n;
  }
  return n;
}

int GameState::num_acting() const {
  int n = 0;
  for (int p = 0; p < game_->num_players; ++p) n += !folded_[p] && !all_in(p);
  return n;
}

bool GameState::can_fold() const {
  if (finished_) return false;
  const int p = current_player();
  // Folding is only allowed when facing a bet one has not called and is not all-in.
  return spent_[p] < max_spent_ && !all_in(p);
}

bool GameState::can_raise(std::int32_t* min_to, std::int32_t* max_to) const {
  if (finished_) return false;
  if (num_raises() >= game_->max_raises[round_]) return false;
  if (num_actions_[round_] + game_->num_players > kMaxActionsPerRound) return false;
  // The last player able to act cannot bet into players who are all in.
  if (num_acting() <= 1) return false;
  const int p = current_player();
  const std::int32_t stack = game_->stack[p];
  if (max_spent_ >= stack) return false;  // cannot even cover the current bet
  std::int32_t lo = 0, hi = 0;
  if (game_->betting_type == BettingType::kLimit) {
    lo = hi = std::min<std::int64_t>(std::int64_t{max_spent_} + game_->raise_size[round_], stack);
  } else {
    lo = min_no_limit_raise_to_;
    hi = stack;
    if (lo > stack) lo = stack;  // a short stack may still raise by going all in
  }
  if (min_to != nullptr) *min_to = lo;
  if (max_to != nullptr) *max_to = hi;
  return true;
}

bool GameState::is_legal(BetAction a) const {
  if (finished_) return false;
  switch (a.type) {
    case Action::kFold:
      return a.size == 0 && can_fold();
    case Action::kCall:
      return a.size == 0;
    case Action::kRaise: {
      std::int32_t lo = 0, hi = 0;
      if (!can_raise(&lo, &hi)) return false;
      if (game_->betting_type == BettingType::kLimit) return a.size == 0;
      return a.size >= lo && a.size <= hi;
    }
  }
  return false;
}

void GameState::apply(BetAction a) {
  if (!is_legal(a)) {
    std::string what(1, action_char(a.type));
    if (a.type == Action::kRaise && game_->betting_type == BettingType::kNoLimit)
      what += std::to_string(a.size);
    std::string problem = "illegal action '";
    problem += what;
    problem += "' after betting '";
    problem += betting_string();
    problem += "'";
    if (finished_) problem += " (the hand is over)";
    std::int32_t lo = 0, hi = 0;
    if (a.type == Action::kRaise && game_->betting_type == BettingType::kNoLimit &&
        can_raise(&lo, &hi))
      problem += " (raise to " + std::to_string(lo) + ".." + std::to_string(hi) + ")";
    throw InputError(problem);
  }
  const int p = current_player();
  actions_[round_][num_actions_[round_]] = a;
  acting_player_[round_][num_actions_[round_]] = static_cast<std::uint8_t>(p);
  ++num_actions_[round_];
  const std::int32_t stack = game_->stack[p];
  switch (a.type) {
    case Action::kFold:
      folded_[p] = true;
      break;
    case Action::kCall:
      spent_[p] = std::min(max_spent_, stack);  // a short call puts the caller all in
      break;
    case Action::kRaise:
      if (game_->betting_type == BettingType::kNoLimit) {
        // The next raise must be at least as large as this one (doAction).
        min_no_limit_raise_to_ = std::max(min_no_limit_raise_to_, 2 * a.size - max_spent_);
        max_spent_ = a.size;
      } else {
        max_spent_ = static_cast<std::int32_t>(
            std::min<std::int64_t>(std::int64_t{max_spent_} + game_->raise_size[round_], stack));
      }
      spent_[p] = max_spent_;
      break;
  }
  if (num_folded() + 1 >= game_->num_players) {
    finished_ = true;  // one player left: no showdown
  } else if (num_called() >= num_acting()) {
    if (num_acting() > 1) {
      if (round_ + 1 < game_->num_rounds) {
        ++round_;
        // A new round's minimum raise is the big blind (at least one chip) above the bet.
        min_no_limit_raise_to_ = std::max(1, game_->big_blind()) + max_spent_;
      } else {
        finished_ = true;
      }
    } else {
      // Everyone left is all in (but one at most): deal the rest and show down.
      finished_ = true;
      round_ = game_->num_rounds - 1;
    }
  }
}

std::size_t GameState::apply_betting(std::string_view betting) {
  std::size_t i = 0;
  int slashes = round_;  // the round the separators seen so far lead to
  const bool no_limit = game_->betting_type == BettingType::kNoLimit;
  while (i < betting.size() && betting[i] != ':') {
    const char c = betting[i];
    if (c == '/') {
      // A round separator is only allowed where a round has ended (ACPC prints one per
      // round reached, so an all-in preflop prints "///").
      if (slashes >= round_)
        throw InputError("betting '" + std::string(betting) + "': unexpected '/' at character " +
                         std::to_string(i + 1));
      ++slashes;
      ++i;
      continue;
    }
    if (slashes != round_)
      throw InputError("betting '" + std::string(betting) + "': round " +
                       std::to_string(slashes + 1) + " is over; expected '/' at character " +
                       std::to_string(i + 1));
    BetAction a;
    if (c == 'f') {
      a.type = Action::kFold;
    } else if (c == 'c') {
      a.type = Action::kCall;
    } else if (c == 'r') {
      a.type = Action::kRaise;
    } else {
      throw InputError("betting '" + std::string(betting) + "': bad action '" + std::string(1, c) +
                       "' at character " + std::to_string(i + 1) + " (expected f, c, r or /)");
    }
    ++i;
    if (a.type == Action::kRaise && no_limit) {
      const char* begin = betting.data() + i;
      const char* end = betting.data() + betting.size();
      auto [ptr, ec] = std::from_chars(begin, end, a.size);
      if (ec != std::errc() || ptr == begin)
        throw InputError("betting '" + std::string(betting) +
                         "': a no-limit raise needs its raise-to size, e.g. r300, at character " +
                         std::to_string(i));
      i += static_cast<std::size_t>(ptr - begin);
    }
    try {
      apply(a);
    } catch (const InputError& e) {
      throw InputError("betting '" + std::string(betting) + "': " + e.what());
    }
  }
  if (slashes != round_ && !finished_)
    throw InputError("betting '" + std::string(betting) + "': round " + std::to_string(round_) +
                     " is over but no '/' follows");
  return i;
}

std::string GameState::betting_string() const {
  std::string s;
  for (int r = 0; r <= round_; ++r) {
    if (r > 0) s += '/';
    for (int i = 0; i < num_actions_[r]; ++i) {
      const BetAction a = actions_[r][i];
      s += action_char(a.type);
      if (a.type == Action::kRaise && game_->betting_type == BettingType::kNoLimit)
        s += std::to_string(a.size);
    }
  }
  return s;
}

void GameState::set_hole_cards(int position, const Card* cards) {
  std::copy(cards, cards + game_->num_hole_cards, hole_[position].begin());
  has_hole_[position] = true;
}

std::int32_t GameState::hand_rank(int position) const {
  CardSet cards;
  for (int i = 0; i < game_->num_hole_cards; ++i) cards.insert(hole_[position][i]);
  const int board = game_->total_board_cards(round_);
  for (int i = 0; i < board; ++i) cards.insert(board_[i]);
  // The fast 7-card evaluator for a standard deck; the dealer's own ranking otherwise.
  const bool standard_deck = game_->num_ranks == kMaxRanks && game_->num_suits == kMaxSuits;
  if (standard_deck && cards.size() >= 5 && cards.size() <= 7) return evaluate(cards);
  return rank_cards_acpc(cards);
}

double GameState::value(int position) const {
  const int n = game_->num_players;
  if (folded_[position]) return -static_cast<double>(spent_[position]);
  if (num_folded() + 1 == n) {
    double won = 0;
    for (int p = 0; p < n; ++p)
      if (p != position) won += spent_[p];
    return won;
  }
  // Showdown with side pots (valueOfState): repeatedly take the smallest remaining
  // contribution from everyone still contributing; the best hand among the players in that
  // pot who have not folded wins it, equal hands split it.
  std::array<std::int64_t, kMaxPlayers> left{};
  std::array<std::int32_t, kMaxPlayers> rank{};
  std::array<bool, kMaxPlayers> live{};
  for (int p = 0; p < n; ++p) {
    left[p] = spent_[p];
    live[p] = !folded_[p];
    rank[p] = live[p] ? hand_rank(p) : INT32_MIN;
  }
  double value = 0;
  while (left[position] > 0) {
    std::int64_t size = INT64_MAX;
    int contributors = 0;
    for (int p = 0; p < n; ++p)
      if (left[p] > 0) size = std::min(size, left[p]), ++contributors;
    std::int32_t best = INT32_MIN;
    for (int p = 0; p < n; ++p)
      if (left[p] > 0 && live[p]) best = std::max(best, rank[p]);
    int winners = 0;
    for (int p = 0; p < n; ++p) winners += left[p] > 0 && live[p] && rank[p] == best;
    if (rank[position] == best)
      value += static_cast<double>(size * (contributors - winners)) / winners;
    else
      value -= static_cast<double>(size);
    for (int p = 0; p < n; ++p)
      if (left[p] > 0) left[p] -= size;
  }
  return value;
}

}  // namespace hulhe
