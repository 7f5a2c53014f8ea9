// `hulhe hand CARDS... [--json]`: the best five of 5 to 7 cards, its category and its rank
// (1..7462, higher is better; see game/hand_evaluator.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "game/card.h"
#include "game/hand_evaluator.h"
#include "util/input_error.h"

namespace hulhe::cli {
namespace {

struct Options {
  std::vector<std::string> cards;  // "As" "Ks" ... or runs such as "AsKsQsJsTs"
  bool json = false;
};

// Cards from every argument, highest first for display.
std::vector<Card> parse_arguments(const std::vector<std::string>& args) {
  std::vector<Card> cards;
  CardSet seen;
  for (const std::string& arg : args) {
    for (Card c : parse_cards(arg)) {
      if (seen.contains(c)) throw InputError("card " + card_to_string(c) + " appears twice");
      seen.insert(c);
      cards.push_back(c);
    }
  }
  if (cards.size() < 5 || cards.size() > 7)
    throw InputError(fmt::format("need 5 to 7 cards, got {}", cards.size()));
  return cards;
}

std::vector<std::string> names(std::vector<Card> cards) {
  std::sort(cards.begin(), cards.end(), std::greater<>());
  std::vector<std::string> out;
  for (Card c : cards) out.push_back(card_to_string(c));
  return out;
}

void run(const Options& o) {
  const std::vector<Card> cards = parse_arguments(o.cards);
  const CardSet set = CardSet::of(cards);
  const HandRank rank = evaluate(set);
  const char* category = category_name(category_of(rank));
  const std::vector<std::string> five = names(best_five(set));
  if (o.json) {
    nlohmann::json j;
    j["cards"] = names(cards);
    j["best_five"] = five;
    j["category"] = category;
    j["rank"] = rank;
    fmt::print("{}\n", j.dump());
    return;
  }
  fmt::print("cards:     {}\n", fmt::join(names(cards), " "));
  fmt::print("best five: {}\n", fmt::join(five, " "));
  fmt::print("category:  {}\n", category);
  fmt::print("rank:      {} of {} (higher is better)\n", rank, kNumHandRanks);
}

}  // namespace

void add_hand_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "hand", "Best five-card hand of 5 to 7 cards, its category and rank (1..7462)");
  cmd->add_option("cards", options->cards, "cards such as As Ks Qs Js Ts 2c 3d, or AsKsQsJsTs")
      ->required();
  cmd->add_flag("--json", options->json, "print one JSON object");
  cmd->callback([options] { run(*options); });
}

}  // namespace hulhe::cli
