// Re-solving from Python (docs/python.md, docs/re-solving.md): hulhe.resolve re-solves the
// subgame of one spot as the re-solving agent does (resolving/subgame_resolve.h) and hands back
// what the solve holds there: both ranges at the subgame's root, the gadget's values and excess,
// and the average strategy of every hand at the spot. best_response(resolve=...) measures the
// agent as `hulhe exploit --resolve` does (resolving/resolved_subgame_values.h); the agent spec
// resolve:FILE[:options] itself is registered by the module at import (module.cpp).
#include <fmt/format.h>
#include <pybind11/numpy.h>

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "python/bindings.h"
#include "resolving/resolved_subgame_values.h"
#include "resolving/resolving_agent.h"
#include "resolving/subgame_resolve.h"
#include "util/input_error.h"

namespace hulhe::python {

namespace {

bool resolvable(const GameDefinition& g) {
  return g.num_players == 2 && g.betting_type == BettingType::kLimit && g.num_hole_cards == 2;
}

}  // namespace

namespace {

// What hulhe.resolve returns: one re-solved subgame, read at the spot it was asked for. The
// solver itself is let go (a HULHE turn solve holds ~100 MiB); hands are the game's
// hole-card pairs in PrivateHands order (public_tree/private_hands.h).
struct ResolvedSpot {
  std::shared_ptr<const GameDefinition> game;
  int resolver = 0;
  int player = 0;  // to act at the spot
  int round = 0;
  std::string betting;
  std::vector<Card> board;
  std::string gadget;
  std::vector<std::string> actions;
  std::vector<std::array<Card, 2>> hands;
  std::array<std::vector<double>, 2> ranges;
  std::vector<double> terminate_values;
  std::vector<double> strategy;  // hands × actions, row-major
  double excess = 0.0;
  std::int64_t iterations = 0;
  double seconds = 0.0;
  std::int32_t own_hand = -1;  // the hand of the player to act, when the state holds it
};

std::int32_t find_hand(const ResolvedSpot& r, const std::vector<Card>& cards) {
  if (cards.size() != 2)
    throw InputError("a hand is 2 hole cards; got " + std::to_string(cards.size()));
  const CardSet want = CardSet::of(cards);
  for (std::size_t h = 0; h < r.hands.size(); ++h)
    if (CardSet::of(r.hands[h]) == want) return static_cast<std::int32_t>(h);
  throw InputError("hand " + cards_to_string(cards) + " is not a hand of game " + r.game->name);
}

// An option value spliced into the agent's option text: no separators inside.
std::string option_value(const std::string& key, const std::string& value) {
  if (value.find_first_of(":=") != std::string::npos)
    throw InputError("hulhe.resolve: " + key + "='" + value + "' is not a value");
  return key + "=" + value;
}

ResolvedSpot resolve(const PolicyHandle& h, const py::object& spot,
                     std::optional<std::int64_t> iterations, double seconds,
                     const std::string& gadget, const std::string& algorithm,
                     const std::string& precision, int threads) {
  const GameDefinition& game = *h.game;
  if (!resolvable(game))
    throw InputError(
        "hulhe.resolve: re-solving needs a 2-player limit hold'em game with 2 hole "
        "cards; strategy " +
        h.name + " plays " + game.name);
  // The options read as the agent reads resolve:FILE:options, with its checks and messages.
  std::string text = option_value("gadget", gadget) + ":" + option_value("algorithm", algorithm) +
                     ":" + option_value("precision", precision) +
                     ":threads=" + std::to_string(threads);
  if (seconds != 0.0) text += ":seconds=" + fmt::format("{}", seconds);
  if (iterations) text += ":iterations=" + std::to_string(*iterations);  // after seconds=
  const SubgameResolveOptions options =
      ResolvingAgentSpec::parse_options(text, "hulhe.resolve").options.resolve;

  State s = state_arg(spot, Game{h.game, ""});
  if (!(*s.game == game))
    throw InputError("the state is of game " + s.game->name + ", the strategy " + h.name +
                     " plays " + game.name);
  if (s.state.finished()) throw InputError("the hand is over: nobody is to act");
  const int round = s.state.round();
  if (round < 1)
    throw InputError(
        "hulhe.resolve: the state is in round 0 (the preflop); re-solving starts "
        "at a later round (1 to " +
        std::to_string(game.num_rounds - 1) + ")");
  const BettingTree& tree = h.policy->tree();
  const std::int32_t node = h.agent->find_node(s.state);
  const std::int32_t root = round_start(tree, node, round);

  ResolvedSpot r;
  r.game = h.game;
  r.player = s.state.current_player();
  r.resolver = s.viewer >= 0 ? s.viewer : r.player;
  r.round = round;
  r.betting = s.state.betting_string();
  r.board.assign(s.state.board_cards(), s.state.board_cards() + game.total_board_cards(round));
  r.gadget = options.gadget == ResolveGadget::kMaxMargin ? "maxmargin"
             : options.gadget == ResolveGadget::kSafe    ? "resolve"
                                                         : "unsafe";
  const BettingNode& n = tree.node(node);
  for (int slot = 0; slot < n.num_actions; ++slot)
    r.actions.push_back(action_text(BetAction{n.actions[slot], 0}, game));
  const CardSet board = CardSet::of(r.board);
  const int a = n.num_actions;
  {
    py::gil_scoped_release release;
    const auto start = std::chrono::steady_clock::now();
    SubgameResolve solve = resolve_subgame(tree, *h.policy, root, r.board, r.resolver, options);
    const RangeSolver& solver = *solve.solver;
    r.iterations = solve.iterations;
    r.excess = gadget_excess(solve);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const PrivateHands& hands = solver.hands();
    r.hands = hands.cards;
    for (int p = 0; p < 2; ++p) r.ranges[p] = solver.range(p);
    r.terminate_values = solve.terminate_values;
    const std::int32_t b = solver.boards().find(round, r.board);
    r.strategy.assign(static_cast<std::size_t>(hands.size()) * a, 0.0);
    for (std::int32_t hand = 0; hand < hands.size(); ++hand)
      if (!hands.masks[hand].intersects(board))
        solver.average_strategy(
            node, b, hand,
            std::span<double>(r.strategy.data() + static_cast<std::size_t>(hand) * a, a));
  }
  if (s.state.has_hole_cards(r.player)) {
    const Card* c = s.state.hole_cards(r.player);
    r.own_hand = find_hand(r, {c, c + 2});
  }
  return r;
}

py::array_t<double> array_of(const std::vector<double>& v, std::vector<py::ssize_t> shape) {
  py::array_t<double> out(shape);
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

std::int32_t hand_arg(const ResolvedSpot& r, const py::object& hand) {
  if (hand.is_none()) {
    if (r.own_hand < 0)
      throw InputError("the state holds no hole cards of position " + std::to_string(r.player) +
                       " to act; give hand=");
    return r.own_hand;
  }
  const std::int32_t h = find_hand(r, cards_arg(hand));
  if (CardSet::of(r.hands[h]).intersects(CardSet::of(r.board)))
    throw InputError("hand " + cards_to_string({r.hands[h][0], r.hands[h][1]}) +
                     " shares a card with the board");
  return h;
}

}  // namespace

void bind_resolving(py::module_& m) {
  py::class_<ResolvedSpot>(
      m, "ResolvedSpot",
      "A subgame re-solved by hulhe.resolve, read at its spot. Hand index h (rows of `ranges`, "
      "`strategy`, `terminate_values`) names the hole-card pair hands[h]: the pairs of the "
      "game's deck in card-id order, (c0, c1) with c0 < c1, lexicographic (HULHE: 2c2d, 2c2h, "
      "..., 2cAs, 2d2h, ..., AhAs; 1,326).")
      .def_property_readonly(
          "game",
          [](const ResolvedSpot& r) {
            return Game{r.game, ""};
          },
          "The blueprint's game.")
      .def_property_readonly(
          "resolver", [](const ResolvedSpot& r) { return r.resolver; },
          "The position re-solved for: the state's viewer (else the position to act).")
      .def_property_readonly(
          "player", [](const ResolvedSpot& r) { return r.player; },
          "The position to act at the spot (whose strategy `strategy` is).")
      .def_property_readonly(
          "round", [](const ResolvedSpot& r) { return r.round; },
          "The round re-solved: the spot's; the subgame starts where it starts.")
      .def_property_readonly(
          "betting", [](const ResolvedSpot& r) { return r.betting; },
          "The spot's ACPC betting string.")
      .def_property_readonly(
          "board", [](const ResolvedSpot& r) { return cards_to_string(r.board); },
          "The board at the spot.")
      .def_property_readonly(
          "gadget", [](const ResolvedSpot& r) { return r.gadget; },
          "'maxmargin', 'resolve' or 'unsafe'.")
      .def_property_readonly(
          "iterations", [](const ResolvedSpot& r) { return r.iterations; },
          "Iterations the solve ran.")
      .def_property_readonly(
          "seconds", [](const ResolvedSpot& r) { return r.seconds; },
          "Wall time of the re-solve (gadget values, iterations, excess).")
      .def_property_readonly(
          "actions", [](const ResolvedSpot& r) { return r.actions; },
          "The actions at the spot, the columns of `strategy` ('f', 'c', 'r').")
      .def_property_readonly(
          "hands",
          [](const ResolvedSpot& r) {
            std::vector<std::string> out;
            for (const auto& c : r.hands) out.push_back(cards_to_string({c[0], c[1]}));
            return out;
          },
          "The hole-card pairs by hand index, as text ('AhKh' order: lower card id first).")
      .def(
          "hand",
          [](const ResolvedSpot& r, const py::object& cards) {
            return find_hand(r, cards_arg(cards));
          },
          py::arg("cards"), "The hand index of two hole cards ('AhKh' or card ids).")
      .def_property_readonly(
          "ranges",
          [](const ResolvedSpot& r) {
            std::vector<double> v = r.ranges[0];
            v.insert(v.end(), r.ranges[1].begin(), r.ranges[1].end());
            return array_of(v, {2, static_cast<py::ssize_t>(r.hands.size())});
          },
          "Both positions' ranges at the subgame's root (the start of the spot's round): "
          "float64 array (2, hands), each hand's reach by the blueprint over the trunk, 0 for "
          "hands that touch the board.")
      .def_property_readonly(
          "terminate_values",
          [](const ResolvedSpot& r) {
            return array_of(r.terminate_values,
                            {static_cast<py::ssize_t>(r.terminate_values.size())});
          },
          "The gadget's T(o) per hand o of the re-solver's opponent: its counterfactual "
          "best-response value against the blueprint in the subgame (chips). Empty for "
          "gadget='unsafe'.")
      .def_property_readonly(
          "excess", [](const ResolvedSpot& r) { return r.excess; },
          "gadget_excess: the sum over the opponent's hands of max(0, cbv'(o) - T(o)), how much "
          "more they get against the re-solve than against the blueprint (counterfactual "
          "chips; 0 for unsafe).")
      .def_property_readonly(
          "strategy",
          [](const ResolvedSpot& r) {
            return array_of(r.strategy, {static_cast<py::ssize_t>(r.hands.size()),
                                         static_cast<py::ssize_t>(r.actions.size())});
          },
          "The re-solved average strategy of the position to act at the spot: float64 array "
          "(hands, actions), columns in `actions` order; rows of hands that touch the board "
          "are 0, hands its range never brings here are uniform.")
      .def(
          "probabilities",
          [](const ResolvedSpot& r, const py::object& hand) {
            const std::int32_t h = hand_arg(r, hand);
            py::dict d;
            for (std::size_t k = 0; k < r.actions.size(); ++k)
              d[py::str(r.actions[k])] = r.strategy[h * r.actions.size() + k];
            return d;
          },
          py::arg("hand") = py::none(),
          "One hand's row of `strategy` as {action: probability}; default the hole cards of "
          "the position to act in the state (a match state's own hand).")
      .def("__repr__", [](const ResolvedSpot& r) {
        return fmt::format("<hulhe.ResolvedSpot {} round {} '{}' {} · {} {} iterations>",
                           r.game->name, r.round, r.betting, cards_to_string(r.board), r.gadget,
                           r.iterations);
      });

  m.def("resolve", &resolve, py::arg("strategy"), py::arg("state"), py::kw_only(),
        py::arg("iterations") = py::none(), py::arg("seconds") = 0.0,
        py::arg("gadget") = "maxmargin", py::arg("algorithm") = "dcfr",
        py::arg("precision") = "single", py::arg("threads") = 1,
        "Re-solves the subgame of a spot as the agent resolve:FILE re-solves it "
        "(docs/re-solving.md): the subgame starts where the state's round starts (round 1 or "
        "later), with the board so far and both ranges from the blueprint's reach over the "
        "trunk; the re-solver is the state's viewer (a match state's position; else the "
        "position to act). Options as the agent's (iterations=N, default 200; seconds=S a "
        "time budget; gadget 'maxmargin', 'resolve' or 'unsafe'; algorithm 'dcfr' or 'cfr+'; "
        "precision 'single' or 'double'; threads). Returns a hulhe.ResolvedSpot: ranges, "
        "terminate_values, excess, iterations, actions and the strategy of every hand at the "
        "spot. Releases the GIL; the solve runs to its end (no Ctrl-C).");
}

}  // namespace hulhe::python
