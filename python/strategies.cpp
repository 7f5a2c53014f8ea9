// Strategies: strategy files (full or compact) and every other policy as hulhe.Strategy; the
// action probabilities for a hand at an ACPC state, a seeded draw, the 13x13 grid of
// `hulhe show`.
#include <pybind11/numpy.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "agents/agent_factory.h"
#include "game/betting_tree.h"
#include "human_play/strategy_grid.h"
#include "python/bindings.h"
#include "util/input_error.h"
#include "util/split_mix64.h"

namespace hulhe::python {

PolicyHandle::PolicyHandle(std::shared_ptr<const Policy> p, std::string n)
    : policy(std::move(p)),
      game(std::make_shared<const GameDefinition>(policy->tree().game())),
      name(std::move(n)),
      file(std::dynamic_pointer_cast<const StrategyFile>(policy)),
      agent(std::make_shared<PolicyAgent>(policy, name)) {}

namespace {

PolicyHandle load_strategy(const std::filesystem::path& path) {
  auto file = std::make_shared<const StrategyFile>(StrategyFile::read(path.string()));
  PolicyHandle h(file, path.filename().string());
  h.path = path.string();
  return h;
}

// The state to query and the position to act there, with `hand` (if given) as its hole cards.
std::pair<State, int> query_state(const PolicyHandle& h, const py::object& spot,
                                  const py::object& hand) {
  State s = state_arg(spot, Game{h.game, ""});
  if (!(*s.game == *h.game))
    throw InputError("the state is of game " + s.game->name + ", the strategy " + h.name +
                     " plays " + h.game->name);
  if (s.state.finished()) throw InputError("the hand is over: nobody is to act");
  const int p = s.state.current_player();
  if (!hand.is_none()) {
    const std::vector<Card> c = cards_arg(hand);
    if (static_cast<int>(c.size()) != h.game->num_hole_cards)
      throw InputError("the game has " + std::to_string(h.game->num_hole_cards) +
                       " hole cards; hand gave " + std::to_string(c.size()));
    CardSet used = CardSet::of(c);
    const Card* b = s.state.board_cards();
    for (int i = 0; i < h.game->total_board_cards(s.state.round()); ++i)
      if (used.contains(b[i]))
        throw InputError("hand " + cards_to_string(c) + " shares a card with the board");
    s.state.set_hole_cards(p, c.data());
  } else if (s.viewer >= 0 && s.viewer != p) {
    throw InputError("it is position " + std::to_string(p) +
                     "'s turn; the match state is position " + std::to_string(s.viewer) +
                     "'s view (give hand= to ask for a hand there)");
  } else if (!s.state.has_hole_cards(p)) {
    throw InputError("position " + std::to_string(p) +
                     " to act has no hole cards in the state; give hand=");
  }
  return {std::move(s), p};
}

py::dict probabilities(PolicyHandle& h, const py::object& spot, const py::object& hand) {
  auto [s, p] = query_state(h, spot, hand);
  const ActionProbabilities a = *h.agent->action_probabilities(s.state, p);
  py::dict d;
  for (const std::string& act : legal_actions(s.state)) {
    const int kind = act == "f" ? 0 : act == "c" ? 1 : 2;
    d[py::str(act)] = a[static_cast<std::size_t>(kind)];
  }
  return d;
}

std::string sample(PolicyHandle& h, const py::object& spot, std::uint64_t seed,
                   const py::object& hand) {
  auto [s, p] = query_state(h, spot, hand);
  SplitMix64 rng(seed);
  return action_text(h.agent->act(s.state, p, rng), *h.game);
}

struct Grid {
  StrategyGrid grid;
  std::string strategy;
};

py::array_t<double> grid_probabilities(const Grid& g) {
  const std::size_t r = g.grid.ranks.size(), a = g.grid.actions.size();
  py::array_t<double> out({a, r, r});
  auto v = out.mutable_unchecked<3>();
  for (std::size_t row = 0; row < r; ++row)
    for (std::size_t col = 0; col < r; ++col) {
      const StrategyGridCell& c = g.grid.cell(row, col);
      for (std::size_t k = 0; k < a; ++k)
        v(k, row, col) =
            c.probabilities.empty() ? std::numeric_limits<double>::quiet_NaN() : c.probabilities[k];
    }
  return out;
}

}  // namespace

void bind_strategies(py::module_& m) {
  py::class_<PolicyHandle>(m, "Strategy",
                           "A strategy of a 2-player limit game: a strategy file (full or "
                           "compact), a solve's average strategy, a baseline or a Python policy.")
      .def(py::init(&load_strategy), py::arg("path"),
           "Reads a strategy file (`hulhe export`, full or --compact); InputError for a "
           "missing, foreign or corrupt file.")
      .def_static(
          "baseline",
          [](const std::string& name, const py::object& game) {
            PolicySource s = load_baseline_policy(name, *game_arg(game).def);
            return PolicyHandle(s.policy, name);
          },
          py::arg("name"), py::arg("game") = py::none(),
          "A baseline policy: 'uniform', 'always-call', 'always-raise', 'always-fold'.")
      .def_property_readonly("name", [](const PolicyHandle& h) { return h.name; })
      .def_property_readonly("game",
                             [](const PolicyHandle& h) {
                               return Game{h.game, ""};
                             })
      .def_property_readonly(
          "abstraction", [](const PolicyHandle& h) { return h.policy->abstraction().describe(); })
      .def_property_readonly(
          "buckets",
          [](const PolicyHandle& h) {
            std::vector<int> b;
            for (int r = 0; r < h.policy->abstraction().num_rounds(); ++r)
              b.push_back(h.policy->abstraction().num_buckets(r));
            return b;
          },
          "Buckets per round of its card abstraction.")
      .def_property_readonly(
          "bits",
          [](const PolicyHandle& h) -> std::optional<int> {
            if (!h.file) return std::nullopt;
            return h.file->bits();
          },
          "Bits per probability of a strategy file (None otherwise).")
      .def_property_readonly(
          "compact",
          [](const PolicyHandle& h) {
            return h.file && h.file->abstraction_descriptor().kind == "compact";
          },
          "Whether it is a compact strategy file (export --compact).")
      .def_property_readonly("algorithm",
                             [](const PolicyHandle& h) -> std::optional<std::string> {
                               if (!h.file) return std::nullopt;
                               return h.file->metadata().algorithm;
                             })
      .def_property_readonly("iterations",
                             [](const PolicyHandle& h) -> std::optional<std::int64_t> {
                               if (!h.file) return std::nullopt;
                               return h.file->metadata().iterations;
                             })
      .def("probabilities", &probabilities, py::arg("state"), py::arg("hand") = py::none(),
           "Action probabilities of the player to act: {'f': p, 'c': p, 'r': p} over the legal "
           "actions. `state`: an ACPC match-state string (the viewer must be to act; its hole "
           "cards are the hand) or a State; `hand` overrides the hole cards. A strategy file's "
           "are its quantised values, the ones it plays.")
      .def("sample", &sample, py::arg("state"), py::arg("seed") = 1, py::arg("hand") = py::none(),
           "An action ('f', 'c', 'r') drawn from probabilities(state, hand) with a generator "
           "seeded by `seed` (SplitMix64), as the strategy plays in matches.")
      .def(
          "grid",
          [](const PolicyHandle& h, const std::string& sequence, const py::object& board) {
            std::vector<Card> b = board.is_none() ? std::vector<Card>{} : cards_arg(board);
            return Grid{strategy_grid(*h.policy, sequence, b), h.name};
          },
          py::arg("sequence"), py::arg("board") = py::none(),
          "The hand grid of `hulhe show` at a betting position (ACPC betting string, '' for "
          "the first decision) with the round's board.")
      .def("__repr__", [](const PolicyHandle& h) {
        return "<hulhe.Strategy " + h.name + " of " + h.game->name + ">";
      });

  py::class_<Grid>(m, "Grid", "A strategy's hand grid at one betting position (hulhe show).")
      .def_property_readonly("sequence", [](const Grid& g) { return g.grid.sequence; })
      .def_property_readonly("round", [](const Grid& g) { return g.grid.round; })
      .def_property_readonly("player", [](const Grid& g) { return g.grid.player; })
      .def_property_readonly("board", [](const Grid& g) { return cards_to_string(g.grid.board); })
      .def_property_readonly(
          "actions",
          [](const Grid& g) {
            std::vector<std::string> a;
            for (char c : g.grid.actions) a.emplace_back(1, c);
            return a;
          },
          "The position's actions: 'f', 'c', 'r'.")
      .def_property_readonly("action_names", [](const Grid& g) { return g.grid.action_names; })
      .def_property_readonly(
          "ranks",
          [](const Grid& g) {
            std::string r;
            for (int k : g.grid.ranks) r += kRankChars[k];
            return r;
          },
          "Row and column ranks, high to low, e.g. 'AKQJT98765432'.")
      .def_property_readonly(
          "labels",
          [](const Grid& g) {
            std::vector<std::vector<std::string>> l(g.grid.ranks.size());
            for (std::size_t r = 0; r < g.grid.ranks.size(); ++r)
              for (std::size_t c = 0; c < g.grid.ranks.size(); ++c)
                l[r].push_back(g.grid.cell(r, c).label);
            return l;
          },
          "Class labels by row and column: 'AA', 'AKs' (above the diagonal), 'AKo' (below).")
      .def_property_readonly("probabilities", &grid_probabilities,
                             "Array (actions, ranks, ranks): each class's mean probability of "
                             "each action over its combinations off the board; NaN where all "
                             "touch the board.")
      .def(
          "combos",
          [](const Grid& g, std::size_t row, std::size_t col) {
            if (row >= g.grid.ranks.size() || col >= g.grid.ranks.size())
              throw InputError("row and column are below " + std::to_string(g.grid.ranks.size()));
            std::vector<std::pair<std::string, int>> out;
            for (const StrategyGridCombo& c : g.grid.cell(row, col).combos)
              out.emplace_back(cards_to_string({c.hole[0], c.hole[1]}), c.bucket);
            return out;
          },
          py::arg("row"), py::arg("col"), "A class's live combinations and their buckets.")
      .def(
          "text", [](const Grid& g) { return strategy_grid_text(g.grid); },
          "The grids as `hulhe show` prints them (after its first line).")
      .def(
          "svg",
          [](const Grid& g, const std::optional<std::string>& title) {
            return strategy_grid_svg(g.grid, title ? *title : g.strategy);
          },
          py::arg("title") = py::none(), "The grid as SVG (hulhe show --svg).");
}

}  // namespace hulhe::python
