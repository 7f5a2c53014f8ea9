#pragma once
// What the files of the Python module share: the handles that keep a game alive under its
// states, card arguments, actions as text, and the GIL and Ctrl-C rules of long calls.
//
// Long calls release the GIL and, at their progress points, take it back to run Python's
// signal handlers (PyErr_CheckSignals): a KeyboardInterrupt (or an exception raised by a
// Python callback) ends the call and is raised to the caller. Nothing crosses an OpenMP region
// as an exception: callbacks run from worker threads record the error and ask the work to stop.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "game/card.h"
#include "game/game_definition.h"
#include "game/game_state.h"

namespace hulhe::python {

namespace py = pybind11;

// A game definition shared by every state, strategy and agent made from it; `path` is the
// file it was read from (empty for the built-in HULHE or text).
struct Game {
  std::shared_ptr<const GameDefinition> def;
  std::string path;
};
Game builtin_holdem();
// A Game argument: a Game, a path to a .game file, or None (HULHE).
Game game_arg(const py::object& o);

// A state of one hand seen by `viewer` (-1: every hole card given is known).
struct State {
  std::shared_ptr<const GameDefinition> game;
  GameState state;
  int viewer = -1;
  State(std::shared_ptr<const GameDefinition> g) : game(std::move(g)), state(*game) {}
};
// A copy of `s` over `game` (an equal definition that outlives it), as `viewer` sees it: the
// betting, the board and only the viewer's hole cards.
State view_of(const GameState& s, int viewer, std::shared_ptr<const GameDefinition> game);
// A State argument: a State, or an ACPC match-state string of `game`.
State state_arg(const py::object& o, const Game& game);

// Cards: a string "AhKh" or a sequence of card ids (0..51, rank * 4 + suit).
std::vector<Card> cards_arg(const py::handle& o);
// An action: 'f', 'c', 'r' (or fold, call, check, raise, bet; 'r<N>' in no-limit games).
BetAction action_arg(const py::handle& o, const GameDefinition& game);
std::string action_text(BetAction a, const GameDefinition& game);
// The legal actions of the player to act, as text: 'f', 'c', 'r'.
std::vector<std::string> legal_actions(const GameState& s);

// Work that runs without the GIL and is stopped by a Python error: the first error raised by
// a callback or the signal check is kept here, and `stopped()` turns true.
class Interrupt {
 public:
  // Takes the GIL, runs Python's signal handlers; on KeyboardInterrupt (or any error they
  // raise) records it and returns true. Any thread.
  bool check();
  // Runs `f` with the GIL held, recording a Python error it raises. Any thread.
  template <typename F>
  bool call(F&& f) {
    if (stopped()) return true;
    py::gil_scoped_acquire gil;
    try {
      f();
    } catch (py::error_already_set& e) {
      keep(e);
    }
    return stopped();
  }
  bool stopped() const;
  // With the GIL held: raises the recorded error, if any.
  void raise_if_stopped();

 private:
  void keep(py::error_already_set& e);
  mutable std::mutex mutex_;
  std::optional<py::error_already_set> error_;
};

void bind_cards(py::module_& m);
void bind_equity(py::module_& m);
void bind_games(py::module_& m);
void bind_strategies(py::module_& m);
void bind_agents(py::module_& m);
void bind_solving(py::module_& m);
void bind_resolving(py::module_& m);

}  // namespace hulhe::python

#include "abstraction/policy.h"
#include "agents/policy_agent.h"
#include "strategy_files/strategy_file.h"

namespace hulhe {
class SubgameValueSource;  // best_response/holdem/subgame_values.h
}  // namespace hulhe

namespace hulhe::python {

// Any policy of a 2-player limit game (a strategy file, a solve's average strategy, a
// baseline, a Python function's table), with everything it refers to kept alive by `policy`.
// Python's hulhe.Strategy.
struct PolicyHandle {
  std::shared_ptr<const Policy> policy;
  std::shared_ptr<const GameDefinition> game;
  std::string name;
  std::shared_ptr<const StrategyFile> file;  // null unless read from a strategy file
  std::shared_ptr<PolicyAgent> agent;        // for queries (keeps the last bucket)
  std::string path;  // the file it was read from ("" for others): an output may not be it
  PolicyHandle(std::shared_ptr<const Policy> p, std::string n);
};

}  // namespace hulhe::python
