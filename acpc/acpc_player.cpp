#include "acpc/acpc_player.h"

#include <chrono>
#include <optional>

#include "game/match_state.h"
#include "util/input_error.h"
#include "util/printable_text.h"

namespace hulhe {
namespace {

// At the end of a hand its value is known if it ended by folds or every live player's cards
// were shown.
bool value_known(const GameState& s) {
  if (s.num_folded() + 1 >= s.game().num_players) return true;
  for (int p = 0; p < s.game().num_players; ++p)
    if (!s.folded(p) && !s.has_hole_cards(p)) return false;
  return true;
}

}  // namespace

PlayerSummary play_acpc_match(LineConnection& dealer, Agent& agent, const GameDefinition& game,
                              std::uint64_t seed, std::ostream* log) {
  PlayerSummary summary;
  auto note = [&](const std::string& what) {
    if (log != nullptr) *log << "! " << what << '\n';
  };
  if (!dealer.write_line("VERSION:2.0.0")) {
    note("the dealer closed the connection before the version line could be sent");
    return summary;
  }
  if (log != nullptr) *log << "> VERSION:2.0.0\n";

  bool any_state = false;
  bool in_hand = false;
  std::uint32_t hand = 0;
  std::int64_t counted_hand = -1;  // the last hand whose end was tallied
  SplitMix64 rng(0);
  std::string line;
  std::int64_t line_number = 0;
  while (dealer.read_line(line) == LineConnection::Read::kLine) {
    const auto start = std::chrono::steady_clock::now();
    ++line_number;
    if (log != nullptr) *log << "< " << line << '\n';
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (!line.starts_with("MATCHSTATE:")) {
      ++summary.ignored_lines;
      note("line " + std::to_string(line_number) +
           " ignored (not a MATCHSTATE): " + quoted_bytes(line));
      continue;
    }
    std::optional<MatchState> parsed;
    try {
      parsed.emplace(MatchState::parse(line, game));
    } catch (const InputError& e) {
      if (!any_state)
        throw InputError("the dealer's first MATCHSTATE does not fit the game " + game.name +
                         " (is the dealer playing another game?): " + e.what());
      ++summary.ignored_lines;
      note("line " + std::to_string(line_number) + " ignored: " + e.what());
      continue;
    }
    const MatchState& ms = *parsed;
    const GameState& s = ms.state;
    if (!any_state || s.hand_id() != hand) {
      hand = s.hand_id();
      agent.new_hand();
      rng = SplitMix64::for_iteration(seed, hand);
    }
    any_state = true;
    in_hand = !s.finished();
    summary.last_hand = hand;
    if (s.finished()) {
      if (counted_hand != static_cast<std::int64_t>(hand)) {
        counted_hand = hand;
        ++summary.hands;
        if (value_known(s))
          summary.total += s.value(ms.viewing_position);
        else
          note("hand " + std::to_string(hand) + " ended at a showdown without the cards");
      }
      continue;
    }
    if (s.current_player() != ms.viewing_position) continue;
    BetAction action{Action::kCall, 0};
    try {
      action = agent.act(s, ms.viewing_position, rng);
    } catch (const InputError& e) {
      note("agent " + agent.name() + " cannot play " + quoted_bytes(line) + " (" + e.what() +
           "); calling");
    }
    if (!s.is_legal(action)) {
      note("agent " + agent.name() + " chose an illegal action in " + quoted_bytes(line) +
           "; calling");
      action = BetAction{Action::kCall, 0};
    }
    const std::string reply = response_string(ms, action);
    if (!dealer.write_line(reply)) break;
    ++summary.actions;
    summary.decision_micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
    if (log != nullptr) *log << "> " << reply << '\n';
  }
  summary.ended_mid_hand = in_hand;
  summary.mbb_per_game = summary.hands > 0 ? summary.total / static_cast<double>(summary.hands) *
                                                 1000.0 / game.big_blind()
                                           : 0.0;
  if (log != nullptr) log->flush();
  return summary;
}

}  // namespace hulhe
