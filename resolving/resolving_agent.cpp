#include "resolving/resolving_agent.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <vector>

#include "util/input_error.h"

namespace hulhe {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// `what`: how messages name the options ("agent 'resolve:a:x=1'", "--resolve x=1").
template <typename T>
T number(const std::string& what, const std::string& key, const std::string& text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw InputError(what + ": " + key + "=" + text + " is not a number");
  return value;
}

// One of a few named values: `names` and `values` aligned; messages list the names.
template <typename T, std::size_t N>
T one_of(const std::string& what, const std::string& key, const std::string& text,
         const std::array<const char*, N>& names, const std::array<T, N>& values) {
  for (std::size_t i = 0; i < N; ++i)
    if (text == names[i]) return values[i];
  std::string list;
  for (std::size_t i = 0; i < N; ++i) list += (i ? " or " : "") + std::string(names[i]);
  throw InputError(what + ": " + key + "=" + text + " (" + list + ")");
}

}  // namespace

ResolvingAgentSpec ResolvingAgentSpec::parse(const std::string& spec) {
  if (!spec.starts_with("resolve:"))
    throw InputError("agent '" + spec + "' is not resolve:FILE[:options]");
  const std::size_t colon = spec.find(':', 8);
  const std::string path =
      spec.substr(8, colon == std::string::npos ? std::string::npos : colon - 8);
  if (path.empty()) throw InputError("agent '" + spec + "': resolve: needs a strategy file");
  ResolvingAgentSpec s = colon == std::string::npos
                             ? ResolvingAgentSpec{}
                             : parse_options(spec.substr(colon + 1), "agent '" + spec + "'");
  s.path = path;
  return s;
}

ResolvingAgentSpec ResolvingAgentSpec::parse_options(const std::string& options,
                                                     const std::string& what) {
  const std::vector<std::string> parts = split(options, ':');
  ResolvingAgentSpec s;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::size_t eq = parts[i].find('=');
    if (eq == std::string::npos)
      throw InputError(what + ": option '" + parts[i] + "' is not key=value");
    const std::string key = parts[i].substr(0, eq), value = parts[i].substr(eq + 1);
    SubgameResolveOptions& r = s.options.resolve;
    if (key == "street") {
      if (value != "turn" && value != "river")
        throw InputError(what + ": street=" + value + " (turn or river)");
      s.street = value;
    } else if (key == "round") {
      s.round = number<int>(what, key, value);
      if (s.round < 1) throw InputError(what + ": round=" + value + " (1 or more)");
    } else if (key == "iterations") {
      r.iterations = number<std::int64_t>(what, key, value);
      if (r.iterations < 1) throw InputError(what + ": iterations=" + value + " (1 or more)");
    } else if (key == "seconds") {
      r.seconds = number<double>(what, key, value);
      if (!(r.seconds > 0) || r.seconds > 3600)
        throw InputError(what + ": seconds=" + value + " (above 0, at most 3600)");
      if (r.iterations == SubgameResolveOptions{}.iterations) r.iterations = 1'000'000'000;
    } else if (key == "threads") {
      r.solver.threads = number<int>(what, key, value);
      if (r.solver.threads < 1 || r.solver.threads > 256)
        throw InputError(what + ": threads=" + value + " (1 to 256)");
    } else if (key == "algorithm") {
      using A = RangeSolverOptions::Algorithm;
      r.solver.algorithm =
          one_of<A, 2>(what, key, value, {"dcfr", "cfr+"}, {A::kDcfr, A::kCfrPlus});
    } else if (key == "precision") {
      using P = RangeSolverOptions::Precision;
      r.solver.precision =
          one_of<P, 2>(what, key, value, {"single", "double"}, {P::kSingle, P::kDouble});
    } else if (key == "gadget") {
      try {
        r.gadget = parse_resolve_gadget(value);
      } catch (const InputError& e) {
        throw InputError(what + ": " + e.what());
      }
    } else if (key == "nested") {
      if (value != "0" && value != "1") throw InputError(what + ": nested=" + value + " (0 or 1)");
      s.options.nested = value == "1";
    } else {
      throw InputError(
          what + ": unknown option '" + key +
          "' (street, round, iterations, seconds, threads, algorithm, precision, gadget, nested)");
    }
  }
  return s;
}

int ResolvingAgentSpec::first_round(const GameDefinition& game) const {
  const int r = round >= 0          ? round
                : street == "river" ? game.num_rounds - 1
                                    : std::max(1, game.num_rounds - 2);
  if (r >= game.num_rounds)
    throw InputError("the game has " + std::to_string(game.num_rounds) + " rounds, so round " +
                     std::to_string(r) + " cannot be re-solved");
  return r;
}

ResolvingAgent::ResolvingAgent(std::shared_ptr<const Policy> blueprint,
                               std::shared_ptr<const BettingTree> tree,
                               ResolvingAgentOptions options, std::string name)
    : blueprint_(std::move(blueprint)),
      tree_(std::move(tree)),
      options_(options),
      name_(std::move(name)),
      trunk_(blueprint_, name_) {
  // The agent plays only its own average; nested solves read both (their ranges).
  options_.resolve.opponent_average = options_.nested;
  const int rounds = tree_->game().num_rounds;
  first_round_ = options_.first_round >= 0 ? options_.first_round : std::max(1, rounds - 2);
  if (first_round_ < 1 || first_round_ >= rounds)
    throw InputError("agent '" + name_ + "': the game has no round " +
                     std::to_string(first_round_) + " to re-solve from");
}

const RangeSolver& ResolvingAgent::solve_for(const GameState& state, int position,
                                             std::int32_t node) {
  const GameDefinition& game = tree_->game();
  const std::int32_t root = round_start(*tree_, node, first_round_);
  const int root_cards = game.total_board_cards(first_round_);
  const CardSet root_board = CardSet::of(std::span<const Card>(state.board_cards(), root_cards));
  if (!resolve_ || root != resolved_root_ || position != resolved_position_ ||
      root_board.mask() != resolved_board_) {
    resolve_.reset();
    nested_.reset();
    resolve_.emplace(resolve_subgame(*tree_, *blueprint_, root,
                                     std::span<const Card>(state.board_cards(), root_cards),
                                     position, options_.resolve));
    resolved_root_ = root;
    resolved_position_ = position;
    resolved_board_ = root_board.mask();
    ++solves_;
  }
  const int round = state.round();
  if (!options_.nested || round == first_round_) return *resolve_->solver;
  const std::int32_t inner = round_start(*tree_, node, round);
  const int cards = game.total_board_cards(round);
  const CardSet board = CardSet::of(std::span<const Card>(state.board_cards(), cards));
  if (!nested_ || inner != nested_root_ || board.mask() != nested_board_) {
    nested_.reset();
    nested_.emplace(resolve_subgame(*resolve_->solver, inner,
                                    std::span<const Card>(state.board_cards(), cards), position,
                                    options_.resolve));
    nested_root_ = inner;
    nested_board_ = board.mask();
    ++solves_;
  }
  return *nested_->solver;
}

bool ResolvingAgent::resolved_probabilities(const GameState& state, int position, std::int32_t node,
                                            double* out) {
  const int round = state.round();
  if (round < first_round_) return false;
  const RangeSolver& s = solve_for(state, position, node);
  const std::int32_t board = s.boards().find(
      round, std::span<const Card>(state.board_cards(), tree_->game().total_board_cards(round)));
  const CardSet hole = CardSet::of(std::span<const Card>(state.hole_cards(position), 2));
  std::int32_t hand = 0;
  while (hand < s.hands().size() && s.hands().masks[hand] != hole) ++hand;
  if (board < 0 || hand == s.hands().size())
    throw std::logic_error("re-solving agent: the state's cards are not in its subgame");
  s.average_strategy(node, board, hand, std::span<double>(out, tree_->node(node).num_actions));
  return true;
}

BetAction ResolvingAgent::act(const GameState& state, int position, SplitMix64& rng) {
  if (state.round() < first_round_) return trunk_.act(state, position, rng);
  const std::int32_t node = trunk_.find_node(state);
  const BettingNode& n = tree_->node(node);
  if (n.kind != NodeKind::kDecision || n.player != position)
    throw std::logic_error("re-solving agent asked to act for position " +
                           std::to_string(position) + " at betting '" + state.betting_string() +
                           "'");
  double p[kNumActionKinds];
  resolved_probabilities(state, position, node, p);
  return {n.actions[sample_slot(p, n.num_actions, rng)], 0};
}

std::optional<ActionProbabilities> ResolvingAgent::action_probabilities(const GameState& state,
                                                                        int position) {
  if (state.round() < first_round_) return trunk_.action_probabilities(state, position);
  const std::int32_t node = trunk_.find_node(state);
  const BettingNode& n = tree_->node(node);
  double p[kNumActionKinds];
  resolved_probabilities(state, position, node, p);
  ActionProbabilities by_kind{};
  for (int slot = 0; slot < n.num_actions; ++slot)
    by_kind[static_cast<int>(n.actions[slot])] = p[slot];
  return by_kind;
}

}  // namespace hulhe
