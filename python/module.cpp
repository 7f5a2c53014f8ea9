// The Python module `hulhe` (docs/python.md): one PYBIND11_MODULE, each concern bound in its
// own file (python/bindings.h); here the error type and the interrupt rule shared by all.
#include <Python.h>

#include "python/bindings.h"
#include "resolving/resolve_agent_scheme.h"
#include "util/input_error.h"

namespace hulhe::python {

bool Interrupt::check() {
  if (stopped()) return true;
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) {
    py::error_already_set e;
    keep(e);
  }
  return stopped();
}

bool Interrupt::stopped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_.has_value();
}

void Interrupt::keep(py::error_already_set& e) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!error_) error_.emplace(std::move(e));
}

void Interrupt::raise_if_stopped() {
  std::optional<py::error_already_set> e;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    e.swap(error_);
  }
  if (e) throw std::move(*e);
}

}  // namespace hulhe::python

PYBIND11_MODULE(hulhe, m) {
  using namespace hulhe::python;
  m.doc() =
      "hulhe: near-equilibrium strategies for heads-up limit Texas hold'em, from Python.\n\n"
      "Cards and hand ranks, equity, ACPC games and states, strategy files and their\n"
      "probabilities, agents and matches, solving the small games and measuring strategies by\n"
      "best response. Examples: docs/python.md.";
  m.attr("__version__") = "0.1.0";
  // hulhe's InputError (bad cards, files, specs, states...): a ValueError carrying the message
  // the hulhe command prints after "hulhe: error: ".
  auto& input_error = py::register_exception<hulhe::InputError>(m, "InputError", PyExc_ValueError);
  input_error.attr("__doc__") =
      "Bad input (a card, range, .game file, strategy file, agent spec, ACPC state...): a "
      "ValueError with the message the hulhe command prints after 'hulhe: error: '.";
  bind_cards(m);
  bind_equity(m);
  bind_games(m);
  bind_strategies(m);
  bind_agents(m);
  bind_solving(m);
  bind_resolving(m);
  // Agent specs resolve:FILE[:options] for Agent and match, as the hulhe command has them.
  hulhe::register_resolving_agent();
}
