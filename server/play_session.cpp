#include "server/play_session.h"

#include <fmt/format.h>

#include <cmath>

#include "game/card.h"
#include "game/dealer_log.h"
#include "game/hand_evaluator.h"
#include "server/api_error.h"
#include "strategies/human_session.h"

namespace hulhe::server {
namespace {

using nlohmann::json;

char letter_of(Action a) {
  switch (a) {
    case Action::kFold:
      return 'f';
    case Action::kCall:
      return 'c';
    default:
      return 'r';
  }
}

// What a player calls the action: a call of nothing is a check, a raise of nothing a bet.
// `facing` is whether the player faces a bet (the engine's legal actions: fold is legal only
// then).
std::string name_of(Action a, bool facing) {
  switch (a) {
    case Action::kFold:
      return "fold";
    case Action::kCall:
      return facing ? "call" : "check";
    default:
      return facing ? "raise" : "bet";
  }
}

Action parse_action(const std::string& text) {
  if (text == "f" || text == "fold") return Action::kFold;
  if (text == "c" || text == "call" || text == "check") return Action::kCall;
  if (text == "r" || text == "raise" || text == "bet") return Action::kRaise;
  throw ApiError(400, "unknown action '" + text.substr(0, 40) +
                          "': fold, check, call, bet, raise (or f, c, r)");
}

json cards_json(const std::vector<Card>& cards) {
  json j = json::array();
  for (Card c : cards) j.push_back(card_to_string(c));
  return j;
}

// The name of `position` in a hand of `game`: its blind where the blinds differ (HULHE:
// position 0 is the big blind), else "first" or "second" to act preflop.
std::string position_name(const GameDefinition& game, int position) {
  const int other = 1 - position;
  if (game.blind[position] != game.blind[other])
    return game.blind[position] > game.blind[other] ? "big blind" : "small blind";
  return game.first_player[0] == position ? "first to act" : "second to act";
}

json estimate_json(const EquityEstimate& e) {
  return {{"equity", e.equity}, {"std_error", e.std_error}, {"exact", e.exact}, {"deals", e.deals}};
}

json totals_json(const SessionTotals& t) {
  return {{"hands", t.hands},
          {"chips", t.chips},
          {"mbb_per_game", t.mbb_per_game},
          {"ci95_mbb", t.ci95_mbb}};
}

}  // namespace

PlaySession::PlaySession(const Opponent& opponent, std::string player, std::uint64_t seed)
    : opponent_name_(opponent.name),
      game_name_(opponent.game.name),
      big_blind_(opponent.game.big_blind()),
      player_(std::move(player)),
      table_(std::make_unique<HumanSession>(opponent.game, opponent.make_agent(), seed, player_)) {}

PlaySession::~PlaySession() = default;

json PlaySession::new_hand() {
  if (table_->hand_running())
    throw ApiError(409, "a hand is in progress: act in it first (POST .../act)");
  table_->start_hand();
  return state();
}

json PlaySession::act(const std::string& text) {
  const Action action = parse_action(text);
  if (!table_->hand_running())
    throw ApiError(409, "no hand is in progress: deal one first (POST .../hand)");
  if (!table_->person_to_act()) throw ApiError(409, "it is not your turn");
  for (const BetAction& legal : table_->legal_actions())
    if (legal.type == action) {
      table_->act(legal);
      return state();
    }
  const bool facing = table_->view().opponent_spent > table_->view().person_spent;
  throw ApiError(400, "'" + text + "' is not legal here (" + name_of(action, facing) +
                          (action == Action::kFold ? " with no bet to face" : " past the cap") +
                          ")");
}

json PlaySession::state() {
  const TableView v = table_->view();
  const GameDefinition& game = table_->game();
  json j;
  j["hand"] = v.hand;
  j["in_hand"] = v.hand_running;
  j["position"] = v.person_position;
  j["position_name"] = position_name(game, v.person_position);
  j["opponent_position_name"] = position_name(game, 1 - v.person_position);
  j["round"] = v.round;
  static const char* kRoundNames[] = {"preflop", "flop", "turn", "river"};
  json rounds = json::array();
  for (int r = 0; r < game.num_rounds; ++r)
    rounds.push_back(game.num_rounds == 4 || r == 0 ? kRoundNames[r]
                                                    : "round " + std::to_string(r + 1));
  j["round_names"] = rounds;
  j["your_cards"] = cards_json(v.person_hole);
  j["opponent_cards"] = cards_json(v.showdown ? v.opponent_hole : std::vector<Card>{});
  j["board"] = cards_json(v.board);
  j["pot"] = v.pot;
  j["your_chips"] = v.person_spent;
  j["opponent_chips"] = v.opponent_spent;
  j["your_turn"] = v.person_to_act;
  j["betting"] = v.betting;
  const bool facing = v.opponent_spent > v.person_spent;
  json legal = json::array();
  for (const BetAction& a : v.legal_actions) {
    // The chips the action puts in now (the engine's to_call and raise_to), for the label.
    const std::int32_t chips = a.type == Action::kCall    ? v.to_call
                               : a.type == Action::kRaise ? v.raise_to - v.person_spent
                                                          : 0;
    const std::string name = name_of(a.type, facing);
    legal.push_back({{"letter", std::string(1, letter_of(a.type))},
                     {"name", name},
                     {"chips", chips},
                     {"label", chips > 0 ? name + " " + std::to_string(chips) : name}});
  }
  j["legal"] = legal;
  // The opponent's actions with the names a player uses: whether it faced a bet follows from
  // the betting before it (a round opens with no bet to face, after the blinds where they
  // differ).
  json opponent = json::array();
  int round = -1;
  bool bet_pending = false;
  for (const TableAction& a : v.actions) {
    if (a.round != round) {
      round = a.round;
      bet_pending = round == 0 && game.blind[0] != game.blind[1];
    }
    if (!a.by_person) {
      json probabilities = nullptr;
      if (a.probabilities_known) {
        probabilities = json::array();
        for (Action k : {Action::kFold, Action::kCall, Action::kRaise})
          probabilities.push_back({{"letter", std::string(1, letter_of(k))},
                                   {"name", name_of(k, bet_pending)},
                                   {"p", a.probabilities[static_cast<int>(k)]}});
      }
      opponent.push_back({{"round", a.round},
                          {"letter", std::string(1, letter_of(a.action))},
                          {"name", name_of(a.action, bet_pending)},
                          {"probabilities", probabilities}});
    }
    if (a.action == Action::kRaise) bet_pending = true;
    if (a.action == Action::kCall) bet_pending = false;
  }
  j["opponent_actions"] = opponent;
  j["result"] = nullptr;
  if (v.hand > 0 && !v.hand_running) {
    const auto won = static_cast<std::int64_t>(std::llround(v.person_won));
    std::string text;
    if (v.showdown) {
      const std::string mine = v.person_category ? category_name(*v.person_category) : "";
      const std::string theirs = v.opponent_category ? category_name(*v.opponent_category) : "";
      text = fmt::format("showdown: your {} {} its {}: you {} {}", cards_to_string(v.person_hole),
                         mine.empty() ? "" : "(" + mine + ")", cards_to_string(v.opponent_hole),
                         won > 0 ? "win" : (won < 0 ? "lose" : "split, net"), std::llabs(won));
      if (!theirs.empty()) text.insert(text.find(": you"), " (" + theirs + ")");
    } else {
      text = won > 0 ? fmt::format("the opponent folds: you win {}", won)
                     : fmt::format("you fold: you lose {}", -won);
    }
    j["result"] = {{"won", won}, {"showdown", v.showdown}, {"text", text}};
  }
  j["odds"] = nullptr;
  if (v.hand > 0) {
    const LiveOdds& o = table_->odds();
    json categories = json::array();
    for (int c = 0; c < kNumHandCategories; ++c)
      categories.push_back({{"name", category_name(static_cast<HandCategory>(c))},
                            {"chance", o.categories.chance[static_cast<std::size_t>(c)]}});
    j["odds"] = {{"vs_random", estimate_json(o.vs_random)},
                 {"vs_range", estimate_json(o.vs_range)},
                 {"range_from_strategy", o.range_from_strategy},
                 {"categories", categories}};
  }
  j["totals"] = totals_json(v.totals);
  return j;
}

json PlaySession::totals() const {
  return totals_json(table_->totals());
}

std::string PlaySession::history() const {
  return table_->dealer_log();
}

std::vector<StoredHand> PlaySession::take_completed_hands() {
  std::vector<StoredHand> out;
  const std::vector<std::string>& lines = table_->log_lines();
  while (hands_stored_ < static_cast<std::int64_t>(lines.size())) {
    StoredHand h;
    h.player = player_;
    h.hand_number = hands_stored_;
    h.game = game_name_;
    h.opponent = opponent_name_;
    h.position = static_cast<int>(hands_stored_ % 2);
    h.big_blind = big_blind_;
    h.log_line = lines[static_cast<std::size_t>(hands_stored_)];
    // The engine's values, as its log line holds them (the replay recomputes them too).
    const LogStateLine line = parse_log_state(h.log_line, table_->game());
    h.result_chips =
        static_cast<std::int64_t>(std::llround(line.values[static_cast<std::size_t>(h.position)]));
    out.push_back(std::move(h));
    ++hands_stored_;
  }
  return out;
}

}  // namespace hulhe::server
