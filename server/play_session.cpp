#include "server/play_session.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "game/betting_tree.h"
#include "game/card.h"
#include "game/dealer_log.h"
#include "game/hand_evaluator.h"
#include "human_play/human_session.h"
#include "server/api_error.h"

namespace hulhe::server {
namespace {

using nlohmann::json;

// Where a player stands before an action: facing a bet (chips to call: "call", else
// "check"; fold is legal only then) and whether the round has a bet already (a raise is then
// a "raise", else the round's first "bet"; preflop the blinds are the bet where they differ).
struct Situation {
  bool facing = false;
  bool opened = false;
};

Situation round_opening(const GameDefinition& game, int round) {
  const bool blinds = round == 0 && game.blind[0] != game.blind[1];
  return {blinds, blinds};
}

// The situation before each action of the hand, and after the last (the one to act now).
std::vector<Situation> situations(const TableView& v, const GameDefinition& game) {
  std::vector<Situation> out;
  Situation s = round_opening(game, 0);
  int round = 0;
  for (const TableAction& a : v.actions) {
    if (a.round != round) {
      round = a.round;
      s = round_opening(game, round);
    }
    out.push_back(s);
    if (a.action == Action::kRaise) s = {true, true};
    if (a.action == Action::kCall) s.facing = false;
  }
  if (v.round != round) s = round_opening(game, v.round);
  out.push_back(s);
  return out;
}

// What a player calls the action in situation `s`.
std::string name_of(Action a, Situation s) {
  switch (a) {
    case Action::kFold:
      return "fold";
    case Action::kCall:
      return s.facing ? "call" : "check";
    default:
      return s.opened ? "raise" : "bet";
  }
}

Action parse_action(const std::string& text) {
  if (text == "f" || text == "fold") return Action::kFold;
  if (text == "c" || text == "call" || text == "check") return Action::kCall;
  if (text == "r" || text == "raise" || text == "bet") return Action::kRaise;
  throw ApiError(400, "unknown action '" + text.substr(0, 40) +
                          "': fold, check, call, bet, raise (or f, c, r)");
}

// Writes `hand`, retried briefly: a store held by another process is waited on by the store
// itself (its busy timeout); past that, or on a full disk, the step is refused rather than
// kept waiting.
void store_retrying(const PlaySession::StoreHand& store, StoredHand& hand) {
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 1;; ++attempt) {
    try {
      store(hand);
      return;
    } catch (const std::exception&) {
      if (attempt >= 3 || std::chrono::steady_clock::now() - start > std::chrono::seconds(2)) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(100 * attempt));
    }
  }
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

std::optional<std::int64_t> PlaySession::requested_state_number(const json& body) {
  if (!body.contains("state_number")) return std::nullopt;
  const json& n = body["state_number"];
  if (!n.is_number_integer() || n.get<std::int64_t>() < 0)
    throw ApiError(400, "\"state_number\" must be a non-negative integer (the state's)");
  return n.get<std::int64_t>();
}

template <typename Change>
json PlaySession::step(std::optional<std::int64_t> state_number, const StoreHand& store,
                       Change change) {
  if (state_number && *state_number != state_number_)
    throw ApiError(409, fmt::format("the request was sent against state {} but the session is "
                                    "at state {} (sent twice?): nothing done; GET the session "
                                    "for its state",
                                    *state_number, state_number_));
  const auto store_pending = [&](const HumanSession::Checkpoint* undo) {
    for (StoredHand& h : pending_hands()) {
      try {
        store_retrying(store, h);
      } catch (const std::exception& e) {
        if (undo != nullptr) table_->restore(*undo);
        throw ApiError(503, std::string("the completed hand could not be stored (") + e.what() +
                                "), so it is undone: the session is as it was; send the "
                                "request again");
      }
      ++hands_stored_;
    }
  };
  // What an earlier abandon_hand() left, if the caller did not store it; then this step's
  // hand (at most one): its undo never reaches a stored hand.
  store_pending(nullptr);
  const HumanSession::Checkpoint before = table_->checkpoint();
  change();
  store_pending(&before);
  ++state_number_;
  return state();
}

json PlaySession::new_hand(std::optional<std::int64_t> state_number, const StoreHand& store) {
  return step(state_number, store, [this] {
    if (table_->hand_running())
      throw ApiError(409, "a hand is in progress: act in it first (POST .../act)");
    table_->start_hand();
  });
}

json PlaySession::act(const std::string& text, std::optional<std::int64_t> state_number,
                      const StoreHand& store) {
  const Action action = parse_action(text);
  return step(state_number, store, [&] {
    if (!table_->hand_running())
      throw ApiError(409, "no hand is in progress: deal one first (POST .../hand)");
    if (!table_->person_to_act()) throw ApiError(409, "it is not your turn");
    const TableView v = table_->view();
    const Situation now = situations(v, table_->game()).back();
    // The names say more than the letters: each must fit the betting.
    if (text == "check" && now.facing)
      throw ApiError(400, fmt::format("'check' is not legal facing a bet: call {} or fold{}",
                                      v.to_call, v.raise_to > 0 ? " or raise" : ""));
    if (text == "call" && !now.facing)
      throw ApiError(400, "'call' is not legal with nothing to call: check");
    if (text == "bet" && now.opened)
      throw ApiError(400, "'bet' is not legal: the round has a bet already; raise");
    if (text == "raise" && !now.opened)
      throw ApiError(400, "'raise' is not legal with no bet to raise: bet");
    for (const BetAction& legal : table_->legal_actions())
      if (legal.type == action) {
        table_->act(legal);
        return;
      }
    throw ApiError(
        400, "'" + text + "' is not legal here (" + name_of(action, now) +
                 (action == Action::kFold ? " with no bet to face: check" : " past the cap") + ")");
  });
}

json PlaySession::leave(std::optional<std::int64_t> state_number, const StoreHand& store) {
  return step(state_number, store, [this] { table_->abandon_hand(); });
}

void PlaySession::abandon_hand() {
  if (!table_->hand_running()) return;
  table_->abandon_hand();
  ++state_number_;
}

json PlaySession::state() {
  const TableView v = table_->view();
  const GameDefinition& game = table_->game();
  const std::vector<Situation> before = situations(v, game);
  json j;
  j["state_number"] = state_number_;
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
  json legal = json::array();
  for (const BetAction& a : v.legal_actions) {
    // The chips the action puts in now (the engine's to_call and raise_to), for the label.
    const std::int32_t chips = a.type == Action::kCall    ? v.to_call
                               : a.type == Action::kRaise ? v.raise_to - v.person_spent
                                                          : 0;
    const std::string name = name_of(a.type, before.back());
    legal.push_back({{"letter", std::string(1, action_char(a.type))},
                     {"name", name},
                     {"chips", chips},
                     {"label", chips > 0 ? name + " " + std::to_string(chips) : name}});
  }
  j["legal"] = legal;
  // Every action of the hand, the person's and the opponent's, with the names a player uses;
  // the opponent's again with the probabilities (of its legal kinds) it drew them from.
  json all = json::array();
  json opponent = json::array();
  for (std::size_t i = 0; i < v.actions.size(); ++i) {
    const TableAction& a = v.actions[i];
    const std::string name = name_of(a.action, before[i]);
    all.push_back({{"round", a.round},
                   {"by", a.by_person ? "you" : "opponent"},
                   {"letter", std::string(1, action_char(a.action))},
                   {"name", name}});
    if (a.by_person) continue;
    json probabilities = nullptr;
    if (a.probabilities_known) {
      probabilities = json::array();
      for (Action k : {Action::kFold, Action::kCall, Action::kRaise})
        if (a.legal[static_cast<std::size_t>(k)])
          probabilities.push_back({{"letter", std::string(1, action_char(k))},
                                   {"name", name_of(k, before[i])},
                                   {"p", a.probabilities[static_cast<std::size_t>(k)]}});
    }
    opponent.push_back({{"round", a.round},
                        {"letter", std::string(1, action_char(a.action))},
                        {"name", name},
                        {"probabilities", probabilities}});
  }
  j["actions"] = all;
  j["opponent_actions"] = opponent;
  j["result"] = nullptr;
  if (v.hand > 0 && !v.hand_running) {
    const auto won = static_cast<std::int64_t>(std::llround(v.person_won));
    const std::string outcome =
        won > 0 ? fmt::format("you win {}", won)
                : (won < 0 ? fmt::format("you lose {}", -won) : std::string("a split, net 0"));
    json mine = nullptr, theirs = nullptr;
    std::string text;
    if (v.showdown) {
      if (v.person_category) mine = category_name(*v.person_category);
      if (v.opponent_category) theirs = category_name(*v.opponent_category);
      const auto hand = [](const std::vector<Card>& cards, const json& category) {
        return cards_to_string(cards) +
               (category.is_string() ? " (" + category.get<std::string>() + ")" : "");
      };
      text = "showdown: your " + hand(v.person_hole, mine) + ", its " +
             hand(v.opponent_hole, theirs) + ": " + outcome;
    } else {
      text = won > 0 ? fmt::format("the opponent folds: you win {}", won)
                     : fmt::format("you fold: you lose {}", -won);
    }
    j["result"] = {{"won", won},
                   {"showdown", v.showdown},
                   {"your_category", mine},
                   {"opponent_category", theirs},
                   {"text", text}};
  }
  j["odds"] = nullptr;  // while the person holds cards in a running hand
  if (v.hand_running) {
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

std::vector<StoredHand> PlaySession::pending_hands() const {
  std::vector<StoredHand> out;
  const std::vector<std::string>& lines = table_->log_lines();
  for (std::int64_t k = hands_stored_; k < static_cast<std::int64_t>(lines.size()); ++k) {
    StoredHand h;
    h.player = player_;
    h.hand_number = k;
    h.game = game_name_;
    h.opponent = opponent_name_;
    h.position = static_cast<int>(k % 2);
    h.big_blind = big_blind_;
    h.log_line = lines[static_cast<std::size_t>(k)];
    // The engine's values, as its log line holds them (the replay recomputes them too).
    const LogStateLine line = parse_log_state(h.log_line, table_->game());
    h.result_chips =
        static_cast<std::int64_t>(std::llround(line.values[static_cast<std::size_t>(h.position)]));
    out.push_back(std::move(h));
  }
  return out;
}

void PlaySession::store_completed_hands(const StoreHand& store) {
  for (StoredHand& h : pending_hands()) {
    store_retrying(store, h);
    ++hands_stored_;
  }
}

std::vector<StoredHand> PlaySession::take_completed_hands() {
  std::vector<StoredHand> out = pending_hands();
  hands_stored_ += static_cast<std::int64_t>(out.size());
  return out;
}

}  // namespace hulhe::server
