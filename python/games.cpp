// ACPC games and the states of a hand: load a .game, a state from an ACPC match-state string,
// legal actions, pot, whose turn.
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <string>
#include <vector>

#include "game/game_definition.h"
#include "game/game_state.h"
#include "game/match_state.h"
#include "python/bindings.h"
#include "util/input_error.h"

namespace hulhe::python {

Game builtin_holdem() {
  static const Game g{std::make_shared<const GameDefinition>(GameDefinition::holdem_limit_2p()),
                      ""};
  return g;
}

namespace {

Game load_game(const std::string& path) {
  GameDefinition def = GameDefinition::from_file(path);
  def.name = std::filesystem::path(path).stem().string();
  return {std::make_shared<const GameDefinition>(std::move(def)), path};
}

std::string betting_name(const GameDefinition& g) {
  return g.betting_type == BettingType::kLimit ? "limit" : "nolimit";
}

void check_position(const GameState& s, int position) {
  if (position < 0 || position >= s.game().num_players)
    throw InputError("position " + std::to_string(position) + " is not in 0.." +
                     std::to_string(s.game().num_players - 1));
}

std::string hole_text(const GameState& s, int position) {
  const Card* h = s.hole_cards(position);
  return cards_to_string({h, h + s.game().num_hole_cards});
}

std::string board_text(const GameState& s) {
  const Card* b = s.board_cards();
  return cards_to_string({b, b + s.game().total_board_cards(s.round())});
}

}  // namespace

Game game_arg(const py::object& o) {
  if (o.is_none()) return builtin_holdem();
  if (py::isinstance<Game>(o)) return o.cast<Game>();
  if (py::isinstance<py::str>(o) || py::hasattr(o, "__fspath__"))
    return load_game(py::str(o).cast<std::string>());
  throw InputError("a game is a hulhe.Game, a path to an ACPC .game file, or None (HULHE)");
}

State view_of(const GameState& s, int viewer, std::shared_ptr<const GameDefinition> game) {
  State v(std::move(game));
  v.state = GameState(*v.game, s.hand_id());
  v.state.apply_betting(s.betting_string());
  if (viewer >= 0 && s.has_hole_cards(viewer)) v.state.set_hole_cards(viewer, s.hole_cards(viewer));
  if (viewer < 0)
    for (int p = 0; p < v.game->num_players; ++p)
      if (s.has_hole_cards(p)) v.state.set_hole_cards(p, s.hole_cards(p));
  for (int i = 0; i < v.game->total_board_cards(s.round()); ++i)
    v.state.set_board_card(i, s.board_cards()[i]);
  v.viewer = viewer;
  return v;
}

State state_arg(const py::object& o, const Game& game) {
  if (py::isinstance<State>(o)) return o.cast<State>();
  if (py::isinstance<py::str>(o)) {
    State s(game.def);
    MatchState ms = MatchState::parse(o.cast<std::string>(), *game.def);
    s.state = ms.state;  // over game.def: MatchState::parse reads into a state of `game`
    s.viewer = ms.viewing_position;
    return s;
  }
  throw InputError(
      "a state is a hulhe.State or an ACPC match-state string "
      "(MATCHSTATE:<position>:<hand>:<betting>:<cards>)");
}

BetAction action_arg(const py::handle& o, const GameDefinition& game) {
  if (!py::isinstance<py::str>(o))
    throw InputError("an action is 'f', 'c' or 'r' (or fold, call, check, raise, bet); got " +
                     std::string(py::repr(o)));
  std::string t = o.cast<std::string>();
  if (t == "fold") t = "f";
  if (t == "call" || t == "check") t = "c";
  if (t == "raise" || t == "bet") t = "r";
  return parse_action(t, game);
}

std::string action_text(BetAction a, const GameDefinition& game) {
  return action_string(a, game);
}

std::vector<std::string> legal_actions(const GameState& s) {
  std::vector<std::string> out;
  if (s.finished()) return out;
  if (s.can_fold()) out.emplace_back("f");
  if (s.can_call()) out.emplace_back("c");
  if (s.can_raise()) out.emplace_back("r");
  return out;
}

void bind_games(py::module_& m) {
  py::class_<Game>(m, "Game", "An ACPC game definition (.game file).")
      .def(py::init([](const std::filesystem::path& path) { return load_game(path.string()); }),
           py::arg("path"), "Reads an ACPC .game file (its name is the file name without .game).")
      .def_static("holdem", &builtin_holdem,
                  "Heads-up limit Texas hold'em (holdem.limit.2p.reverse_blinds), built in.")
      .def_static(
          "from_string",
          [](const std::string& text, const std::string& name) {
            GameDefinition def = GameDefinition::from_string(text);
            def.name = name;
            return Game{std::make_shared<const GameDefinition>(std::move(def)), ""};
          },
          py::arg("text"), py::arg("name") = "game", "A game from the text of a .game file.")
      .def_property_readonly("name", [](const Game& g) { return g.def->name; })
      .def_property_readonly(
          "path", [](const Game& g) { return g.path; }, "The file it was read from ('' if none).")
      .def_property_readonly(
          "betting", [](const Game& g) { return betting_name(*g.def); }, "'limit' or 'nolimit'.")
      .def_property_readonly("num_players", [](const Game& g) { return g.def->num_players; })
      .def_property_readonly("num_rounds", [](const Game& g) { return g.def->num_rounds; })
      .def_property_readonly("num_hole_cards", [](const Game& g) { return g.def->num_hole_cards; })
      .def_property_readonly("blinds",
                             [](const Game& g) {
                               return std::vector<int>(g.def->blind.begin(),
                                                       g.def->blind.begin() + g.def->num_players);
                             })
      .def_property_readonly("raise_sizes",
                             [](const Game& g) {
                               return std::vector<int>(
                                   g.def->raise_size.begin(),
                                   g.def->raise_size.begin() + g.def->num_rounds);
                             })
      .def_property_readonly(
          "board_cards",
          [](const Game& g) {
            std::vector<int> v;
            for (int r = 0; r < g.def->num_rounds; ++r) v.push_back(g.def->num_board_cards[r]);
            return v;
          },
          "Board cards dealt at the start of each round.")
      .def_property_readonly("big_blind", [](const Game& g) { return g.def->big_blind(); })
      .def_property_readonly("deck", [](const Game& g) { return cards_to_string(g.def->deck()); })
      .def_property_readonly("hash", [](const Game& g) { return g.def->hash(); })
      .def(
          "acpc", [](const Game& g) { return g.def->to_acpc_string(); },
          "The definition as ACPC .game text.")
      .def(
          "new_state",
          [](const Game& g, std::uint32_t hand) {
            State s(g.def);
            s.state = GameState(*g.def, hand);
            return s;
          },
          py::arg("hand") = 0, "The start of a hand: blinds posted, no cards.")
      .def(
          "state",
          [](const Game& g, const std::string& message) { return state_arg(py::str(message), g); },
          py::arg("match_state"), "The state of an ACPC match-state string of this game.")
      .def("__eq__", [](const Game& a, const Game& b) { return *a.def == *b.def; })
      .def("__repr__", [](const Game& g) { return "<hulhe.Game " + g.def->name + ">"; });

  py::class_<State>(m, "State",
                    "One hand's state: betting, cards, whose turn; seen by one position when "
                    "read from an ACPC match state.")
      .def(py::init([](const py::object& match_state, const py::object& game) {
             return state_arg(match_state, game_arg(game));
           }),
           py::arg("match_state"), py::arg("game") = py::none(),
           "The state of an ACPC match-state string, e.g. 'MATCHSTATE:0:7:cr:AhKh|', of "
           "`game` (a Game or a .game path; None: HULHE).")
      .def_property_readonly("game",
                             [](const State& s) {
                               return Game{s.game, ""};
                             })
      .def_property_readonly("round", [](const State& s) { return s.state.round(); })
      .def_property_readonly("finished", [](const State& s) { return s.state.finished(); })
      .def_property_readonly(
          "current_player",
          [](const State& s) -> std::optional<int> {
            if (s.state.finished()) return std::nullopt;
            return s.state.current_player();
          },
          "The position to act (ACPC's per-hand index; None when the hand is over).")
      .def_property_readonly(
          "viewer",
          [](const State& s) -> std::optional<int> {
            if (s.viewer < 0) return std::nullopt;
            return s.viewer;
          },
          "The position whose view this is (a match state's), or None.")
      .def_property_readonly("hand_id", [](const State& s) { return s.state.hand_id(); })
      .def_property_readonly("pot", [](const State& s) { return s.state.pot(); })
      .def(
          "spent",
          [](const State& s, int p) {
            check_position(s.state, p);
            return s.state.spent(p);
          },
          py::arg("position"), "Chips `position` has put in the pot.")
      .def(
          "folded",
          [](const State& s, int p) {
            check_position(s.state, p);
            return s.state.folded(p);
          },
          py::arg("position"))
      .def_property_readonly(
          "to_call",
          [](const State& s) {
            return s.state.finished()
                       ? 0
                       : s.state.max_spent() - s.state.spent(s.state.current_player());
          },
          "Chips the player to act must add to call.")
      .def_property_readonly(
          "num_raises", [](const State& s) { return s.state.num_raises(); },
          "Raises so far in this round.")
      .def_property_readonly(
          "betting", [](const State& s) { return s.state.betting_string(); },
          "ACPC betting string, e.g. 'cr/c'.")
      .def_property_readonly("board", [](const State& s) { return board_text(s.state); })
      .def(
          "hole_cards",
          [](const State& s, const std::optional<int>& position) -> std::optional<std::string> {
            const int p = position ? *position : s.viewer;
            if (p < 0) throw InputError("hole_cards() needs a position (the state has no viewer)");
            check_position(s.state, p);
            if (!s.state.has_hole_cards(p)) return std::nullopt;
            return hole_text(s.state, p);
          },
          py::arg("position") = py::none(),
          "A position's hole cards as text (default: the viewer's); None if unknown.")
      .def(
          "set_hole_cards",
          [](State& s, int position, const py::object& cards) {
            check_position(s.state, position);
            const std::vector<Card> c = cards_arg(cards);
            if (static_cast<int>(c.size()) != s.game->num_hole_cards)
              throw InputError("the game has " + std::to_string(s.game->num_hole_cards) +
                               " hole cards; got " + std::to_string(c.size()));
            s.state.set_hole_cards(position, c.data());
            return s;
          },
          py::arg("position"), py::arg("cards"))
      .def(
          "set_board",
          [](State& s, const py::object& cards) {
            const std::vector<Card> c = cards_arg(cards);
            const int want = s.game->total_board_cards(s.state.round());
            if (static_cast<int>(c.size()) != want)
              throw InputError("round " + std::to_string(s.state.round()) + " has " +
                               std::to_string(want) + " board cards; got " +
                               std::to_string(c.size()));
            for (int i = 0; i < want; ++i)
              s.state.set_board_card(i, c[static_cast<std::size_t>(i)]);
            return s;
          },
          py::arg("cards"), "Sets the board cards of the round reached.")
      .def(
          "legal_actions", [](const State& s) { return legal_actions(s.state); },
          "Legal actions of the player to act: a list of 'f', 'c', 'r'.")
      .def(
          "raise_range",
          [](const State& s) -> std::optional<std::pair<int, int>> {
            std::int32_t lo = 0, hi = 0;
            if (s.state.finished() || !s.state.can_raise(&lo, &hi)) return std::nullopt;
            return std::make_pair(lo, hi);
          },
          "(min, max) raise-to amounts, or None when no raise is legal.")
      .def(
          "is_legal",
          [](const State& s, const py::object& a) {
            return !s.state.finished() && s.state.is_legal(action_arg(a, *s.game));
          },
          py::arg("action"))
      .def(
          "apply",
          [](State& s, const py::object& a) -> State& {
            if (s.state.finished()) throw InputError("the hand is over");
            s.state.apply(action_arg(a, *s.game));
            return s;
          },
          py::arg("action"), py::return_value_policy::reference_internal,
          "Plays a legal action ('f', 'c', 'r'); returns the state.")
      .def(
          "child",
          [](const State& s, const py::object& a) {
            if (s.state.finished()) throw InputError("the hand is over");
            State c = s;
            c.state.apply(action_arg(a, *s.game));
            return c;
          },
          py::arg("action"), "A copy of the state after the action.")
      .def("copy", [](const State& s) { return s; })
      .def(
          "value",
          [](const State& s, int p) {
            check_position(s.state, p);
            if (!s.state.finished()) throw InputError("the hand is not over");
            return s.state.value(p);
          },
          py::arg("position"), "Chips won (or lost) by `position` at the end of the hand.")
      .def(
          "match_state",
          [](const State& s, const std::optional<int>& position) {
            const int p = position ? *position : s.viewer;
            if (p < 0) throw InputError("match_state() needs a position (the state has no viewer)");
            check_position(s.state, p);
            MatchState ms{p, view_of(s.state, p, s.game).state};
            return ms.to_string();
          },
          py::arg("position") = py::none(), "The ACPC match-state string a position sees.")
      .def("__repr__", [](const State& s) {
        return "<hulhe.State round " + std::to_string(s.state.round()) + " betting '" +
               s.state.betting_string() + "' board '" + board_text(s.state) + "'>";
      });
}

}  // namespace hulhe::python
