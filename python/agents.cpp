// Agents and matches: any agent spec hulhe accepts as hulhe.Agent, a Python object with
// act(state) (or a callable) as an agent, and match(a, b, ...) with its interval and ACPC log.
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "agents/agent_factory.h"
#include "agents/match.h"
#include "python/bindings.h"
#include "util/input_error.h"
#include "util/progress.h"

namespace hulhe::python {
namespace {

// A Python object kept by C++ code that may let go of it without the GIL (agents are made
// and destroyed inside play_match): the reference is dropped with the GIL taken.
struct PyRef {
  py::object object;
  explicit PyRef(py::object o) : object(std::move(o)) {}
  ~PyRef() {
    py::gil_scoped_acquire gil;
    object = py::object();
  }
};

// A Python agent: `act(state) -> action` on an object, or the object itself called. Its
// optional new_hand() is called before each hand. Runs with the GIL taken; a Python error
// (KeyboardInterrupt included, from the signal check before each decision) ends the match.
class PythonAgent final : public Agent {
 public:
  PythonAgent(std::shared_ptr<PyRef> ref, std::shared_ptr<const GameDefinition> game,
              std::string name)
      : ref_(std::move(ref)), game_(std::move(game)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  void new_hand() override {
    py::gil_scoped_acquire gil;
    if (py::hasattr(ref_->object, "new_hand")) ref_->object.attr("new_hand")();
  }
  BetAction act(const GameState& state, int position, SplitMix64&) override {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    State view = view_of(state, position, game_);
    const py::object& o = ref_->object;
    py::object a = py::hasattr(o, "act") ? o.attr("act")(view) : o(view);
    try {
      return action_arg(a, state.game());
    } catch (const InputError& e) {
      throw InputError("agent " + name_ + " returned " + std::string(py::repr(a)) +
                       " at betting '" + state.betting_string() + "': " + e.what());
    }
  }

 private:
  std::shared_ptr<PyRef> ref_;
  std::shared_ptr<const GameDefinition> game_;
  std::string name_;
};

// hulhe.Agent: an AgentSource (loaded once, copies made per thread and seat), with one copy of
// its own for act() and probabilities() from Python. That copy decides without the GIL (a
// re-solving agent's turn takes seconds), one call at a time.
struct AgentHandle {
  std::shared_ptr<AgentSource> source;
  std::shared_ptr<Agent> agent;
  std::shared_ptr<std::mutex> busy = std::make_shared<std::mutex>();
};

AgentHandle make_agent_handle(AgentSource s) {
  AgentHandle h{std::make_shared<AgentSource>(std::move(s)), nullptr};
  h.agent = std::shared_ptr<Agent>(h.source->make());
  return h;
}

// The state an agent is asked about (of its game) and the position to act there, which must
// hold its hole cards.
std::pair<State, int> agent_query_state(const AgentHandle& h, const py::object& spot) {
  State s = state_arg(spot, Game{std::make_shared<const GameDefinition>(h.source->game), ""});
  if (s.state.finished()) throw InputError("the hand is over: nobody is to act");
  const int p = s.state.current_player();
  if (!s.state.has_hole_cards(p))
    throw InputError("position " + std::to_string(p) + " to act has no hole cards in the state");
  return {std::move(s), p};
}

AgentSource policy_source(const PolicyHandle& p) {
  AgentSource s;
  s.spec = p.name;
  s.name = p.name;
  s.game = *p.game;
  s.policy = p.policy;
  auto policy = p.policy;
  auto name = p.name;
  s.make = [policy, name] { return std::make_unique<PolicyAgent>(policy, name); };
  return s;
}

// The game an agent argument plays, if it has one of its own (a strategy).
std::optional<GameDefinition> own_game(const py::handle& o) {
  if (py::isinstance<PolicyHandle>(o)) return *o.cast<const PolicyHandle&>().game;
  if (py::isinstance<AgentHandle>(o)) {
    // A strategy file or a re-solving agent plays its blueprint's game; a bot the one asked.
    const AgentHandle& h = o.cast<const AgentHandle&>();
    if (h.source->policy || h.source->spec.rfind("resolve:", 0) == 0) return h.source->game;
  }
  if (py::isinstance<py::str>(o) || py::hasattr(o, "__fspath__")) {
    const std::string spec = py::str(o).cast<std::string>();
    if (spec.rfind("bot:", 0) != 0) return load_agent(spec, std::optional<GameDefinition>{}).game;
  }
  return std::nullopt;
}

std::string python_agent_name(const py::handle& o) {
  if (py::hasattr(o, "name") && py::isinstance<py::str>(o.attr("name")))
    return o.attr("name").cast<std::string>();
  if (py::hasattr(o, "__name__")) return o.attr("__name__").cast<std::string>();
  return py::type::of(o).attr("__name__").cast<std::string>();
}

// An agent argument of a match in `game`: hulhe.Agent, hulhe.Strategy, an agent spec string,
// or a Python agent (an object with act(state), or a callable).
AgentSource agent_arg(const py::object& o, const Game& game, bool& python) {
  if (py::isinstance<AgentHandle>(o)) {
    const AgentHandle& h = o.cast<const AgentHandle&>();
    if (!(h.source->game == *game.def))
      throw InputError("agent " + h.source->name + " plays " + h.source->game.name + ", not " +
                       game.def->name);
    return *h.source;
  }
  if (py::isinstance<PolicyHandle>(o)) {
    const PolicyHandle& p = o.cast<const PolicyHandle&>();
    if (!(*p.game == *game.def))
      throw InputError("strategy " + p.name + " plays " + p.game->name + ", not " + game.def->name);
    return policy_source(p);
  }
  if (py::isinstance<py::str>(o) || py::hasattr(o, "__fspath__"))
    return load_agent(py::str(o).cast<std::string>(), *game.def);
  if (!py::hasattr(o, "act") && !PyCallable_Check(o.ptr()))
    throw InputError(
        "an agent is a hulhe.Agent, a hulhe.Strategy, an agent spec ('bot:equity', "
        "a strategy file), an object with act(state) or a callable; got " +
        std::string(py::repr(o)));
  python = true;
  AgentSource s;
  s.name = python_agent_name(o);
  s.spec = s.name;
  s.game = *game.def;
  auto ref = std::make_shared<PyRef>(o);
  auto g = game.def;
  auto name = s.name;
  s.make = [ref, g, name] { return std::make_unique<PythonAgent>(ref, g, name); };
  return s;
}

py::dict match(const py::object& a, const py::object& b, std::int64_t hands, std::uint64_t seed,
               bool duplicate, const py::object& game_o, int threads, bool log,
               const py::object& progress) {
  Game game;
  if (!game_o.is_none()) {
    game = game_arg(game_o);
  } else if (auto g = own_game(a); g) {
    game = {std::make_shared<const GameDefinition>(*g), ""};
  } else if (auto g2 = own_game(b); g2) {
    game = {std::make_shared<const GameDefinition>(*g2), ""};
  } else {
    game = builtin_holdem();
  }
  bool python = false;
  AgentSource sa = agent_arg(a, game, python);
  AgentSource sb = agent_arg(b, game, python);
  if (threads < 1) throw InputError("threads must be 1 or more");
  MatchConfig config;
  config.hands = hands;
  config.duplicate = duplicate;
  config.seed = seed;
  // Python agents take the GIL at every decision: more threads would only wait for it.
  config.threads = python ? 1 : threads;
  std::ostringstream log_text;
  if (log) config.log = &log_text;
  Interrupt interrupt;
  config.on_progress = [&](const Progress& p) {
    if (!progress.is_none()) interrupt.call([&] { progress(p.done, p.total, p.elapsed_seconds); });
    if (interrupt.check()) throw InputError("interrupted");
  };
  MatchResult r;
  try {
    py::gil_scoped_release release;
    r = play_match(*game.def, sa, sb, config);
  } catch (const InputError&) {
    interrupt.raise_if_stopped();
    throw;
  }
  interrupt.raise_if_stopped();
  py::dict d;
  d["a"] = r.a;
  d["b"] = r.b;
  d["game"] = game.def->name;
  d["hands"] = r.hands;
  d["samples"] = r.samples;
  d["duplicate"] = duplicate;
  d["total_chips"] = r.total_chips;
  d["chips_per_hand"] = r.chips_per_hand;
  d["ci95_chips"] = r.ci95_chips;
  d["mbb_per_game"] = r.mbb_per_game;
  d["ci95_mbb"] = r.ci95_mbb;
  d["illegal_actions"] = r.illegal_actions;
  d["seconds"] = r.seconds;
  d["log"] = log ? py::object(py::str(log_text.str())) : py::object(py::none());
  return d;
}

}  // namespace

void bind_agents(py::module_& m) {
  py::class_<AgentHandle>(m, "Agent",
                          "An agent hulhe plays: a strategy file, a bot "
                          "(bot:always-fold|always-call|always-raise|uniform|equity|function|"
                          "rules, with an optional :params.toml) or the re-solving agent "
                          "resolve:FILE[:options] (docs/re-solving.md).")
      .def(py::init([](const std::string& spec, const py::object& game) {
             std::optional<GameDefinition> g;
             if (!game.is_none()) g = *game_arg(game).def;
             return make_agent_handle(load_agent(spec, g));
           }),
           py::arg("spec"), py::arg("game") = py::none(),
           "Loads an agent spec as `hulhe match` does: 'bot:equity', 'bot:rules:r.toml', "
           "'leduc.strategy', 'resolve:toy.strategy:street=river:iterations=50'. A bot plays "
           "`game` (default HULHE), a strategy file and a re-solving agent their file's game.")
      .def_property_readonly("name", [](const AgentHandle& h) { return h.source->name; })
      .def_property_readonly("spec", [](const AgentHandle& h) { return h.source->spec; })
      .def_property_readonly(
          "game",
          [](const AgentHandle& h) {
            return Game{std::make_shared<const GameDefinition>(h.source->game), ""};
          })
      .def(
          "act",
          [](AgentHandle& h, const py::object& spot, std::uint64_t seed) {
            auto [s, p] = agent_query_state(h, spot);
            BetAction a;
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(*h.busy);
              h.agent->new_hand();
              SplitMix64 rng(seed);
              a = h.agent->act(s.state, p, rng);
            }
            return action_text(a, *s.game);
          },
          py::arg("state"), py::arg("seed") = 1,
          "The agent's action ('f', 'c', 'r') for the player to act, its random choices drawn "
          "from a generator seeded by `seed`.")
      .def(
          "probabilities",
          [](AgentHandle& h, const py::object& spot) -> std::optional<py::dict> {
            auto [s, p] = agent_query_state(h, spot);
            std::optional<ActionProbabilities> a;
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(*h.busy);
              a = h.agent->action_probabilities(s.state, p);
            }
            if (!a) return std::nullopt;
            py::dict d;
            for (const std::string& act : legal_actions(s.state))
              d[py::str(act)] = (*a)[act == "f" ? 0 : act == "c" ? 1 : 2];
            return d;
          },
          py::arg("state"),
          "Its action probabilities, or None for bots that decide by a sampled equity.")
      .def("__repr__", [](const AgentHandle& h) { return "<hulhe.Agent " + h.source->spec + ">"; });

  m.def("bots", &bot_names, "The bot names of bot:NAME specs.");
  m.def("match", &match, py::arg("a"), py::arg("b"), py::kw_only(), py::arg("hands") = 1000,
        py::arg("seed") = 1, py::arg("duplicate") = false, py::arg("game") = py::none(),
        py::arg("threads") = 1, py::arg("log") = false, py::arg("progress") = py::none(),
        "A match of A against B (hulhe match): A's result per hand with its 95% interval.\n\n"
        "a, b: hulhe.Agent, hulhe.Strategy, an agent spec ('bot:equity', 'x.strategy'), an "
        "object with act(state) -> 'f'|'c'|'r' (and optionally new_hand()) or a callable "
        "state -> action. The state an agent sees is its own view (its hole cards only).\n"
        "duplicate: each deal played in both seatings (luck cancels). game: default the "
        "strategy's, else HULHE. log: include the ACPC dealer log. progress(done, total, "
        "seconds): called after each block of hands. Python agents play on one thread.\n"
        "Returns a dict: a, b, game, hands, samples, duplicate, total_chips, chips_per_hand, "
        "ci95_chips, mbb_per_game, ci95_mbb, illegal_actions (played as calls), seconds, log.\n"
        "Releases the GIL; Ctrl-C raises KeyboardInterrupt.");
}

}  // namespace hulhe::python
