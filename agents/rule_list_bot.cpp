#include "agents/rule_list_bot.h"

#include <algorithm>
#include <memory>
#include <sstream>

#include "agents/bet_sizing.h"
#include "agents/bot_config.h"
#include "game/equity/range.h"
#include "game/hand_evaluator.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/toml_input.h"

namespace hulhe {
namespace {

constexpr const char* kRoundNames[] = {"preflop", "flop", "turn", "river"};

// Hole cards as an index into Rule::hands: one card c → c; two cards → high * 52 + low.
int hand_key(const Card* hole, int n) {
  if (n == 1) return hole[0];
  const Card hi = std::max(hole[0], hole[1]), lo = std::min(hole[0], hole[1]);
  return hi * kMaxCards + lo;
}

class RuleParser {
 public:
  RuleParser(const GameDefinition& game, std::string source)
      : game_(game), source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw InputError("bot 'rules': " + source_ + ": " + where + ": " + what);
  }

  Interval interval(const toml::value& v, const std::string& where, const std::string& key,
                    double lo, double hi) const {
    Interval out;
    double x = 0;
    if (toml_number(v, x)) {
      out = {x, x};
    } else if (v.is_array() && v.as_array().size() == 2 && toml_number(v.as_array()[0], out.lo) &&
               toml_number(v.as_array()[1], out.hi)) {
    } else {
      fail(where, "'" + key + "' must be a number or [lo, hi]");
    }
    if (out.lo > out.hi || out.lo < lo || out.hi > hi)
      fail(where,
           "'" + key + "' = " + toml::format(v) + " must be an interval within [" +
               std::to_string(static_cast<long long>(lo)) + ", " +
               (hi > 1e17 ? std::string("inf") : std::to_string(static_cast<long long>(hi))) + "]");
    return out;
  }

  // Values that may be given alone or as a list ("flop" or ["flop", "turn"]).
  static std::vector<toml::value> one_or_list(const toml::value& v) {
    if (v.is_array()) return {v.as_array().begin(), v.as_array().end()};
    return {v};
  }

  unsigned rounds(const toml::value& v, const std::string& where) const {
    unsigned mask = 0;
    for (const toml::value& x : one_or_list(v)) {
      int r = -1;
      if (x.is_integer()) {
        r = static_cast<int>(x.as_integer());
      } else if (x.is_string()) {
        for (int i = 0; i < 4; ++i)
          if (x.as_string().str == kRoundNames[i]) r = i;
        if (r < 0)
          fail(where, "round '" + x.as_string().str + "' is not preflop, flop, turn or river");
      } else {
        fail(where, "'round' must be a round name, a number or a list of them");
      }
      if (r < 0 || r >= game_.num_rounds)
        fail(where, "round " + toml::format(x) + " does not exist in " + game_name() + " (" +
                        std::to_string(game_.num_rounds) + " round" +
                        (game_.num_rounds == 1 ? "" : "s") + ")");
      mask |= 1U << r;
    }
    return mask;
  }

  unsigned positions(const toml::value& v, const std::string& where) const {
    unsigned mask = 0;
    for (const toml::value& x : one_or_list(v)) {
      if (!x.is_integer() || x.as_integer() < 0 || x.as_integer() >= game_.num_players)
        fail(where, "'position' must be 0.." + std::to_string(game_.num_players - 1) +
                        " (ACPC positions of " + game_name() + ") or a list of them");
      mask |= 1U << x.as_integer();
    }
    return mask;
  }

  std::vector<bool> hands(const toml::value& v, const std::string& where) const {
    if (!v.is_string()) fail(where, "'hand' must be a string such as \"QQ+,AKs\"");
    const std::string text = v.as_string().str;
    const CardSet deck = game_.deck_set();
    std::vector<bool> out(kMaxCards * kMaxCards, false);
    if (game_.num_hole_cards == 2 && game_.num_ranks == kMaxRanks && game_.num_suits == kMaxSuits) {
      Range range;
      try {
        range = Range::parse(text);
      } catch (const InputError& e) {
        fail(where, std::string("'hand': ") + e.what());
      }
      for (const WeightedCombo& c : range.combos()) {
        const Card cards[2] = {c.high, c.low};
        out[hand_key(cards, 2)] = true;
      }
      return out;
    }
    if (game_.num_hole_cards != 1)
      fail(where,
           "'hand' conditions need a hold'em game (2 hole cards, 52 cards) or a "
           "1-card game; " +
               game_name() + " deals " + std::to_string(game_.num_hole_cards));
    // Ranks ("K") or cards ("Ks"), comma-separated, all in the game's deck.
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
      item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
      bool any = false;
      if (item.size() == 1) {
        for (Card c : deck.cards())
          if (kRankChars[rank_of(c)] == item[0]) out[c] = any = true;
      } else {
        try {
          const Card c = parse_card(item);
          if (deck.contains(c)) out[c] = any = true;
        } catch (const InputError&) {
        }
      }
      if (!any)
        fail(where, "'hand' item '" + item + "' is no rank or card of " + game_name() + " (deck " +
                        deck.to_string() + ")");
    }
    return out;
  }

  Interval categories(const toml::value& v, const std::string& where) const {
    auto category = [&](const toml::value& x) {
      if (x.is_string())
        for (int c = 0; c < kNumHandCategories; ++c)
          if (x.as_string().str == category_name(static_cast<HandCategory>(c))) return c;
      fail(where, "'made' = " + toml::format(x) +
                      " is not a hand category (high card, pair, two pair, three of a kind, "
                      "straight, flush, full house, four of a kind, straight flush)");
    };
    if (v.is_array() && v.as_array().size() == 2) {
      Interval i{static_cast<double>(category(v.as_array()[0])),
                 static_cast<double>(category(v.as_array()[1]))};
      if (i.lo > i.hi) fail(where, "'made' lists its categories from lowest to highest");
      return i;
    }
    return {static_cast<double>(category(v)), kNumHandCategories - 1.0};
  }

  std::array<double, kNumActionKinds> action(const toml::value& v, const std::string& where) const {
    std::array<double, kNumActionKinds> p{};
    auto kind = [&](const std::string& s) -> int {
      if (s == "fold") return 0;
      if (s == "check" || s == "call") return 1;
      if (s == "bet" || s == "raise") return 2;
      fail(where, "action '" + s + "' is not fold, check, call, bet or raise");
    };
    if (v.is_string()) {
      p[kind(v.as_string().str)] = 1.0;
      return p;
    }
    if (!v.is_table())
      fail(where,
           "'action' must be \"fold\", \"call\", \"raise\"... or a table such as "
           "{ raise = 0.7, call = 0.3 }");
    double total = 0;
    for (const auto& [key, x] : v.as_table()) {
      double w = 0;
      if (!toml_number(x, w) || w < 0) fail(where, "action weight '" + key + "' must be >= 0");
      p[kind(key)] += w;
      total += w;
    }
    if (total <= 0) fail(where, "action weights sum to 0");
    for (double& x : p) x /= total;
    return p;
  }

  std::string game_name() const { return game_.name.empty() ? "this game" : game_.name; }

 private:
  const GameDefinition& game_;
  std::string source_;
};

}  // namespace

HandCategory made_category(const GameDefinition& game, CardSet cards) {
  if (game.num_ranks == kMaxRanks && game.num_suits == kMaxSuits && cards.size() >= 5 &&
      cards.size() <= 7)
    return category_of(evaluate(cards));
  int count[kMaxRanks] = {};
  for (Card c : cards.cards()) ++count[rank_of(c)];
  int pairs = 0, trips = 0, quads = 0;
  for (int n : count) pairs += n == 2, trips += n == 3, quads += n == 4;
  if (quads > 0) return HandCategory::kFourOfAKind;
  if (trips > 0 && (pairs > 0 || trips > 1)) return HandCategory::kFullHouse;
  if (trips > 0) return HandCategory::kThreeOfAKind;
  if (pairs > 1) return HandCategory::kTwoPair;
  if (pairs == 1) return HandCategory::kPair;
  return HandCategory::kHighCard;
}

RuleList RuleList::from_file(const std::string& path, const GameDefinition& game) {
  // Regular files only, at most kMaxConfigBytes, as every parameter file: a fifo would hang
  // the command and /dev/zero would grow without end.
  return from_string(read_input_file(path, "bot 'rules': rules file", kMaxConfigBytes), path, game);
}

RuleList RuleList::from_string(const std::string& text, const std::string& source,
                               const GameDefinition& game) {
  BotConfig config = BotConfig::from_string(text, source, "rules");
  RuleParser parser(game, source);
  RuleList list;
  list.samples = static_cast<int>(config.integer("samples", list.samples, 1, 1'000'000));
  const double raise_pot = config.number("raise_pot", 1.0, 0.0, 100.0);
  list.default_raise_pot = raise_pot;
  if (const toml::value* d = config.get("default"))
    list.default_action = parser.action(*d, "default");
  const toml::value* rules = config.get("rule");
  config.reject_unknown_keys();
  if (rules == nullptr || !rules->is_array() || rules->as_array().empty())
    config.fail("no rules: add [[rule]] tables, each with conditions and an action");

  int number = 0;
  for (const toml::value& t : rules->as_array()) {
    ++number;
    Rule rule;
    rule.label = "rule " + std::to_string(number);
    if (!t.is_table()) parser.fail(rule.label, "must be a [[rule]] table");
    const auto& table = t.as_table();
    if (auto it = table.find("name"); it != table.end() && it->second.is_string())
      rule.label += " ('" + it->second.as_string().str + "')";
    const std::string& where = rule.label;
    rule.raise_pot = raise_pot;
    bool has_action = false;
    for (const auto& [key, v] : table) {
      if (key == "name") {
        if (!v.is_string()) parser.fail(where, "'name' must be a string");
      } else if (key == "round") {
        rule.rounds = parser.rounds(v, where);
      } else if (key == "position") {
        rule.positions = parser.positions(v, where);
      } else if (key == "hand") {
        rule.hands = parser.hands(v, where);
      } else if (key == "made") {
        rule.made = parser.categories(v, where);
      } else if (key == "equity") {
        rule.equity = parser.interval(v, where, key, 0, 1);
        list.uses_equity = true;
      } else if (key == "to_call") {
        rule.to_call = parser.interval(v, where, key, 0, 1e18);
      } else if (key == "raises") {
        rule.raises = parser.interval(v, where, key, 0, 1e18);
      } else if (key == "pot") {
        rule.pot = parser.interval(v, where, key, 0, 1e18);
      } else if (key == "opponents") {
        rule.opponents = parser.interval(v, where, key, 0, kMaxPlayers);
      } else if (key == "action") {
        rule.action = parser.action(v, where);
        has_action = true;
      } else if (key == "size") {
        double x = 0;
        if (!toml_number(v, x) || x < 0 || x > 100)
          parser.fail(where, "'size' must be a pot fraction in [0, 100]");
        rule.raise_pot = x;
      } else {
        parser.fail(where, "unknown condition '" + key +
                               "' (known: name, round, position, hand, made, equity, to_call, "
                               "raises, pot, opponents, action, size)");
      }
    }
    if (!has_action) parser.fail(where, "has no 'action'");
    list.rules.push_back(std::move(rule));
  }
  return list;
}

int RuleListBot::matching_rule(const GameState& state, int position, SplitMix64& rng) {
  const GameDefinition& game = state.game();
  const int round = state.round();
  const Card* hole = state.hole_cards(position);
  const double to_call = amount_to_call(state, position);
  const double bet_unit =
      game.betting_type == BettingType::kLimit ? game.raise_size[round] : game.big_blind();
  const double big_blind = std::max(1, game.big_blind());
  for (std::size_t i = 0; i < rules_->rules.size(); ++i) {
    const Rule& r = rules_->rules[i];
    if (r.rounds != 0 && !((r.rounds >> round) & 1U)) continue;
    if (r.positions != 0 && !((r.positions >> position) & 1U)) continue;
    if (!r.hands.empty() && !r.hands[hand_key(hole, game.num_hole_cards)]) continue;
    if (r.to_call && !r.to_call->contains(to_call / bet_unit)) continue;
    if (r.raises && !r.raises->contains(state.num_raises())) continue;
    if (r.pot && !r.pot->contains(state.pot() / big_blind)) continue;
    if (r.opponents && !r.opponents->contains(live_opponents(state, position))) continue;
    if (r.made) {
      CardSet cards;
      for (int c = 0; c < game.num_hole_cards; ++c) cards.insert(hole[c]);
      for (int c = 0; c < game.total_board_cards(round); ++c) cards.insert(state.board_cards()[c]);
      if (!r.made->contains(static_cast<double>(made_category(game, cards)))) continue;
    }
    // Last, as the only costly condition.
    if (r.equity && !r.equity->contains(equity_(state, position, rng))) continue;
    return static_cast<int>(i);
  }
  return -1;
}

BetAction RuleListBot::act(const GameState& state, int position, SplitMix64& rng) {
  const int i = matching_rule(state, position, rng);
  const auto& p = i < 0 ? rules_->default_action : rules_->rules[i].action;
  const double raise_pot = i < 0 ? rules_->default_raise_pot : rules_->rules[i].raise_pot;
  int kind = 0;
  if (p[0] == 1.0 || p[1] == 1.0 || p[2] == 1.0) {
    kind = p[1] == 1.0 ? 1 : (p[2] == 1.0 ? 2 : 0);
  } else {
    double u = rng.uniform();
    while (kind < kNumActionKinds - 1 && u >= p[kind]) u -= p[kind++];
  }
  if (kind == 0) return fold_or_check(state);
  if (kind == 2) return raise_or_call(state, raise_pot);
  return {Action::kCall, 0};
}

}  // namespace hulhe
