// `hulhe play --human`: the text table of a person against a strategy file or a bot. The game
// logic is human_play/human_session.h; this file only prints the table and reads typed actions.
#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <csignal>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent_factory.h"
#include "cli/play_human.h"
#include "game/game_definition.h"
#include "game/game_state.h"
#include "human_play/human_session.h"
#include "util/input_error.h"
#include "util/output_file.h"
#include "util/printable_text.h"

namespace hulhe::cli {
namespace {

std::string cards_text(const std::vector<Card>& cards) {
  if (cards.empty()) return "-";
  std::string s;
  for (Card c : cards) {
    if (!s.empty()) s += ' ';
    s += card_to_string(c);
  }
  return s;
}

// What an action is called in the state it is taken in: check or call, bet or raise.
std::string action_words(const GameState& before, Action a) {
  const int p = before.current_player();
  const std::int32_t to_call = before.max_spent() - before.spent(p);
  switch (a) {
    case Action::kFold:
      return "fold";
    case Action::kCall:
      return to_call == 0 ? "check" : fmt::format("call {}", to_call);
    case Action::kRaise: {
      std::int32_t to = 0;
      before.can_raise(&to);
      // A bet opens a round's betting; before the flop a blind is already a bet (antes,
      // as in Leduc, are not).
      const GameDefinition& g = before.game();
      const bool antes = g.blind[0] == g.blind[1];
      const bool bet = to_call == 0 && before.num_raises() == 0 && (before.round() > 0 || antes);
      return fmt::format("{} to {}", bet ? "bet" : "raise", to);
    }
  }
  return "?";
}

// The table's actions, each named in the state it was taken in (replayed from the start).
std::vector<std::string> described_actions(const GameDefinition& game, const TableView& v) {
  std::vector<std::string> out;
  GameState s(game);
  for (const TableAction& a : v.actions) {
    out.push_back(action_words(s, a.action));
    s.apply({a.action, 0});
  }
  return out;
}

std::string percent(double x) {
  return fmt::format("{:.1f}%", 100.0 * x);
}

// The kinds legal where the opponent acted, each with the chance it was drawn with.
std::string probabilities_text(const GameState& before, const TableAction& a) {
  if (!a.probabilities_known) return "(this bot gives no probabilities: it played its choice)";
  std::string s;
  for (Action k : {Action::kFold, Action::kCall, Action::kRaise}) {
    if ((k == Action::kFold && !before.can_fold()) || (k == Action::kRaise && !before.can_raise()))
      continue;
    if (!s.empty()) s += " · ";
    s += fmt::format("{} {}", action_words(before, k),
                     percent(a.probabilities[static_cast<int>(k)]));
  }
  return s;
}

const char* kRoundNames[] = {"preflop", "flop", "turn", "river"};

std::string round_name(const GameDefinition& game, int round) {
  if (game.num_rounds == 4) return kRoundNames[round];
  return fmt::format("round {}", round + 1);
}

class TextTable {
 public:
  TextTable(const HumanPlayOptions& o, std::FILE* out, HumanSession& session)
      : o_(o), out_(out), s_(session) {}

  // New actions since the last call, one line each.
  void print_events(const TableView& v) {
    const std::vector<std::string> words = described_actions(s_.game(), v);
    for (std::size_t i = printed_actions_; i < v.actions.size(); ++i) {
      const TableAction& a = v.actions[i];
      fmt::print(out_, "  {:<8} {}: {}\n", round_name(s_.game(), a.round),
                 a.by_person ? printable(o_.name) : "opponent", words[i]);
    }
    printed_actions_ = v.actions.size();
  }

  void print_hand_start(const TableView& v) {
    printed_actions_ = 0;
    const GameDefinition& g = s_.game();
    fmt::print(out_, "\n=== hand {} · you are position {} (blind {}), {} holds the other ===\n",
               v.hand, v.person_position, g.blind[v.person_position], s_.opponent().name());
  }

  void print_table(const TableView& v) {
    fmt::print(out_, "  board: {:<16} you: {}\n", cards_text(v.board), cards_text(v.person_hole));
    fmt::print(out_, "  pot {} · you put in {} · opponent put in {} · betting '{}'\n", v.pot,
               v.person_spent, v.opponent_spent, v.betting);
  }

  void print_odds() {
    const LiveOdds& odds = s_.odds();
    auto how = [](const EquityEstimate& e) {
      return e.exact ? std::string("exact")
                     : fmt::format("±{:.1f}%, {} samples", 196.0 * e.std_error, e.deals);
    };
    fmt::print(out_, "  odds: {} vs a random hand ({}) · {} vs its range ({})\n",
               percent(odds.vs_random.equity), how(odds.vs_random), percent(odds.vs_range.equity),
               odds.range_from_strategy ? how(odds.vs_range) : "uniform: no probabilities");
    std::string by_river;
    for (int k = kNumHandCategories - 1; k >= 0; --k) {
      const double p = odds.categories.chance[k];
      if (p <= 0) continue;
      if (!by_river.empty()) by_river += " · ";
      by_river += fmt::format("{} {}", category_name(static_cast<HandCategory>(k)), percent(p));
    }
    fmt::print(out_, "  by the {}: {}{}\n", s_.game().num_rounds == 4 ? "river" : "last round",
               by_river,
               odds.categories.exact ? "" : fmt::format(" ({} samples)", odds.categories.deals));
  }

  void print_prompt(const TableView& v) {
    GameState s(s_.game());
    s.apply_betting(v.betting);
    std::string choices;
    for (const BetAction& a : v.legal_actions) {
      if (!choices.empty()) choices += "  ";
      choices += fmt::format("[{}] {}", action_char(a.type), action_words(s, a.type));
    }
    fmt::print(out_, "  your turn: {}  ([p] probabilities, [q] quit)\n> ", choices);
    std::fflush(out_);
  }

  void print_probabilities(const TableView& v) {
    GameState s(s_.game());
    bool any = false;
    for (const TableAction& a : v.actions) {
      if (!a.by_person) {
        any = true;
        fmt::print(out_, "  opponent {} ({}) drawn from: {}\n", action_words(s, a.action),
                   round_name(s_.game(), a.round), probabilities_text(s, a));
      }
      s.apply({a.action, 0});
    }
    if (!any) fmt::print(out_, "  the opponent has not acted yet this hand\n");
  }

  void print_result(const TableView& v) {
    if (v.showdown) {
      fmt::print(
          out_, "  showdown: you {} ({}) · opponent {} ({}) · board {}\n",
          cards_text(v.person_hole), v.person_category ? category_name(*v.person_category) : "",
          cards_text(v.opponent_hole),
          v.opponent_category ? category_name(*v.opponent_category) : "", cards_text(v.board));
    }
    const std::string how = v.showdown ? "at the showdown" : "by a fold";
    const double n = std::abs(v.person_won);
    const char* chips = n == 1 ? "chip" : "chips";
    if (v.person_won > 0)
      fmt::print(out_, "  you win {} {} {}\n", n, chips, how);
    else if (v.person_won < 0)
      fmt::print(out_, "  you lose {} {} {}\n", n, chips, how);
    else
      fmt::print(out_, "  split pot: you win 0 chips\n");
    print_totals(v.totals, "  session");
  }

  void print_totals(const SessionTotals& t, const char* label) {
    fmt::print(out_, "{}: {} hand{} · you won {} chips · {:+.1f} ± {:.1f} mbb/g (95%)\n", label,
               t.hands, t.hands == 1 ? "" : "s", t.chips, t.mbb_per_game, t.ci95_mbb);
  }

 private:
  const HumanPlayOptions& o_;
  std::FILE* out_;
  HumanSession& s_;
  std::size_t printed_actions_ = 0;
};

volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_interrupt(int) {
  interrupted = 1;
}

// Ctrl-C and SIGTERM (a closed terminal's session manager, `kill`) end the session as q
// does: result and log. The handler is installed without SA_RESTART, so a read blocked at the
// prompt returns (EINTR) and the line reader fails.
class InterruptEndsSession {
 public:
  InterruptEndsSession() {
    interrupted = 0;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(SIGINT, &action, &previous_int_);
    sigaction(SIGTERM, &action, &previous_term_);
  }
  ~InterruptEndsSession() {
    sigaction(SIGINT, &previous_int_, nullptr);
    sigaction(SIGTERM, &previous_term_, nullptr);
  }
  InterruptEndsSession(const InterruptEndsSession&) = delete;
  InterruptEndsSession& operator=(const InterruptEndsSession&) = delete;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

// A typed line is short: only its first kMaxLineBytes are kept (a pasted page is answered
// as one word that is no action), and a line that runs past kMaxSkippedBytes without ending
// (/dev/zero, a binary file) ends the input, so the reader's memory and time stay bounded.
constexpr std::size_t kMaxLineBytes = 4096;
constexpr std::size_t kMaxSkippedBytes = std::size_t{1} << 20;

enum class LineRead { kLine, kEnd, kTooLong };

LineRead read_line(std::istream& in, std::string& line) {
  line.clear();
  std::size_t length = 0;
  for (int c = in.get(); c != std::char_traits<char>::eof(); c = in.get()) {
    if (c == '\n') return LineRead::kLine;
    if (++length > kMaxSkippedBytes) return LineRead::kTooLong;
    if (line.size() < kMaxLineBytes) line.push_back(static_cast<char>(c));
  }
  return length == 0 ? LineRead::kEnd : LineRead::kLine;
}

std::string lower_trimmed(const std::string& line) {
  std::string s;
  for (char c : line)
    if (!std::isspace(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

void play_human(const HumanPlayOptions& o, std::istream& in, std::FILE* out) {
  const AgentSpec spec = AgentSpec::parse(o.agent_spec);
  std::vector<std::string> inputs = spec.files();
  inputs.push_back(o.game_path);
  if (!o.log.empty()) check_output_path(o.log, "log", inputs);
  if (o.hands < 0) throw InputError("--hands must be 0 (until you quit) or more");
  std::optional<GameDefinition> given;
  if (!o.game_path.empty()) given = GameDefinition::from_option(o.game_path);
  const AgentSource source = load_agent(spec.spec, given);
  HumanSession session(source.game, source.make(), o.seed, o.name);
  TextTable table(o, out, session);

  fmt::print(out, "hulhe play --human: {} against {} (seed {})\n", source.game.name, source.name,
             o.seed);
  fmt::print(out,
             "type f to fold, c to check or call, r to bet or raise, p for the opponent's "
             "probabilities, q to quit\n");
  const InterruptEndsSession interrupt_ends_session;
  bool quit = false;
  while (!quit && (o.hands == 0 || session.totals().hands < o.hands)) {
    session.start_hand();
    TableView v = session.view();
    table.print_hand_start(v);
    table.print_events(v);
    while (session.hand_running() && !quit) {
      table.print_table(v);
      table.print_odds();
      table.print_prompt(v);
      std::string line;
      const LineRead got = interrupted ? LineRead::kEnd : read_line(in, line);
      if (interrupted || got != LineRead::kLine) {
        fmt::print(out, "\n({})\n",
                   interrupted                 ? "interrupted"
                   : got == LineRead::kTooLong ? "a line over 1 MiB: end of input"
                                               : "end of input");
        quit = true;
        break;
      }
      const std::string typed = lower_trimmed(line);
      if (typed == "q" || typed == "quit") {
        quit = true;
        break;
      }
      if (typed == "p" || typed == "?") {
        table.print_probabilities(v);
        continue;
      }
      std::optional<Action> a;
      if (typed == "f" || typed == "fold") a = Action::kFold;
      if (typed == "c" || typed == "k" || typed == "call" || typed == "check") a = Action::kCall;
      if (typed == "r" || typed == "b" || typed == "raise" || typed == "bet") a = Action::kRaise;
      if (!a) {
        // Shown shortened and printable: a pasted page or binary bytes stay one short line.
        const std::string shown =
            line.size() > 40 ? printable(line.substr(0, 40)) + "..." : printable(line);
        fmt::print(out, "  '{}' is not an action: type f, c, r, p or q\n", shown);
        continue;
      }
      try {
        session.act({*a, 0});
      } catch (const InputError& e) {
        fmt::print(out, "  not now: {}\n", e.what());
        continue;
      }
      v = session.view();
      table.print_events(v);
    }
    if (!session.hand_running()) {
      table.print_table(v);
      table.print_result(v);
    }
  }
  if (session.hand_running()) fmt::print(out, "the hand in progress is not counted\n");
  fmt::print(out, "\n");
  table.print_totals(
      session.totals(),
      fmt::format("session ({} against {})", printable(o.name), printable(source.name)).c_str());
  if (!o.log.empty()) {
    write_output_file(o.log, "log", {session.dealer_log()});
    const std::int64_t n = session.totals().hands;
    fmt::print(out, "hand history ({} hand{}, ACPC dealer log): {}\n", n, n == 1 ? "" : "s", o.log);
  }
}

}  // namespace hulhe::cli
