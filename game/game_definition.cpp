#include "game/game_definition.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <type_traits>
#include <vector>

#include "util/checksums.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/printable_text.h"

namespace hulhe {
namespace {

constexpr std::uint64_t kMaxGameFileBytes = 1 << 20;

// The keys of ACPC game.c readGame, matched case-insensitively. ACPC matches them as
// prefixes and ignores anything it does not know; we are stricter and name the problem.
enum class Key {
  kGamedef,
  kEndGamedef,
  kLimit,
  kNoLimit,
  kStack,
  kBlind,
  kRaiseSize,
  kNumPlayers,
  kNumRounds,
  kFirstPlayer,
  kMaxRaises,
  kNumSuits,
  kNumRanks,
  kNumHoleCards,
  kNumBoardCards,
};

struct KeyName {
  const char* name;
  Key key;
};
constexpr KeyName kKeys[] = {
    {"gamedef", Key::kGamedef},
    {"limit", Key::kLimit},
    {"nolimit", Key::kNoLimit},
    {"stack", Key::kStack},
    {"blind", Key::kBlind},
    {"raisesize", Key::kRaiseSize},
    {"numplayers", Key::kNumPlayers},
    {"numrounds", Key::kNumRounds},
    {"firstplayer", Key::kFirstPlayer},
    {"maxraises", Key::kMaxRaises},
    {"numsuits", Key::kNumSuits},
    {"numranks", Key::kNumRanks},
    {"numholecards", Key::kNumHoleCards},
    {"numboardcards", Key::kNumBoardCards},
};

// Joins message parts (GCC 12 warns falsely on chains of `"..." + std::string`).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out.append(p);
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class Parser {
 public:
  explicit Parser(std::string_view source) : source_(source) {}

  [[noreturn]] void fail(int line, const std::string& problem) const {
    throw InputError(cat({source_, ":", std::to_string(line), ": ", problem}));
  }

  // "= 10 5" or "10 5" → integers. Every token must be a whole number in [lo, hi].
  std::vector<std::int64_t> values(int line, std::string_view key, std::string_view rest,
                                   std::int64_t lo, std::int64_t hi, std::size_t max_count) {
    rest = trim(rest);
    if (!rest.empty() && rest.front() == '=') rest = trim(rest.substr(1));
    std::vector<std::int64_t> out;
    std::istringstream in{std::string(rest)};
    std::string token;
    while (in >> token) {
      std::int64_t v = 0;
      auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
      if (ec != std::errc() || end != token.data() + token.size())
        fail(line, cat({"'", key, "' expects whole numbers, got '", token, "'"}));
      if (v < lo || v > hi)
        fail(line, cat({"'", key, "' value ", token, " is out of range [", std::to_string(lo), ", ",
                        std::to_string(hi), "]"}));
      out.push_back(v);
    }
    if (out.empty()) fail(line, cat({"'", key, "' needs a value"}));
    if (out.size() > max_count)
      fail(line, cat({"'", key, "' has ", std::to_string(out.size()), " values, at most ",
                      std::to_string(max_count), " allowed"}));
    return out;
  }

 private:
  std::string_view source_;
};

}  // namespace

GameDefinition GameDefinition::from_file(const std::string& path) {
  // ACPC .game files are a few hundred bytes; the bound keeps /dev/zero-like inputs out.
  const std::string text = read_input_file(path, "game definition", kMaxGameFileBytes);
  GameDefinition g = from_string(text, path);
  // The name is the file name without its folder and `.game`.
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.size() > 5 && name.ends_with(".game")) name.resize(name.size() - 5);
  g.name = name;
  return g;
}

GameDefinition GameDefinition::from_option(const std::string& path) {
  return path.empty() ? holdem_limit_2p() : from_file(path);
}

GameDefinition GameDefinition::from_option(const std::optional<std::string>& path) {
  return path ? from_file(*path) : holdem_limit_2p();
}

GameDefinition GameDefinition::from_string(std::string_view text, std::string_view source) {
  Parser p(source);
  GameDefinition g;
  // ACPC defaults (readGame): no stack limit, firstPlayer 1, unlimited raises; everything
  // else must be given.
  g.stack.fill(INT32_MAX);
  g.blind.fill(0);
  g.raise_size.fill(0);
  g.first_player.fill(0);
  g.max_raises.fill(255);
  g.num_board_cards.fill(0);
  g.num_players = 0;
  g.num_rounds = 0;
  g.num_suits = 0;
  g.num_ranks = 0;
  g.num_hole_cards = 0;

  // Line of the last occurrence of each key, for the sanity checks' messages.
  int line_of[16] = {};
  std::size_t count_of[16] = {};
  bool seen_begin = false, seen_end = false;
  int line_no = 0, last_content_line = 1, end_gamedef_line = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view raw = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    last_content_line = line_no;
    if (seen_end) p.fail(line_no, "text after END GAMEDEF");

    // The key is the leading run of letters; "END GAMEDEF" is the one two-word key.
    std::size_t k = 0;
    while (k < line.size() && std::isalpha(static_cast<unsigned char>(line[k]))) ++k;
    const std::string word = lower(line.substr(0, k));
    std::string_view rest = line.substr(k);
    if (word == "end") {
      if (lower(trim(rest)) != "gamedef") p.fail(line_no, "expected 'END GAMEDEF'");
      if (!seen_begin) p.fail(line_no, "END GAMEDEF without GAMEDEF");
      seen_end = true;
      end_gamedef_line = line_no;
      continue;
    }
    const KeyName* found = nullptr;
    for (const KeyName& kn : kKeys)
      if (word == kn.name) found = &kn;
    if (found == nullptr) {
      p.fail(line_no,
             "unknown key '" + std::string(line.substr(0, std::max<std::size_t>(k, 1))) + "'");
    }
    if (found->key != Key::kGamedef && !seen_begin)
      p.fail(line_no, "'" + std::string(line.substr(0, k)) + "' before GAMEDEF");
    const std::string_view key = line.substr(0, k);
    const int ki = static_cast<int>(found->key);
    line_of[ki] = line_no;
    // The key's list of values in [lo, hi], at most `most`, into dst (each less `minus`).
    const auto read_list = [&](auto& dst, std::int64_t lo, std::int64_t hi, std::size_t most,
                               std::int64_t minus = 0) {
      const std::vector<std::int64_t> v = p.values(line_no, key, rest, lo, hi, most);
      for (std::size_t i = 0; i < v.size(); ++i)
        dst[i] = static_cast<std::remove_reference_t<decltype(dst[i])>>(v[i] - minus);
      count_of[ki] = v.size();
    };
    switch (found->key) {
      case Key::kGamedef:
        if (seen_begin) p.fail(line_no, "second GAMEDEF");
        if (!trim(rest).empty()) p.fail(line_no, "unexpected text after GAMEDEF");
        seen_begin = true;
        break;
      case Key::kEndGamedef:
        break;
      case Key::kLimit:
      case Key::kNoLimit:
        if (!trim(rest).empty()) p.fail(line_no, "unexpected text after '" + word + "'");
        g.betting_type = found->key == Key::kLimit ? BettingType::kLimit : BettingType::kNoLimit;
        break;
      case Key::kStack:
        read_list(g.stack, 1, INT32_MAX, kMaxPlayers);
        break;
      case Key::kBlind:
        read_list(g.blind, 0, INT32_MAX, kMaxPlayers);
        break;
      case Key::kRaiseSize:
        read_list(g.raise_size, 1, INT32_MAX, kMaxRounds);
        break;
      case Key::kFirstPlayer:
        // 1-based in the file, 0-based positions here (readGame: --firstPlayer[r]).
        read_list(g.first_player, 1, kMaxPlayers, kMaxRounds, 1);
        break;
      case Key::kMaxRaises:
        read_list(g.max_raises, 0, 255, kMaxRounds);
        break;
      case Key::kNumBoardCards:
        read_list(g.num_board_cards, 0, kMaxBoardCards, kMaxRounds);
        break;
      case Key::kNumPlayers:
        g.num_players = static_cast<int>(p.values(line_no, key, rest, 2, kMaxPlayers, 1)[0]);
        break;
      case Key::kNumRounds:
        g.num_rounds = static_cast<int>(p.values(line_no, key, rest, 1, kMaxRounds, 1)[0]);
        break;
      case Key::kNumSuits:
        g.num_suits = static_cast<int>(p.values(line_no, key, rest, 1, kMaxSuits, 1)[0]);
        break;
      case Key::kNumRanks:
        g.num_ranks = static_cast<int>(p.values(line_no, key, rest, 1, kMaxRanks, 1)[0]);
        break;
      case Key::kNumHoleCards:
        g.num_hole_cards = static_cast<int>(p.values(line_no, key, rest, 1, kMaxHoleCards, 1)[0]);
        break;
    }
  }
  // Problems of the whole definition point at END GAMEDEF (or the last line without it).
  const int end_line = seen_end ? end_gamedef_line : last_content_line;
  if (!seen_begin) p.fail(end_line, "no GAMEDEF line");
  if (!seen_end) p.fail(end_line, "missing END GAMEDEF");

  // The sanity checks of readGame, each naming the line of the key at fault (or the end).
  auto at = [&](Key k) {
    return line_of[static_cast<int>(k)] ? line_of[static_cast<int>(k)] : end_line;
  };
  auto cnt = [&](Key k) { return count_of[static_cast<int>(k)]; };
  if (g.num_players == 0) p.fail(end_line, "numPlayers is missing");
  if (g.num_rounds == 0) p.fail(end_line, "numRounds is missing");
  const auto np = static_cast<std::size_t>(g.num_players);
  const auto nr = static_cast<std::size_t>(g.num_rounds);
  if (cnt(Key::kStack) != 0 && cnt(Key::kStack) < np)
    p.fail(at(Key::kStack),
           "only " + std::to_string(cnt(Key::kStack)) + " stack sizes, need " + std::to_string(np));
  if (cnt(Key::kBlind) < np)
    p.fail(at(Key::kBlind),
           "only " + std::to_string(cnt(Key::kBlind)) + " blinds, need " + std::to_string(np));
  for (int i = 0; i < g.num_players; ++i)
    if (g.blind[i] > g.stack[i])
      p.fail(at(Key::kBlind), "blind of position " + std::to_string(i) + " exceeds its stack");
  if (g.betting_type == BettingType::kLimit && cnt(Key::kRaiseSize) < nr)
    p.fail(at(Key::kRaiseSize), "only " + std::to_string(cnt(Key::kRaiseSize)) +
                                    " raise sizes, need " + std::to_string(nr));
  for (int r = 0; r < g.num_rounds; ++r)
    if (g.first_player[r] >= g.num_players)
      p.fail(at(Key::kFirstPlayer), "firstPlayer " + std::to_string(g.first_player[r] + 1) +
                                        " of round " + std::to_string(r + 1) + " is not a player");
  if (g.num_suits == 0) p.fail(end_line, "numSuits is missing");
  if (g.num_ranks == 0) p.fail(end_line, "numRanks is missing");
  if (g.num_hole_cards == 0) p.fail(end_line, "numHoleCards is missing");
  if (cnt(Key::kNumBoardCards) < nr)
    p.fail(at(Key::kNumBoardCards), "only " + std::to_string(cnt(Key::kNumBoardCards)) +
                                        " board card numbers, need " + std::to_string(nr));
  if (g.total_board_cards(g.num_rounds - 1) > kMaxBoardCards)
    p.fail(at(Key::kNumBoardCards),
           "more than " + std::to_string(kMaxBoardCards) + " board cards in all");
  if (g.num_hole_cards * g.num_players + g.total_board_cards(g.num_rounds - 1) > g.deck_size())
    p.fail(end_line, "too many hole and board cards for a deck of " +
                         std::to_string(g.deck_size()) + " cards");
  // Unused tails stay at their defaults so that == and hash() see only the rules.
  for (int i = g.num_players; i < kMaxPlayers; ++i) g.stack[i] = INT32_MAX, g.blind[i] = 0;
  for (int r = g.num_rounds; r < kMaxRounds; ++r) {
    g.raise_size[r] = 0;
    g.first_player[r] = 0;
    g.max_raises[r] = 255;
    g.num_board_cards[r] = 0;
  }
  if (g.betting_type == BettingType::kNoLimit) g.raise_size.fill(0);
  return g;
}

GameDefinition GameDefinition::holdem_limit_2p() {
  GameDefinition g = from_string(
      "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 4\nblind = 10 5\nraiseSize = 10 10 20 20\n"
      "firstPlayer = 2 1 1 1\nmaxRaises = 3 4 4 4\nnumSuits = 4\nnumRanks = 13\n"
      "numHoleCards = 2\nnumBoardCards = 0 3 1 1\nEND GAMEDEF\n",
      "<built-in holdem.limit.2p.reverse_blinds>");
  g.name = "holdem.limit.2p.reverse_blinds";
  return g;
}

std::string GameDefinition::to_acpc_string() const {
  // The layout of ACPC game.c printGame.
  std::ostringstream o;
  o << "GAMEDEF\n" << (betting_type == BettingType::kNoLimit ? "nolimit" : "limit") << "\n";
  o << "numPlayers = " << num_players << "\nnumRounds = " << num_rounds << "\n";
  if (std::any_of(stack.begin(), stack.begin() + num_players,
                  [](std::int32_t s) { return s < INT32_MAX; })) {
    o << "stack =";
    for (int i = 0; i < num_players; ++i) o << ' ' << stack[i];
    o << "\n";
  }
  o << "blind =";
  for (int i = 0; i < num_players; ++i) o << ' ' << blind[i];
  o << "\n";
  if (betting_type == BettingType::kLimit) {
    o << "raiseSize =";
    for (int r = 0; r < num_rounds; ++r) o << ' ' << raise_size[r];
    o << "\n";
  }
  o << "firstPlayer =";
  for (int r = 0; r < num_rounds; ++r) o << ' ' << first_player[r] + 1;
  o << "\n";
  if (std::any_of(max_raises.begin(), max_raises.begin() + num_rounds,
                  [](std::uint8_t m) { return m != 255; })) {
    o << "maxRaises =";
    for (int r = 0; r < num_rounds; ++r) o << ' ' << int{max_raises[r]};
    o << "\n";
  }
  o << "numSuits = " << num_suits << "\nnumRanks = " << num_ranks
    << "\nnumHoleCards = " << num_hole_cards << "\nnumBoardCards =";
  for (int r = 0; r < num_rounds; ++r) o << ' ' << int{num_board_cards[r]};
  o << "\nEND GAMEDEF\n";
  return o.str();
}

int GameDefinition::total_board_cards(int round) const {
  int t = 0;
  for (int r = 0; r <= round && r < kMaxRounds; ++r) t += num_board_cards[r];
  return t;
}

std::vector<Card> GameDefinition::deck() const {
  std::vector<Card> out;
  for (int rank = kMaxRanks - num_ranks; rank < kMaxRanks; ++rank)
    for (int suit = kMaxSuits - num_suits; suit < kMaxSuits; ++suit)
      out.push_back(make_card(rank, suit));
  return out;
}

CardSet GameDefinition::deck_set() const {
  return CardSet::of(deck());
}

std::int32_t GameDefinition::big_blind() const {
  return *std::max_element(blind.begin(), blind.begin() + num_players);
}

std::uint64_t GameDefinition::hash() const {
  // FNV-1a of the canonical printGame text: it holds every rule and nothing else.
  return fnv1a(to_acpc_string());
}

bool GameDefinition::operator==(const GameDefinition& o) const {
  return to_acpc_string() == o.to_acpc_string();
}

}  // namespace hulhe
