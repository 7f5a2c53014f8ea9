#include "game/equity/equity_calculator.h"

#include <cmath>
#include <functional>

#include "game/equity/equity_tables.h"
#include "game/equity/exact_equity.h"
#include "game/equity/monte_carlo_equity.h"
#include "util/combinatorics.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

// Exact enumeration visits about this many (combination, board) deals per second on one
// core (the rank-multiset counting of exact_equity.cpp touches only a few percent of them).
constexpr double kExactDealsLimit = 4e9;

// Validates the request and drops the combinations that touch the board or dead cards.
EquityRequest prepare(const EquityRequest& request) {
  const int n = static_cast<int>(request.players.size());
  if (n < 2 || n > 10) throw InputError("equity needs 2 to 10 players, got " + std::to_string(n));
  const std::size_t b = request.board.size();
  if (b != 0 && b != 3 && b != 4 && b != 5)
    throw InputError("a board has 0, 3, 4 or 5 cards, got " + std::to_string(b));
  const CardSet board = CardSet::of(request.board);
  if (board.size() != static_cast<int>(b)) throw InputError("the board repeats a card");
  if (board.intersects(request.dead))
    throw InputError("dead cards " + (board & request.dead).to_string() + " are on the board");
  if (kMaxCards - board.size() - request.dead.size() - 2 * n < 5 - static_cast<int>(b))
    throw InputError("not enough cards left in the deck for " + std::to_string(n) +
                     " players and the board");
  EquityRequest out = request;
  for (Range& r : out.players) {
    r = r.without(board | request.dead);
    if (r.combos().empty())
      throw InputError("range '" + r.text() +
                       "' has no hand left once the board and dead cards are removed");
  }
  // At least one deal must exist: depth-first search for combinations sharing no card.
  std::function<bool(int, CardSet)> fits = [&](int player, CardSet used) {
    if (player == n) return true;
    for (const WeightedCombo& c : out.players[static_cast<std::size_t>(player)].combos())
      if (!c.cards().intersects(used) && fits(player + 1, used | c.cards())) return true;
    return false;
  };
  if (!fits(0, board | request.dead))
    throw InputError("the players' hands or ranges cannot be dealt together: they share cards");
  if (out.method != EquityMethod::kExact && !(request.target_stderr > 0) &&
      !(request.max_seconds > 0))
    throw InputError("Monte Carlo needs a standard error or a time budget");
  return out;
}

}  // namespace

const char* equity_method_name(EquityMethod m) {
  switch (m) {
    case EquityMethod::kAuto:
      return "auto";
    case EquityMethod::kExact:
      return "exact";
    case EquityMethod::kMonteCarlo:
      return "monte-carlo";
  }
  return "?";
}

EquityMethod choose_equity_method(const EquityRequest& request) {
  if (request.method != EquityMethod::kAuto) return request.method;
  // Upper bound on the deals enumerated: product of range sizes times boards.
  const CardSet blocked = CardSet::of(request.board) | request.dead;
  double deals = 1;
  for (const Range& r : request.players)
    deals *= static_cast<double>(r.without(blocked).combos().size());
  const int deck = kMaxCards - blocked.size() - 2 * static_cast<int>(request.players.size());
  deals *=
      static_cast<double>(binomial(std::max(deck, 0), 5 - static_cast<int>(request.board.size())));
  return deals <= kExactDealsLimit ? EquityMethod::kExact : EquityMethod::kMonteCarlo;
}

EquityResult compute_equity(const EquityRequest& request) {
  EquityRequest prepared = prepare(request);
  prepared.method = choose_equity_method(prepared);
  return prepared.method == EquityMethod::kExact ? equity::exact_equity(prepared)
                                                 : equity::monte_carlo_equity(prepared);
}

}  // namespace hulhe
