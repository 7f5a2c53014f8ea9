#pragma once
// The rule-list bot: an ordered list of rules read from a TOML file, each a set of
// conditions and an action; the first rule whose conditions all hold decides, and when
// none does the bot plays `default` (check/call unless set). Conditions, all optional:
//   round     "preflop" "flop" "turn" "river" (or 0..3), or a list of them
//   position  ACPC position 0..players-1, or a list
//   hand      hole cards: a hold'em range ("QQ+,AKs,A5s-A2s", game/equity/range.h) in
//             2-card games, ranks or cards ("K,A" or "Ks") in 1-card games (Kuhn, Leduc)
//   made      the best hand made with the board so far, at least this category ("pair"), or
//             a [lowest, highest] pair of categories
//   equity    [lo, hi] equity against random hands of the live opponents (0..1)
//   to_call   [lo, hi] bets to call (chips / the round's raise size; no-limit: big blinds)
//   raises    [lo, hi] raises so far in this round
//   pot       [lo, hi] pot in big blinds
//   opponents [lo, hi] opponents who have not folded
// A number stands for [x, x]. action = "fold" | "check" | "call" | "bet" | "raise", or a
// mix such as { raise = 0.7, call = 0.3 }; a fold where checking is free checks, a raise
// where none is legal calls. No-limit raises are `size` (per rule, else the file's
// `raise_pot`, default 1) times the pot after calling. `samples` (default 400) sets the
// Monte Carlo deals of equity conditions. Every error names the file and the rule.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/random_hand_equity.h"
#include "game/hand_evaluator.h"

namespace hulhe {

struct Interval {
  double lo = 0, hi = 0;
  bool contains(double x) const { return x >= lo - 1e-9 && x <= hi + 1e-9; }
};

struct Rule {
  std::string label;        // "rule 3 ('premium pairs')", for messages
  unsigned rounds = 0;      // bit r: round r matches; 0: any round
  unsigned positions = 0;   // bit p: position p matches; 0: any position
  std::vector<bool> hands;  // empty: any; else by hole-card key (see rule_list_bot.cpp)
  std::optional<Interval> made, equity, to_call, raises, pot, opponents;
  std::array<double, kNumActionKinds> action{};  // probabilities by Action
  double raise_pot = 1.0;
};

struct RuleList {
  std::vector<Rule> rules;
  std::array<double, kNumActionKinds> default_action{0, 1, 0};
  double default_raise_pot = 1.0;
  int samples = 400;
  bool uses_equity = false;

  // Throws InputError naming `path` and the rule for anything it cannot use in `game`.
  static RuleList from_file(const std::string& path, const GameDefinition& game);
  static RuleList from_string(const std::string& text, const std::string& source,
                              const GameDefinition& game);
};

class RuleListBot final : public Agent {
 public:
  RuleListBot(const GameDefinition& game, std::shared_ptr<const RuleList> rules)
      : rules_(std::move(rules)), equity_(game, rules_->samples) {}
  std::string name() const override { return "rules"; }
  void new_hand() override { equity_.reset(); }
  BetAction act(const GameState& state, int position, SplitMix64& rng) override;
  // The rule that decides (its index), or -1 for the default action.
  int matching_rule(const GameState& state, int position, SplitMix64& rng);

 private:
  std::shared_ptr<const RuleList> rules_;
  SeatEquity equity_;
};

// The category of the best hand `cards` make (fewer than five cards: from rank counts).
HandCategory made_category(const GameDefinition& game, CardSet cards);

}  // namespace hulhe
