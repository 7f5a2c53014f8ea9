// `hulhe info`: a game's rules in words and, for 2-player limit games, the size of its
// public betting tree and of the game (canonical hands, information sets).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/game_size.h"
#include "util/printable_text.h"

namespace hulhe::cli {
namespace {

const char* const kRoundNames[] = {"preflop", "flop", "turn", "river"};

std::string round_name(const GameDefinition& g, int r) {
  // Hold'em's names only fit games with hold'em's four rounds.
  if (g.num_rounds == 4) return kRoundNames[r];
  return fmt::format("round {}", r + 1);
}

std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

struct Options {
  std::optional<std::string> game_path;  // given but empty is an error, not the default
  bool json = false;
};

void run(const Options& o) {
  const GameDefinition g = GameDefinition::from_option(o.game_path);
  const bool limit = g.betting_type == BettingType::kLimit;
  const bool unlimited_stacks = g.stack[0] == INT32_MAX;
  std::string deck;
  for (Card c : g.deck()) deck += card_to_string(c);

  nlohmann::json j;
  j["game"] = g.name;
  j["hash"] = fmt::format("{:016x}", g.hash());
  j["betting"] = limit ? "limit" : "nolimit";
  j["num_players"] = g.num_players;
  j["num_rounds"] = g.num_rounds;
  j["blinds"] = std::vector<std::int32_t>(g.blind.begin(), g.blind.begin() + g.num_players);
  j["big_blind"] = g.big_blind();
  if (unlimited_stacks)
    j["stacks"] = nullptr;
  else
    j["stacks"] = std::vector<std::int32_t>(g.stack.begin(), g.stack.begin() + g.num_players);
  std::vector<int> first, caps, board;
  std::vector<std::int32_t> raises;
  for (int r = 0; r < g.num_rounds; ++r) {
    first.push_back(g.first_player[r]);
    caps.push_back(g.max_raises[r] == 255 ? -1 : g.max_raises[r]);
    board.push_back(g.num_board_cards[r]);
    raises.push_back(g.raise_size[r]);
  }
  if (limit) j["raise_sizes"] = raises;
  j["first_player_per_round"] = first;
  j["max_raises_per_round"] = caps;  // -1: unlimited
  j["board_cards_per_round"] = board;
  j["hole_cards"] = g.num_hole_cards;
  j["deck"] = {{"ranks", g.num_ranks}, {"suits", g.num_suits}, {"cards", deck}};

  std::vector<std::uint64_t> views;
  std::vector<std::optional<std::uint64_t>> canonical;
  for (int r = 0; r < g.num_rounds; ++r) {
    views.push_back(private_views(g, r));
    canonical.push_back(canonical_hands(g, r));
  }
  j["private_views_per_round"] = views;
  nlohmann::json canon = nlohmann::json::array();
  for (const auto& c : canonical) canon.push_back(c ? nlohmann::json(*c) : nlohmann::json());
  j["canonical_hands_per_round"] = canon;

  const bool has_tree = g.num_players == 2 && limit && unlimited_stacks;
  std::optional<BettingTree> tree;
  if (has_tree) {
    tree.emplace(g);
    std::vector<std::int64_t> entering;
    std::vector<std::int32_t> decisions, terminals, folds, showdowns;
    std::uint64_t canonical_sets = 0;
    bool canonical_known = true;
    for (int r = 0; r < g.num_rounds; ++r) {
      entering.push_back(tree->sequences_entering_round(r));
      decisions.push_back(tree->num_decision_nodes(r));
      terminals.push_back(tree->num_terminal_nodes(r));
      folds.push_back(tree->num_fold_nodes(r));
      showdowns.push_back(tree->num_showdown_nodes(r));
      if (canonical[r])
        canonical_sets += static_cast<std::uint64_t>(decisions.back()) * *canonical[r];
      else
        canonical_known = false;
    }
    j["tree_nodes"] = tree->nodes().size();
    j["sequences_entering_round"] = entering;
    j["decision_nodes_per_round"] = decisions;
    j["terminal_nodes_per_round"] = terminals;
    j["fold_nodes_per_round"] = folds;
    j["showdown_nodes_per_round"] = showdowns;
    j["information_sets"] = information_sets(*tree);
    j["canonical_information_sets"] =
        canonical_known ? nlohmann::json(canonical_sets) : nlohmann::json();
  }

  if (o.json) {
    // The name comes from the file name, which need not be UTF-8: invalid bytes → U+FFFD.
    fmt::print("{}\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return;
  }

  // The rules in words.
  fmt::print("game {} (rules hash {})\n", g.name.empty() ? "(unnamed)" : printable(g.name),
             j["hash"].get<std::string>());
  fmt::print("  {} betting, {} players, {} betting round{}\n", limit ? "limit" : "no-limit",
             g.num_players, g.num_rounds, g.num_rounds > 1 ? "s" : "");
  fmt::print("  deck: {} cards ({} ranks x {} suits): {}\n", g.deck_size(), g.num_ranks,
             g.num_suits, g.deck_size() <= 12 ? deck : deck.substr(0, 8) + "...");
  fmt::print("  each player gets {} hole card{}\n", g.num_hole_cards,
             g.num_hole_cards > 1 ? "s" : "");
  std::string blinds;
  for (int p = 0; p < g.num_players; ++p)
    blinds += fmt::format("{}position {} posts {}", p ? ", " : "", p, g.blind[p]);
  fmt::print("  blinds: {} (big blind {} chips; 1 mbb/g = {} chips a hand)\n", blinds,
             g.big_blind(), g.big_blind() / 1000.0);
  if (unlimited_stacks)
    fmt::print("  stacks: unlimited\n");
  else
    fmt::print("  stacks: {}\n", fmt::join(j["stacks"].get<std::vector<int>>(), ", "));
  for (int r = 0; r < g.num_rounds; ++r) {
    std::string bet = limit ? fmt::format("bets and raises of {}", g.raise_size[r])
                            : std::string("bets of any size");
    std::string cap = g.max_raises[r] == 255 ? std::string("no raise cap")
                                             : fmt::format("at most {} raises", g.max_raises[r]);
    fmt::print("  {:<8} {} board card{}, position {} acts first, {}, {}\n", round_name(g, r),
               int{g.num_board_cards[r]}, g.num_board_cards[r] == 1 ? "" : "s",
               int{g.first_player[r]}, bet, cap);
  }
  if (!has_tree) {
    fmt::print(
        "\n(no betting tree: hulhe builds trees of 2-player limit games with unlimited "
        "stacks)\n");
    return;
  }
  fmt::print("\npublic betting tree: {} nodes\n", grouped(tree->nodes().size()));
  fmt::print("  {:<8} {:>9} {:>9} {:>9} {:>9} {:>16} {:>22}\n", "round", "decisions", "folds",
             "showdowns", "entering", "canonical hands", "information sets");
  for (int r = 0; r < g.num_rounds; ++r) {
    fmt::print("  {:<8} {:>9} {:>9} {:>9} {:>9} {:>16} {:>22}\n", round_name(g, r),
               grouped(static_cast<std::uint64_t>(tree->num_decision_nodes(r))),
               grouped(static_cast<std::uint64_t>(tree->num_fold_nodes(r))),
               grouped(static_cast<std::uint64_t>(tree->num_showdown_nodes(r))),
               grouped(static_cast<std::uint64_t>(tree->sequences_entering_round(r))),
               canonical[r] ? grouped(*canonical[r]) : std::string("?"),
               grouped(static_cast<std::uint64_t>(tree->num_decision_nodes(r)) * views[r]));
  }
  fmt::print("information sets: {} (real game); {} with suit isomorphism\n",
             grouped(j["information_sets"].get<std::uint64_t>()),
             j["canonical_information_sets"].is_null()
                 ? std::string("?")
                 : grouped(j["canonical_information_sets"].get<std::uint64_t>()));
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto opts = std::make_shared<Options>();
  CLI::App* cmd =
      app.add_subcommand("info", "Show a game's rules, betting tree and information-set counts");
  cmd->add_option("--game", opts->game_path,
                  "ACPC .game file (default: heads-up limit hold'em, built in)");
  cmd->add_flag("--json", opts->json, "Print one JSON object");
  cmd->callback([opts] { run(*opts); });
}

}  // namespace hulhe::cli
