#include "strategies/play_agents.h"

#include <filesystem>

#include "util/input_error.h"

namespace hulhe {
namespace {

enum class BotKind { kAlwaysFold, kAlwaysCall, kAlwaysRaise, kUniform };

class PlayBot final : public Agent {
 public:
  PlayBot(BotKind kind, std::string name) : kind_(kind), name_(std::move(name)) {}
  std::string name() const override { return name_; }

  BetAction act(const GameState& state, int /*position*/, SplitMix64& rng) override {
    std::int32_t min_to = 0, max_to = 0;
    const bool can_raise = state.can_raise(&min_to, &max_to);
    const bool no_limit = state.game().betting_type == BettingType::kNoLimit;
    auto raise = [&](std::int32_t to) { return BetAction{Action::kRaise, no_limit ? to : 0}; };
    switch (kind_) {
      case BotKind::kAlwaysFold:
        return {state.can_fold() ? Action::kFold : Action::kCall, 0};
      case BotKind::kAlwaysCall:
        return {Action::kCall, 0};
      case BotKind::kAlwaysRaise:
        return can_raise ? raise(min_to) : BetAction{Action::kCall, 0};
      case BotKind::kUniform: {
        Action legal[3];
        int n = 0;
        if (state.can_fold()) legal[n++] = Action::kFold;
        legal[n++] = Action::kCall;
        if (can_raise) legal[n++] = Action::kRaise;
        const Action a = legal[rng.below(static_cast<std::uint32_t>(n))];
        if (a != Action::kRaise) return {a, 0};
        return raise(min_to + static_cast<std::int32_t>(
                                  rng.below(static_cast<std::uint32_t>(max_to - min_to + 1))));
      }
    }
    return {Action::kCall, 0};
  }

 private:
  BotKind kind_;
  std::string name_;
};

}  // namespace

std::int32_t find_decision_node(const BettingTree& tree, const GameState& state) {
  std::int32_t node = tree.root();
  for (int r = 0; r <= state.round(); ++r)
    for (int i = 0; i < state.num_actions(r); ++i) {
      const BettingNode& n = tree.node(node);
      if (n.kind != NodeKind::kDecision) return -1;
      const Action want = state.action(r, i).type;
      int slot = 0;
      while (slot < n.num_actions && n.actions[slot] != want) ++slot;
      if (slot == n.num_actions) return -1;
      node = n.child[slot];
    }
  const BettingNode& n = tree.node(node);
  return n.kind == NodeKind::kDecision && n.round == state.round() ? node : -1;
}

StrategyFileAgent::StrategyFileAgent(std::shared_ptr<const StrategyFile> file, std::string name)
    : file_(std::move(file)), name_(std::move(name)) {}

StrategyFileAgent::InfoSet StrategyFileAgent::information_set(const GameState& state,
                                                              int position) {
  const BettingTree& tree = file_->tree();
  const std::int32_t node = find_decision_node(tree, state);
  if (node < 0)
    throw InputError("betting '" + state.betting_string() + "' is not in the game of " +
                     file_->path());
  const int round = state.round();
  if (round != cached_round_) {
    cached_bucket_ =
        file_->abstraction().bucket(round, state.hole_cards(position), state.board_cards());
    cached_round_ = round;
  }
  return {round, tree.node(node).id_in_round, cached_bucket_};
}

BetAction StrategyFileAgent::act(const GameState& state, int position, SplitMix64& rng) {
  const InfoSet s = information_set(state, position);
  const int slot = file_->sample_action(s.round, s.node, s.bucket, rng);
  const BettingNode& n = file_->tree().node(file_->tree().decision_node(s.round, s.node));
  return {n.actions[slot], 0};
}

const std::vector<std::string>& play_bot_names() {
  static const std::vector<std::string> names{"always-fold", "always-call", "always-raise",
                                              "uniform"};
  return names;
}

std::unique_ptr<Agent> make_play_bot(const std::string& name) {
  static constexpr BotKind kinds[] = {BotKind::kAlwaysFold, BotKind::kAlwaysCall,
                                      BotKind::kAlwaysRaise, BotKind::kUniform};
  const auto& names = play_bot_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return std::make_unique<PlayBot>(kinds[i], name);
  throw InputError("unknown bot '" + name +
                   "': expected always-fold, always-call, always-raise or uniform");
}

std::unique_ptr<Agent> make_play_agent(const std::string& spec, const GameDefinition& game) {
  if (spec.starts_with("bot:")) return make_play_bot(spec.substr(4));
  auto file = std::make_shared<const StrategyFile>(StrategyFile::read(spec));
  if (!(file->game() == game))
    throw InputError("strategy file " + spec + " is a strategy for " + file->game().name +
                     ", not for " + game.name + " (the game definitions differ)");
  return std::make_unique<StrategyFileAgent>(file, std::filesystem::path(spec).filename().string());
}

}  // namespace hulhe
