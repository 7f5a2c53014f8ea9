#pragma once
// ACPC protocol 2.0.0 messages (ACPC game.c readMatchState/printMatchState):
//   dealer → client  MATCHSTATE:<position>:<hand>:<betting>:<cards>
//   client → dealer  MATCHSTATE:<position>:<hand>:<betting>:<cards>:<action>
// with <cards> = hole|hole[|...] then /board per round reached, e.g. "5d5c|/8dAs8s/4h/6d".
// The card and betting fields are shared with the dealer log's STATE lines (dealer_log.h).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "game/game_state.h"

namespace hulhe {

// The fields of an ACPC line between separators (':' for fields, '|' for players, '/' for
// rounds); empty fields are kept, so "a::b" has three.
std::vector<std::string_view> split_fields(std::string_view text, char sep);

// Reads the <cards> field into `state` (whose betting is already applied, so its round is
// known): every player's hole cards or nothing for an unseen hand, then exactly the board
// cards of each round reached. Cards must be in the game's deck and distinct. With
// `require_all_holes` (dealer logs), every player's hole cards must be there.
void parse_state_cards(std::string_view text, GameState& state, bool require_all_holes);
std::string state_cards_string(const GameState& state);

// "f", "c", "r" or, in no-limit games, "r<raise-to>". Throws InputError on anything else.
BetAction parse_action(std::string_view text, const GameDefinition& game);
std::string action_string(BetAction a, const GameDefinition& game);

struct MatchState {
  int viewing_position = 0;
  GameState state;

  // Throws InputError naming the message and the problem. A trailing "\r\n" is ignored.
  static MatchState parse(std::string_view message, const GameDefinition& game);
  std::string to_string() const;  // without the line ending
};

// The client's reply: the state it answers and its action.
struct MatchResponse {
  MatchState match_state;
  BetAction action;

  static MatchResponse parse(std::string_view message, const GameDefinition& game);
  std::string to_string() const;  // "MATCHSTATE:...:<action>"
};

std::string response_string(const MatchState& state, BetAction action);

}  // namespace hulhe
