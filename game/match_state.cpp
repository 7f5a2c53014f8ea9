#include "game/match_state.h"

#include <charconv>
#include <vector>

#include "util/input_error.h"
#include "util/printable_text.h"

namespace hulhe {
namespace {

std::string_view strip_line_end(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

template <typename T>
bool parse_uint(std::string_view s, T& out) {
  // from_chars takes a minus sign for a signed T: "-1" is no position (the fuzzer's finding).
  if (s.empty() || s[0] < '0' || s[0] > '9') return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// `count` cards of the deck, none seen before.
void read_cards(std::string_view text, int count, Card* out, CardSet& seen, const CardSet deck,
                std::string_view field) {
  if (static_cast<int>(text.size()) != 2 * count)
    throw InputError("cards " + quoted_bytes(field) + ": expected " + std::to_string(count) +
                     " card(s) in " + quoted_bytes(text));
  for (int i = 0; i < count; ++i) {
    const Card c = parse_card(text.substr(2 * static_cast<std::size_t>(i), 2));
    if (!deck.contains(c))
      throw InputError("cards " + quoted_bytes(field) + ": " + card_to_string(c) +
                       " is not in this game's deck");
    if (seen.contains(c))
      throw InputError("cards " + quoted_bytes(field) + ": " + card_to_string(c) +
                       " appears twice");
    seen.insert(c);
    out[i] = c;
  }
}

}  // namespace

std::vector<std::string_view> split_fields(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t k = s.find(sep, start);
    if (k == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, k - start));
    start = k + 1;
  }
}

void parse_state_cards(std::string_view text, GameState& state, bool require_all_holes) {
  const GameDefinition& g = state.game();
  const CardSet deck = g.deck_set();
  CardSet seen;
  // Hole cards run up to the first '/', players split by '|'.
  const std::size_t slash = text.find('/');
  const std::string_view holes = text.substr(0, slash);
  auto per_player = split_fields(holes, '|');
  if (static_cast<int>(per_player.size()) != g.num_players)
    throw InputError("cards " + quoted_bytes(text) + ": expected hole cards of " +
                     std::to_string(g.num_players) + " players split by '|'");
  // Round 0's board cards (none in hold'em) follow the last player's hole cards directly.
  const std::size_t board0_chars = 2 * static_cast<std::size_t>(g.num_board_cards[0]);
  std::string_view& last = per_player.back();
  if (last.size() < board0_chars)
    throw InputError("cards " + quoted_bytes(text) + ": expected " +
                     std::to_string(g.num_board_cards[0]) + " first-round board card(s)");
  const std::string_view board0 = last.substr(last.size() - board0_chars);
  last.remove_suffix(board0_chars);
  for (int p = 0; p < g.num_players; ++p) {
    if (per_player[p].empty()) {
      if (require_all_holes)
        throw InputError("cards " + quoted_bytes(text) + ": hole cards of position " +
                         std::to_string(p) + " are missing");
      continue;
    }
    std::array<Card, kMaxHoleCards> hole{};
    read_cards(per_player[p], g.num_hole_cards, hole.data(), seen, deck, text);
    state.set_hole_cards(p, hole.data());
  }
  // Each later round's board cards follow a '/'.
  std::vector<std::string_view> rounds{board0};
  if (slash != std::string_view::npos)
    for (std::string_view r : split_fields(text.substr(slash + 1), '/')) rounds.push_back(r);
  if (static_cast<int>(rounds.size()) != state.round() + 1)
    throw InputError("cards " + quoted_bytes(text) + ": the betting reaches round " +
                     std::to_string(state.round() + 1) + " but the cards show " +
                     std::to_string(rounds.size()) + " round(s)");
  for (int r = 0; r <= state.round(); ++r) {
    std::array<Card, kMaxBoardCards> board{};
    read_cards(rounds[r], g.num_board_cards[r], board.data(), seen, deck, text);
    for (int i = 0; i < g.num_board_cards[r]; ++i)
      state.set_board_card(g.total_board_cards(r) - g.num_board_cards[r] + i, board[i]);
  }
}

std::string state_cards_string(const GameState& state) {
  const GameDefinition& g = state.game();
  std::string s;
  for (int p = 0; p < g.num_players; ++p) {
    if (p > 0) s += '|';
    if (state.has_hole_cards(p))
      for (int i = 0; i < g.num_hole_cards; ++i) s += card_to_string(state.hole_cards(p)[i]);
  }
  for (int r = 0; r <= state.round(); ++r) {
    if (r > 0) s += '/';
    for (int i = g.total_board_cards(r) - g.num_board_cards[r]; i < g.total_board_cards(r); ++i)
      s += card_to_string(state.board_cards()[i]);
  }
  return s;
}

BetAction parse_action(std::string_view text, const GameDefinition& game) {
  BetAction a;
  const bool no_limit = game.betting_type == BettingType::kNoLimit;
  if (text == "f") {
    a.type = Action::kFold;
  } else if (text == "c") {
    a.type = Action::kCall;
  } else if (text == "r" && !no_limit) {
    a.type = Action::kRaise;
  } else if (no_limit && text.size() > 1 && text[0] == 'r' && parse_uint(text.substr(1), a.size)) {
    a.type = Action::kRaise;
  } else {
    throw InputError("bad action " + quoted_bytes(text) + ": expected f, c or " +
                     (no_limit ? "r<raise-to>, e.g. r300" : "r"));
  }
  return a;
}

std::string action_string(BetAction a, const GameDefinition& game) {
  std::string s(1, action_char(a.type));
  if (a.type == Action::kRaise && game.betting_type == BettingType::kNoLimit)
    s += std::to_string(a.size);
  return s;
}

namespace {

// Fields 1..4 after "MATCHSTATE": position, hand, betting, cards.
MatchState parse_fields(const std::vector<std::string_view>& f, std::string_view message,
                        const GameDefinition& game) {
  auto fail = [&](const std::string& problem) -> InputError {
    return InputError("bad MATCHSTATE " + quoted_bytes(message) + ": " + problem);
  };
  if (f[0] != "MATCHSTATE") throw fail("does not start with MATCHSTATE:");
  int position = 0;
  if (!parse_uint(f[1], position) || position >= game.num_players)
    throw fail("position " + quoted_bytes(f[1]) + " is not 0.." +
               std::to_string(game.num_players - 1));
  std::uint32_t hand = 0;
  if (!parse_uint(f[2], hand)) throw fail("hand number " + quoted_bytes(f[2]) + " is bad");
  MatchState ms{position, GameState(game, hand)};
  try {
    ms.state.apply_betting(f[3]);
    parse_state_cards(f[4], ms.state, false);
  } catch (const InputError& e) {
    throw fail(e.what());
  }
  if (!ms.state.has_hole_cards(position)) throw fail("the viewer's hole cards are missing");
  return ms;
}

// A message's fields: a state's five, or a response's six (the state's and the action).
std::vector<std::string_view> message_fields(std::string_view message, bool response) {
  auto f = split_fields(message, ':');
  if (f.size() != (response ? 6U : 5U))
    throw InputError(std::string(response ? "bad response " : "bad MATCHSTATE ") +
                     quoted_bytes(message) +
                     ": expected MATCHSTATE:<position>:<hand>:<betting>:<cards>" +
                     (response ? ":<action>" : ""));
  return f;
}

}  // namespace

MatchState MatchState::parse(std::string_view message, const GameDefinition& game) {
  message = strip_line_end(message);
  return parse_fields(message_fields(message, false), message, game);
}

std::string MatchState::to_string() const {
  return "MATCHSTATE:" + std::to_string(viewing_position) + ":" + std::to_string(state.hand_id()) +
         ":" + state.betting_string() + ":" + state_cards_string(state);
}

MatchResponse MatchResponse::parse(std::string_view message, const GameDefinition& game) {
  message = strip_line_end(message);
  const auto f = message_fields(message, true);
  MatchResponse r{parse_fields(f, message, game), BetAction{}};
  try {
    r.action = parse_action(f[5], game);
  } catch (const InputError& e) {
    throw InputError("bad response " + quoted_bytes(message) + ": " + e.what());
  }
  return r;
}

std::string MatchResponse::to_string() const {
  return response_string(match_state, action);
}

std::string response_string(const MatchState& state, BetAction action) {
  return state.to_string() + ":" + action_string(action, state.state.game());
}

}  // namespace hulhe
