// Exact and Monte Carlo equity of hands and ranges, in the grammar of `hulhe equity`.
#include <fmt/core.h>
#include <omp.h>

#include <string>
#include <vector>

#include "game/equity/equity_calculator.h"
#include "python/bindings.h"
#include "util/input_error.h"

namespace hulhe::python {
namespace {

// `hulhe equity --exact` refuses an enumeration estimated above this (cli/command_equity.cpp).
constexpr double kExactSecondsLimit = 10;

py::dict player_dict(const Range& range, const PlayerEquity& p, const EquityResult& r,
                     std::size_t i) {
  py::dict categories;
  for (int k = 0; k < kNumHandCategories; ++k)
    categories[category_name(static_cast<HandCategory>(k))] =
        p.categories[static_cast<std::size_t>(k)];
  py::dict d;
  d["range"] = range.text();
  d["equity"] = p.equity;
  d["win"] = p.win;
  d["tie"] = p.tie;
  d["categories"] = categories;
  if (r.method == EquityMethod::kMonteCarlo) d["stderr"] = r.stderrs[i];
  return d;
}

py::dict equity(const std::vector<std::string>& players, const py::object& board,
                const py::object& dead, const std::string& method, double target_stderr,
                double seconds, int threads, std::uint64_t seed) {
  EquityRequest request;
  for (const std::string& p : players) request.players.push_back(Range::parse(p));
  if (!board.is_none()) request.board = cards_arg(board);
  if (!dead.is_none()) request.dead = CardSet::of(cards_arg(dead));
  if (method == "exact")
    request.method = EquityMethod::kExact;
  else if (method == "monte-carlo")
    request.method = EquityMethod::kMonteCarlo;
  else if (method == "auto")
    request.method = EquityMethod::kAuto;
  else
    throw InputError("method is 'auto', 'exact' or 'monte-carlo'; got '" + method + "'");
  if (!(target_stderr > 0 && target_stderr < 1)) throw InputError("stderr must be in (0, 1)");
  if (!(seconds >= 0)) throw InputError("seconds must be 0 (no limit) or more");
  if (threads < 0) throw InputError("threads must be 0 (all cores) or more");
  request.target_stderr = target_stderr;
  request.max_seconds = seconds;
  request.threads = threads;
  request.seed = seed;
  if (request.method == EquityMethod::kExact) {
    const int t = threads > 0 ? threads : omp_get_max_threads();
    const ExactWork w = estimate_exact_work(request, t);
    if (w.seconds > kExactSecondsLimit)
      throw InputError(fmt::format(
          "exact equity would enumerate {:.3g} deals of the players' hands in about {:.3g} "
          "classes, an estimated {:.0f} s on {} thread{} (the limit is {:.0f} s); estimate it "
          "instead with method='monte-carlo'",
          w.deals, w.classes, w.seconds, t, t == 1 ? "" : "s", kExactSecondsLimit));
  }
  EquityResult result;
  {
    py::gil_scoped_release release;
    result = compute_equity(request);
  }
  py::list out;
  for (std::size_t i = 0; i < result.players.size(); ++i)
    out.append(player_dict(request.players[i], result.players[i], result, i));
  py::dict d;
  d["players"] = out;
  d["method"] = equity_method_name(result.method);
  d["combinations"] = result.combinations;
  d["seconds"] = result.seconds;
  d["board"] = cards_to_string(request.board);
  d["dead"] = request.dead.to_string();
  if (result.method == EquityMethod::kMonteCarlo) d["stderr"] = result.stderr_max;
  return d;
}

}  // namespace

void bind_equity(py::module_& m) {
  m.def(
      "equity",
      [](const py::args& args, const py::object& board, const py::object& dead,
         const std::string& method, double target_stderr, double seconds, int threads,
         std::uint64_t seed) {
        std::vector<std::string> players;
        for (py::handle a : args) players.push_back(py::str(a).cast<std::string>());
        return equity(players, board, dead, method, target_stderr, seconds, threads, seed);
      },
      py::arg("board") = py::none(), py::arg("dead") = py::none(), py::arg("method") = "auto",
      py::arg("stderr") = 0.001, py::arg("seconds") = 0.0, py::arg("threads") = 0,
      py::arg("seed") = 1,
      "Win, tie and equity of 2 to 10 hands or ranges, as `hulhe equity --json` prints them.\n\n"
      "equity('AhKh', 'QsQd'); equity('AsKs', 'QQ+,AKs:0.5', 'random', board='Qs7h2d', "
      "dead='2c', method='monte-carlo', stderr=0.002, seed=7).\n"
      "Ranges: AhKh, AKs, AKo, AK, QQ+, A5s-A2s, KTo+, 22-55, random, AKs:0.5, comma lists.\n"
      "method: 'auto' (exact when small), 'exact' (refused above an estimated 10 s), "
      "'monte-carlo' (until every equity has standard error `stderr`, or `seconds`).\n"
      "Returns a dict: players (range, equity, win, tie, categories, stderr), method, "
      "combinations, seconds, board, dead, stderr. Runs without the GIL.");
}

}  // namespace hulhe::python
