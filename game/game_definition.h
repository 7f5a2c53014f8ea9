#pragma once
// An ACPC game definition (the `.game` format of the ACPC server's game.h/game.c): betting
// type, players, rounds, blinds, raise sizes, who acts first each round, raise caps,
// stacks and the deck. Parsing errors are InputError naming the file, line and problem.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game/card.h"

namespace hulhe {

inline constexpr int kMaxPlayers = 10;
inline constexpr int kMaxRounds = 4;
inline constexpr int kMaxBoardCards = 7;
inline constexpr int kMaxHoleCards = 3;

enum class BettingType : std::uint8_t { kLimit, kNoLimit };

struct GameDefinition {
  BettingType betting_type = BettingType::kLimit;
  int num_players = 2;
  int num_rounds = 4;
  std::array<std::int32_t, kMaxPlayers> stack{};           // INT32_MAX when the file gives none
  std::array<std::int32_t, kMaxPlayers> blind{};           // per position
  std::array<std::int32_t, kMaxRounds> raise_size{};       // limit games
  std::array<std::uint8_t, kMaxRounds> first_player{};     // position, 0-based
  std::array<std::uint8_t, kMaxRounds> max_raises{};       // 255 = unlimited
  std::array<std::uint8_t, kMaxRounds> num_board_cards{};  // dealt at the start of a round
  int num_suits = 4;
  int num_ranks = 13;
  int num_hole_cards = 2;
  std::string name;  // e.g. the file name without .game; not part of the hash

  static GameDefinition from_file(const std::string& path);
  // `source` names the text in error messages (a path, or "<string>").
  static GameDefinition from_string(std::string_view text, std::string_view source = "<string>");
  // Heads-up limit Texas hold'em, the ACPC's holdem.limit.2p.reverse_blinds.game, built in
  // (the default game of the commands).
  static GameDefinition holdem_limit_2p();
  // The game a command's `--game` option names: that file, or HULHE (built in) when empty.
  // Every command resolves the option through this one function.
  static GameDefinition from_option(const std::string& path);
  // The same for an option that can be told apart from an empty one: absent is HULHE, and a
  // given path is read (`--game ''` is an error naming the empty path).
  static GameDefinition from_option(const std::optional<std::string>& path);
  std::string to_acpc_string() const;  // parses back to an equal definition

  // Board cards visible in `round` (cumulative).
  int total_board_cards(int round) const;
  int deck_size() const { return num_suits * num_ranks; }
  // The cards of the deck, ascending. ACPC (game.c dealCards) uses the *top* num_ranks ranks
  // and the *last* num_suits suits: Kuhn's deck is Qs Ks As, Leduc's Qh Qs Kh Ks Ah As.
  std::vector<Card> deck() const;
  CardSet deck_set() const;
  // The largest blind; the unit of mbb/g.
  std::int32_t big_blind() const;
  // Stable hash of the rules (not of the name or the file's layout); goes into file headers.
  std::uint64_t hash() const;

  bool operator==(const GameDefinition& o) const;
};

}  // namespace hulhe
