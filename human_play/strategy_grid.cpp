#include "human_play/strategy_grid.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

// Decision position reached by `sequence` ("" is the first decision).
const BettingNode* find_position(const BettingTree& tree, std::string_view sequence) {
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(tree.nodes().size()); ++i) {
    const BettingNode& n = tree.node(i);
    if (n.kind != NodeKind::kDecision) continue;
    const std::string s = tree.betting_string(i);
    // A round's first position is written "rc/"; "rc" names it too (it ends no other).
    if (s == sequence ||
        (!s.empty() && s.back() == '/' && std::string_view(s).substr(0, s.size() - 1) == sequence))
      return &n;
  }
  return nullptr;
}

// "check"/"bet" where nothing is owed, "call"/"raise" facing a bet.
std::string action_name(const BettingNode& n, char a) {
  const bool facing = n.committed[0] != n.committed[1];
  if (a == 'f') return "fold";
  if (a == 'c') return facing ? "call" : "check";
  return facing ? "raise" : "bet";
}

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace

StrategyGrid strategy_grid(const Policy& policy, std::string_view sequence,
                           const std::vector<Card>& board) {
  const BettingTree& tree = policy.tree();
  const GameDefinition& game = tree.game();
  if (game.num_hole_cards != 2)
    throw InputError(
        fmt::format("the hand grid is hold'em's (2 hole cards); game '{}' deals {} hole card{}",
                    game.name, game.num_hole_cards, game.num_hole_cards == 1 ? "" : "s"));
  const BettingNode* node = find_position(tree, sequence);
  if (node == nullptr)
    throw InputError(fmt::format(
        "no decision position has the betting sequence '{}' (ACPC betting strings: '' for the "
        "first decision, e.g. 'r', 'rc/', 'rc/crr')",
        sequence));
  StrategyGrid g;
  g.round = node->round;
  g.node = node->id_in_round;
  g.player = node->player;
  g.sequence = std::string(sequence);
  const int want = game.total_board_cards(g.round);
  if (static_cast<int>(board.size()) != want)
    throw InputError(
        fmt::format("the position '{}' is in round {}, which has {} board card{}; "
                    "--board gave {}",
                    sequence, g.round + 1, want, want == 1 ? "" : "s", board.size()));
  const std::vector<Card> deck = game.deck();
  CardSet in_deck = CardSet::of(deck), on_board;
  for (Card c : board) {
    if (!in_deck.contains(c))
      throw InputError(fmt::format("board card {} is not in the deck of game '{}'",
                                   card_to_string(c), game.name));
    if (on_board.contains(c))
      throw InputError(fmt::format("board card {} appears twice", card_to_string(c)));
    on_board.insert(c);
  }
  g.board = board;
  for (int a = 0; a < node->num_actions; ++a) {
    g.actions.push_back(action_char(node->actions[a]));
    g.action_names.push_back(action_name(*node, g.actions.back()));
  }

  for (Card c : deck)
    if (std::find(g.ranks.begin(), g.ranks.end(), rank_of(c)) == g.ranks.end())
      g.ranks.push_back(rank_of(c));
  std::sort(g.ranks.rbegin(), g.ranks.rend());
  const std::size_t R = g.ranks.size();
  std::array<int, kMaxRanks> index{};
  for (std::size_t i = 0; i < R; ++i) index[g.ranks[i]] = static_cast<int>(i);
  g.cells.resize(R * R);
  for (std::size_t row = 0; row < R; ++row)
    for (std::size_t col = 0; col < R; ++col) {
      const std::size_t hi = std::min(row, col), lo = std::max(row, col);
      std::string label{kRankChars[g.ranks[hi]], kRankChars[g.ranks[lo]]};
      if (row != col) label += row < col ? 's' : 'o';
      g.cells[row * R + col].label = label;
    }

  std::vector<double> p(node->num_actions);
  for (std::size_t i = 0; i < deck.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      Card a = deck[i], b = deck[j];
      if (a < b) std::swap(a, b);
      if (on_board.contains(a) || on_board.contains(b)) continue;
      const int ha = index[rank_of(a)], hb = index[rank_of(b)];
      // Higher rank = smaller index; suited above the diagonal (row < col).
      const int hi = std::min(ha, hb), lo = std::max(ha, hb);
      const bool suited = suit_of(a) == suit_of(b);
      const std::size_t row = static_cast<std::size_t>(suited ? hi : lo);
      const std::size_t col = static_cast<std::size_t>(suited ? lo : hi);
      StrategyGridCell& cell = g.cells[row * R + col];
      const std::array<Card, 2> hole{a, b};
      const std::int32_t bucket = policy.abstraction().bucket(g.round, hole.data(), board.data());
      cell.combos.push_back({hole, bucket});
      policy.action_probabilities(g.round, g.node, bucket, p);
      if (cell.probabilities.empty()) cell.probabilities.assign(p.size(), 0.0);
      for (std::size_t k = 0; k < p.size(); ++k) cell.probabilities[k] += p[k];
    }
  for (StrategyGridCell& cell : g.cells)
    for (double& x : cell.probabilities) x /= static_cast<double>(cell.combos.size());
  return g;
}

std::string strategy_grid_text(const StrategyGrid& g) {
  std::string out;
  const std::size_t R = g.ranks.size();
  for (std::size_t k = 0; k < g.actions.size(); ++k) {
    out += fmt::format("{} (% of each class's hands)\n    ", g.action_names[k]);
    for (std::size_t c = 0; c < R; ++c) out += fmt::format("{:>4}", kRankChars[g.ranks[c]]);
    out += '\n';
    for (std::size_t r = 0; r < R; ++r) {
      out += fmt::format("{:>4}", kRankChars[g.ranks[r]]);
      for (std::size_t c = 0; c < R; ++c) {
        const StrategyGridCell& cell = g.cell(r, c);
        if (cell.combos.empty())
          out += "   .";
        else
          out += fmt::format("{:>4.0f}", 100.0 * cell.probabilities[k]);
      }
      out += '\n';
    }
    out += '\n';
  }
  return out;
}

std::string strategy_grid_svg(const StrategyGrid& g, std::string_view title) {
  constexpr int kCell = 44, kMargin = 24, kHeader = 40, kLegend = 36;
  const int R = static_cast<int>(g.ranks.size());
  // Wide enough for the grid, the title (about 8 px a character at 15 px) and the legend.
  const int width =
      std::max({2 * kMargin + R * kCell, 2 * kMargin + 8 * static_cast<int>(title.size()),
                2 * kMargin + 90 * static_cast<int>(g.actions.size())});
  const int height = kHeader + R * kCell + kLegend + kMargin;
  const char* colour[] = {"#d9534f", "#5cb85c", "#337ab7"};  // by Action: fold, call, raise
  auto colour_of = [&](char a) { return colour[a == 'f' ? 0 : a == 'c' ? 1 : 2]; };
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"26\" font-size=\"15\">{3}</text>\n",
      width, height, kMargin, xml_escape(title));
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < R; ++c) {
      const StrategyGridCell& cell = g.cell(r, c);
      const int x = kMargin + c * kCell, y = kHeader + r * kCell;
      std::string tip = cell.label;
      if (cell.combos.empty()) {
        tip += ": every combination touches the board";
      } else {
        for (std::size_t k = 0; k < g.actions.size(); ++k)
          tip += fmt::format(" · {} {:.3f}", g.action_names[k], cell.probabilities[k]);
        for (const StrategyGridCombo& combo : cell.combos)
          tip += fmt::format("\n{}{} bucket {}", card_to_string(combo.hole[0]),
                             card_to_string(combo.hole[1]), combo.bucket);
      }
      s += fmt::format("<g class=\"cell\" data-hand=\"{}\"><title>{}</title>\n", cell.label,
                       xml_escape(tip));
      if (cell.combos.empty()) {
        s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#dddddd\"/>\n",
                         x, y, kCell, kCell);
      } else {
        // Bars left to right in the node's action order, widths by probability.
        double left = 0.0;
        for (std::size_t k = 0; k < g.actions.size(); ++k) {
          const double w = cell.probabilities[k] * kCell;
          if (w > 0.0)
            s += fmt::format(
                "<rect x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\" fill=\"{}\"/>\n",
                x + left, y, w, kCell, colour_of(g.actions[k]));
          left += w;
        }
      }
      s += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"white\"/>\n"
          "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" "
          "fill=\"black\">{}</text></g>\n",
          x, y, kCell, kCell, x + kCell / 2, y + kCell / 2 + 4, cell.label);
    }
  const int ly = kHeader + R * kCell + 22;
  int lx = kMargin;
  for (std::size_t k = 0; k < g.actions.size(); ++k) {
    s += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"13\">{}</text>\n",
        lx, ly - 12, colour_of(g.actions[k]), lx + 18, ly, g.action_names[k]);
    lx += 90;
  }
  s += "</svg>\n";
  return s;
}

}  // namespace hulhe
