#include "human_play/human_session.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "game/dealer_log.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

// Salts that separate the session's streams (cards, the opponent's draws, the odds).
constexpr std::uint64_t kDealSalt = 0x3c6ef372fe94f82bULL;
constexpr std::uint64_t kOpponentSalt = 0xa54ff53a5f1d36f1ULL;
constexpr std::uint64_t kOddsSalt = 0x510e527fade682d1ULL;

// ACPC names may not hold the log's separators.
std::string log_name(std::string name) {
  for (char& c : name)
    if (c == ':' || c == '|' || c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
  return name.empty() ? std::string("person") : name;
}

std::string number_string(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

const GameDefinition& checked(const GameDefinition& game) {
  if (game.num_players != 2 || game.betting_type != BettingType::kLimit)
    throw InputError("playing against an agent needs a 2-player limit game; " + game.name +
                     " has " + std::to_string(game.num_players) + " players" +
                     (game.betting_type == BettingType::kLimit ? "" : " and no-limit betting"));
  return game;
}

}  // namespace

HumanSession::HumanSession(GameDefinition game, std::unique_ptr<Agent> opponent, std::uint64_t seed,
                           std::string person_name, LiveOddsConfig odds)
    : game_(checked(game)),
      opponent_(std::move(opponent)),
      seed_(seed),
      person_name_(log_name(std::move(person_name))),
      opponent_log_name_(log_name(opponent_->name())),
      odds_config_(odds),
      state_(game_),
      opponent_view_(game_),
      range_(game_) {
  if (opponent_log_name_ == person_name_) opponent_log_name_ += "-bot";
}

bool HumanSession::person_to_act() const {
  return running_ && state_.current_player() == person_position_;
}

void HumanSession::show_board() {
  const int visible = game_.total_board_cards(state_.round());
  for (; shown_board_ < visible; ++shown_board_)
    opponent_view_.set_board_card(shown_board_, state_.board_cards()[shown_board_]);
}

void HumanSession::start_hand() {
  if (running_) throw InputError("a hand is running: finish it before dealing the next");
  const std::int64_t k = hands_dealt_;
  if (k >= std::int64_t{UINT32_MAX}) throw InputError("too many hands for ACPC hand numbers");
  // Deal: a partial Fisher-Yates shuffle of the deck from (seed, k), as matches do.
  SplitMix64 rng = SplitMix64::for_iteration(seed_ ^ kDealSalt, k);
  std::vector<Card> cards = game_.deck();
  const int n = static_cast<int>(cards.size());
  const int board = game_.total_board_cards(game_.num_rounds - 1);
  const int need = 2 * game_.num_hole_cards + board;
  for (int i = 0; i < need; ++i) {
    const int j = i + static_cast<int>(rng.below(static_cast<std::uint32_t>(n - i)));
    std::swap(cards[i], cards[j]);
  }
  person_position_ = static_cast<int>(k % 2);
  state_ = GameState(game_, static_cast<std::uint32_t>(k));
  opponent_view_ = GameState(game_, static_cast<std::uint32_t>(k));
  for (int p = 0; p < 2; ++p) state_.set_hole_cards(p, &cards[p * game_.num_hole_cards]);
  const int opponent = 1 - person_position_;
  opponent_view_.set_hole_cards(opponent, state_.hole_cards(opponent));
  for (int c = 0; c < board; ++c) state_.set_board_card(c, cards[2 * game_.num_hole_cards + c]);
  shown_board_ = 0;
  show_board();
  opponent_rng_ = SplitMix64::for_iteration(seed_ ^ kOpponentSalt, k);
  opponent_->new_hand();
  actions_.clear();
  range_.reset();
  invalidate_odds();
  hands_dealt_ = k + 1;
  running_ = true;
  opponent_moves();
}

void HumanSession::opponent_moves() {
  const int opponent = 1 - person_position_;
  while (!state_.finished() && state_.current_player() == opponent) {
    TableAction record;
    record.round = state_.round();
    const std::optional<ActionProbabilities> p =
        opponent_->action_probabilities(opponent_view_, opponent);
    BetAction a = opponent_->act(opponent_view_, opponent, opponent_rng_);
    if (!state_.is_legal(a)) {  // as the ACPC dealer does: an illegal action is a call
      ++illegal_opponent_actions_;
      a = {Action::kCall, 0};
    }
    record.action = a.type;
    record.legal = {state_.can_fold(), true, state_.can_raise()};
    if (p) {
      record.probabilities = *p;
      record.probabilities_known = true;
    } else {
      record.probabilities[static_cast<int>(a.type)] = 1.0;
    }
    // The range reads the action before it is applied (the state the opponent saw).
    CardSet dead;
    for (int i = 0; i < game_.num_hole_cards; ++i)
      dead.insert(state_.hole_cards(person_position_)[i]);
    for (int i = 0; i < shown_board_; ++i) dead.insert(state_.board_cards()[i]);
    range_.observe(*opponent_, opponent_view_, opponent, a.type, dead);
    state_.apply(a);
    opponent_view_.apply(a);
    actions_.push_back(record);
    show_board();
  }
  if (state_.finished()) finish_hand();
}

void HumanSession::finish_hand() {
  running_ = false;
  const double won = state_.value(person_position_);
  results_.push_back(won);
  LogStateLine line{state_, {}, {}};
  for (int p = 0; p < 2; ++p) {
    line.values.push_back(state_.value(p));
    line.names.push_back(p == person_position_ ? person_name_ : opponent_log_name_);
  }
  log_lines_.push_back(log_state_string(line));
}

std::vector<BetAction> HumanSession::legal_actions() const {
  std::vector<BetAction> out;
  if (!person_to_act()) return out;
  if (state_.can_fold()) out.push_back({Action::kFold, 0});
  out.push_back({Action::kCall, 0});
  if (state_.can_raise()) out.push_back({Action::kRaise, 0});
  return out;
}

void HumanSession::act(BetAction action) {
  if (!running_) throw InputError("no hand is running: deal one first");
  if (!person_to_act()) throw InputError("it is not your turn");
  const std::vector<BetAction> legal = legal_actions();
  if (std::find(legal.begin(), legal.end(), action) == legal.end())
    throw InputError(std::string("action '") + action_char(action.type) +
                     (action.size != 0 ? std::to_string(action.size) : std::string()) +
                     "' is not legal at betting '" + state_.betting_string() + "'");
  TableAction record;
  record.round = state_.round();
  record.by_person = true;
  record.action = action.type;
  record.legal = {state_.can_fold(), true, state_.can_raise()};
  state_.apply(action);
  opponent_view_.apply(action);
  actions_.push_back(record);
  invalidate_odds();
  show_board();
  opponent_moves();
}

HumanSession::Checkpoint HumanSession::checkpoint() const {
  return {hands_dealt_,
          running_,
          person_position_,
          state_,
          opponent_view_,
          shown_board_,
          opponent_rng_,
          actions_,
          range_,
          odds_,
          results_.size(),
          log_lines_.size(),
          illegal_opponent_actions_};
}

void HumanSession::restore(const Checkpoint& c) {
  if (c.results > results_.size() || c.log_lines > log_lines_.size() ||
      c.hands_dealt > hands_dealt_)
    throw std::logic_error("HumanSession::restore: the checkpoint is not from this session's past");
  results_.resize(c.results);
  log_lines_.resize(c.log_lines);
  if (c.running) {
    // The opponent's own per-hand state (e.g. a bot's equity, computed once a round) is
    // rebuilt as it was: the hand dealt again (the same cards and the same stream of the
    // opponent's draws, new_hand() called) and the person's actions replayed up to `c`.
    hands_dealt_ = c.hands_dealt - 1;
    running_ = false;
    start_hand();
    for (const TableAction& a : c.actions)
      if (a.by_person && running_ && person_to_act()) act({a.action, 0});
    results_.resize(c.results);
    log_lines_.resize(c.log_lines);
  }
  hands_dealt_ = c.hands_dealt;
  running_ = c.running;
  person_position_ = c.person_position;
  state_ = c.state;
  opponent_view_ = c.opponent_view;
  shown_board_ = c.shown_board;
  opponent_rng_ = c.opponent_rng;
  actions_ = c.actions;
  range_ = c.range;
  odds_ = c.odds;
  illegal_opponent_actions_ = c.illegal_opponent_actions;
}

void HumanSession::abandon_hand() {
  while (running_ && person_to_act())
    act(state_.can_fold() ? BetAction{Action::kFold, 0} : BetAction{Action::kCall, 0});
}

SessionTotals HumanSession::totals() const {
  SessionTotals t;
  t.hands = static_cast<std::int64_t>(results_.size());
  if (t.hands == 0) return t;
  const double mbb = 1000.0 / std::max(1, game_.big_blind());
  double sum = 0, sum_sq = 0;
  for (double v : results_) {
    sum += v * mbb;
    sum_sq += v * mbb * v * mbb;
    t.chips += v;
  }
  const auto n = static_cast<double>(t.hands);
  t.mbb_per_game = sum / n;
  if (t.hands > 1) {
    const double var = std::max(0.0, (sum_sq - sum * t.mbb_per_game) / (n - 1));
    t.ci95_mbb = 1.96 * std::sqrt(var / n);
  }
  return t;
}

TableView HumanSession::view() const {
  TableView v;
  v.hand = hands_dealt_;
  v.hand_running = running_;
  v.totals = totals();
  if (hands_dealt_ == 0) return v;
  const int me = person_position_, opp = 1 - me;
  v.person_position = me;
  v.person_hole.assign(state_.hole_cards(me), state_.hole_cards(me) + game_.num_hole_cards);
  v.board.assign(state_.board_cards(), state_.board_cards() + shown_board_);
  v.round = state_.round();
  v.pot = state_.pot();
  v.person_spent = state_.spent(me);
  v.opponent_spent = state_.spent(opp);
  v.person_to_act = person_to_act();
  v.betting = state_.betting_string();
  v.actions = actions_;
  v.legal_actions = legal_actions();
  if (v.person_to_act) {
    v.to_call = state_.max_spent() - state_.spent(me);
    if (!state_.can_raise(&v.raise_to)) v.raise_to = 0;
  }
  if (!running_) {
    v.person_won = state_.value(me);
    v.showdown = state_.num_folded() == 0;
    if (v.showdown) {
      v.opponent_hole.assign(state_.hole_cards(opp), state_.hole_cards(opp) + game_.num_hole_cards);
      CardSet mine, theirs;
      for (Card c : v.person_hole) mine.insert(c);
      for (Card c : v.opponent_hole) theirs.insert(c);
      for (Card c : v.board) mine.insert(c), theirs.insert(c);
      v.person_category = hand_category(game_, mine);
      v.opponent_category = hand_category(game_, theirs);
      v.person_rank = state_.hand_rank(me);
      v.opponent_rank = state_.hand_rank(opp);
    }
  }
  return v;
}

const LiveOdds& HumanSession::odds() {
  if (hands_dealt_ == 0) throw InputError("no hand has been dealt yet");
  if (!odds_) {
    const std::int64_t step = static_cast<std::int64_t>(actions_.size());
    const std::uint64_t seed =
        SplitMix64::for_iteration(seed_ ^ kOddsSalt, (hands_dealt_ - 1) * 256 + step)();
    odds_ = live_odds(game_, state_.hole_cards(person_position_), state_.board_cards(),
                      shown_board_, range_, odds_config_, seed);
  }
  return *odds_;
}

std::string HumanSession::dealer_log() const {
  std::string out;
  for (const std::string& l : log_lines_) out += l + '\n';
  // ACPC's closing line: each player's total, by name (the person first).
  const double person = totals().chips;
  out += "SCORE:" + number_string(person) + '|' + number_string(-person) + ':' + person_name_ +
         '|' + opponent_log_name_ + '\n';
  return out;
}

}  // namespace hulhe
