// Cards, the hand evaluator (one hand, or a NumPy batch without the GIL) and suit-isomorphic
// hand indices.
#include <pybind11/numpy.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "game/card.h"
#include "game/hand_evaluator.h"
#include "game/hand_indexer.h"
#include "python/bindings.h"
#include "util/input_error.h"

namespace hulhe::python {

std::vector<Card> cards_arg(const py::handle& o) {
  if (py::isinstance<py::str>(o)) return parse_cards(o.cast<std::string>());
  std::vector<Card> cards;
  for (py::handle item : py::iter(o)) {
    if (py::isinstance<py::str>(item)) {
      cards.push_back(parse_card(item.cast<std::string>()));
      continue;
    }
    const long id = item.cast<long>();
    if (id < 0 || id >= kMaxCards)
      throw InputError("card id " + std::to_string(id) + " is not in 0..51 (rank * 4 + suit)");
    cards.push_back(static_cast<Card>(id));
  }
  return cards;
}

namespace {

CardSet distinct_cards(const std::vector<Card>& cards) {
  const CardSet set = CardSet::of(cards);
  if (set.size() != static_cast<int>(cards.size()))
    throw InputError("cards " + cards_to_string(cards) + " repeat a card");
  return set;
}

HandRank evaluate_cards(const py::object& o) {
  const std::vector<Card> cards = cards_arg(o);
  if (cards.size() < 5 || cards.size() > 7)
    throw InputError("a hand to evaluate has 5 to 7 cards; got " + std::to_string(cards.size()) +
                     " (" + cards_to_string(cards) + ")");
  return evaluate(distinct_cards(cards));
}

// Ranks rows of K card ids into `out`; returns the first bad row (a card id above 51 or a
// repeated card), or -1. Rows go in blocks of 2,048: the block's ids are checked in one
// vectorised pass (its largest byte) while they are in L1, repeats by the suit-rank masks the
// evaluator builds anyway (a repeated card sets no new bit).
template <int K>
py::ssize_t rank_rows(const std::uint8_t* __restrict in, std::uint16_t* __restrict out,
                      py::ssize_t n) {
  const HandEvaluator& ev = HandEvaluator::instance();
  constexpr py::ssize_t kBlock = 2048;
  for (py::ssize_t first = 0; first < n; first += kBlock) {
    const py::ssize_t last = std::min(n, first + kBlock);
    std::uint8_t largest = 0;
    for (py::ssize_t j = first * K; j < last * K; ++j) largest = std::max(largest, in[j]);
    if (largest >= kMaxCards) [[unlikely]] {
      for (py::ssize_t j = first * K;; ++j)
        if (in[j] >= kMaxCards) return j / K;
    }
    for (py::ssize_t i = first; i < last; ++i) {
      const std::uint8_t* row = in + i * K;
      EvalHand h;
      for (int j = 0; j < K; ++j) h = h.add(row[j]);
      if (std::popcount(h.suit_ranks) != K) [[unlikely]]
        return i;
      out[i] = ev.rank(h);
    }
  }
  return -1;
}

// Rows of 5, 6 or 7 card ids (any integer dtype), ranked without the GIL, in one pass of the
// evaluator's incremental path (HandEvaluator::rank(const Card*, int)).
py::array_t<std::uint16_t> evaluate_batch(
    const py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>& hands) {
  if (hands.ndim() != 2 || hands.shape(1) < 5 || hands.shape(1) > 7)
    throw InputError("evaluate_batch takes an array of shape (n, 5..7) of card ids; got shape " +
                     std::string(py::str(py::tuple(py::cast(
                         std::vector<py::ssize_t>(hands.shape(), hands.shape() + hands.ndim()))))));
  const py::ssize_t n = hands.shape(0);
  const int k = static_cast<int>(hands.shape(1));
  py::array_t<std::uint16_t> out(n);
  const std::uint8_t* in = hands.data();
  std::uint16_t* ranks = out.mutable_data();
  py::ssize_t bad = -1;
  {
    py::gil_scoped_release release;
    bad = k == 7   ? rank_rows<7>(in, ranks, n)
          : k == 6 ? rank_rows<6>(in, ranks, n)
                   : rank_rows<5>(in, ranks, n);
  }
  if (bad >= 0) {
    std::vector<Card> row(in + bad * k, in + bad * k + k);
    std::string ids;
    for (Card c : row) {
      if (!ids.empty()) ids += ' ';
      ids.append(std::to_string(c));
    }
    throw InputError("evaluate_batch: row " + std::to_string(bad) + " (" + ids +
                     ") has a card id above 51 or a repeated card");
  }
  return out;
}

const HandIndexer& holdem_indexer(int round) {
  if (round < 0 || round > 3) throw InputError("a hold'em round is 0..3");
  return HandIndexer::holdem(round);
}

// Hole cards then the board (0, 3, 4 or 5 cards) → the round's suit-isomorphic index.
std::uint64_t holdem_index(const py::object& hole_o, const py::object& board_o) {
  const std::vector<Card> hole = cards_arg(hole_o);
  const std::vector<Card> board = board_o.is_none() ? std::vector<Card>{} : cards_arg(board_o);
  if (hole.size() != 2) throw InputError("hold'em hole cards are 2 cards");
  int round = -1;
  if (board.empty()) round = 0;
  if (board.size() >= 3 && board.size() <= 5) round = static_cast<int>(board.size()) - 2;
  if (round < 0)
    throw InputError("a hold'em board has 0, 3, 4 or 5 cards; got " + std::to_string(board.size()));
  std::vector<Card> all = hole;
  all.insert(all.end(), board.begin(), board.end());
  distinct_cards(all);
  return HandIndexer::holdem(round).index(all.data());
}

}  // namespace

void bind_cards(py::module_& m) {
  m.def("parse_card", &parse_card, py::arg("text"),
        "Card id (rank * 4 + suit, ranks 23456789TJQKA, suits cdhs) of text like 'As'.");
  m.def(
      "card_str",
      [](int c) {
        if (c < 0 || c >= kMaxCards)
          throw InputError("card id " + std::to_string(c) + " is not in 0..51");
        return card_to_string(static_cast<Card>(c));
      },
      py::arg("card"), "Text of a card id: 51 -> 'As'.");
  m.def(
      "parse_cards",
      [](const py::object& o) {
        std::vector<int> ids;
        for (Card c : cards_arg(o)) ids.push_back(c);
        return ids;
      },
      py::arg("cards"), "Card ids of 'AhKh...' (no separators) or of a sequence of cards.");
  m.def(
      "cards_str", [](const py::object& o) { return cards_to_string(cards_arg(o)); },
      py::arg("cards"), "Text of a sequence of card ids: [51, 47] -> 'AsKs'.");
  m.def("evaluate", &evaluate_cards, py::arg("cards"),
        "Rank of the best five of 5 to 7 distinct cards: 1..7462, higher is better, equal "
        "ranks tie. `cards`: 'AsKsQsJsTs' or card ids.");
  m.def("evaluate_batch", &evaluate_batch, py::arg("hands"),
        "Ranks of a NumPy array of shape (n, 5..7) of card ids (uint8 is taken as it is, other "
        "integer dtypes are converted): uint16 array of n ranks. Runs without the GIL.");
  m.def(
      "hand_category",
      [](int rank) {
        if (rank < 1 || rank > kNumHandRanks) throw InputError("a hand rank is 1..7462");
        return std::string(category_name(category_of(static_cast<HandRank>(rank))));
      },
      py::arg("rank"), "Category of a rank: 'high card', 'pair', ..., 'straight flush'.");
  m.def(
      "best_five",
      [](const py::object& o) {
        const std::vector<Card> cards = cards_arg(o);
        if (cards.size() < 5 || cards.size() > 7) throw InputError("best_five takes 5 to 7 cards");
        return cards_to_string(best_five(distinct_cards(cards)));
      },
      py::arg("cards"), "The best five of 5 to 7 cards, as text.");
  m.def("holdem_index", &holdem_index, py::arg("hole"), py::arg("board") = py::none(),
        "Suit-isomorphic index of hold'em hole cards with the board so far (0, 3, 4 or 5 "
        "cards), in 0..holdem_index_size(round) - 1; suit permutations share an index.");
  m.def(
      "holdem_index_size", [](int round) { return holdem_indexer(round).size(); }, py::arg("round"),
      "Canonical hands of a hold'em round: 169; 1,286,792; 13,960,050; "
      "123,156,254.");
  m.def(
      "holdem_unindex",
      [](int round, std::uint64_t index) {
        const HandIndexer& ix = holdem_indexer(round);
        if (index >= ix.size())
          throw InputError("index " + std::to_string(index) + " is not below " +
                           std::to_string(ix.size()));
        std::vector<Card> cards(static_cast<std::size_t>(ix.num_cards()));
        ix.unindex(index, cards.data());
        return py::make_tuple(cards_to_string({cards.begin(), cards.begin() + 2}),
                              cards_to_string({cards.begin() + 2, cards.end()}));
      },
      py::arg("round"), py::arg("index"),
      "A representative (hole, board) of a canonical index, as text.");
}

}  // namespace hulhe::python
