#include "game/dealer_log.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "game/match_state.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

double parse_value(std::string_view s, std::string_view line) {
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v))
    throw InputError("bad value '" + std::string(s) + "' in '" + std::string(line) + "'");
  return v;
}

std::string value_string(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return std::to_string(static_cast<std::int64_t>(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

// Values and names, '|'-separated, one per position.
template <typename F>
void per_position(std::string_view field, int n, std::string_view what, std::string_view line,
                  F&& each) {
  const auto parts = split_fields(field, '|');
  if (static_cast<int>(parts.size()) != n)
    throw InputError("expected " + std::to_string(n) + " " + std::string(what) + " in '" +
                     std::string(line) + "'");
  for (std::string_view p : parts) each(p);
}

}  // namespace

LogStateLine parse_log_state(std::string_view line, const GameDefinition& game) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  const auto f = split_fields(line, ':');
  if (f.size() != 6 || f[0] != "STATE")
    throw InputError("expected STATE:<hand>:<betting>:<cards>:<values>:<names>, got '" +
                     std::string(line) + "'");
  std::uint32_t hand = 0;
  {
    auto [ptr, ec] = std::from_chars(f[1].data(), f[1].data() + f[1].size(), hand);
    if (f[1].empty() || ec != std::errc() || ptr != f[1].data() + f[1].size())
      throw InputError("bad hand number '" + std::string(f[1]) + "'");
  }
  LogStateLine s{GameState(game, hand), {}, {}};
  s.state.apply_betting(f[2]);
  if (!s.state.finished())
    throw InputError("betting '" + std::string(f[2]) + "' does not end the hand");
  parse_state_cards(f[3], s.state, true);
  per_position(f[4], game.num_players, "values", line,
               [&](std::string_view v) { s.values.push_back(parse_value(v, line)); });
  per_position(f[5], game.num_players, "names", line, [&](std::string_view v) {
    if (v.empty()) throw InputError("empty player name in '" + std::string(line) + "'");
    s.names.emplace_back(v);
  });
  return s;
}

std::string log_state_string(const LogStateLine& s) {
  std::string out = "STATE:";
  out += std::to_string(s.state.hand_id());
  out += ':';
  out += s.state.betting_string();
  out += ':';
  out += state_cards_string(s.state);
  out += ':';
  for (std::size_t p = 0; p < s.values.size(); ++p) {
    if (p > 0) out += '|';
    out += value_string(s.values[p]);
  }
  out += ':';
  for (std::size_t p = 0; p < s.names.size(); ++p) {
    if (p > 0) out += '|';
    out += s.names[p];
  }
  return out;
}

LogReport replay_log(std::istream& in, const GameDefinition& game) {
  LogReport report;
  struct Sums {
    std::int64_t n = 0;
    double sum = 0, sum_sq = 0;
  };
  std::unordered_map<std::string, std::size_t> index;
  std::vector<Sums> sums;
  auto player = [&](const std::string& name) -> std::size_t {
    auto [it, added] = index.emplace(name, report.players.size());
    if (added) {
      report.players.push_back(LogPlayer{name});
      sums.emplace_back();
    }
    return it->second;
  };
  std::vector<std::pair<std::string, double>> score;
  int score_line = 0;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    try {
      if (line.starts_with("SCORE:")) {
        const auto f = split_fields(line, ':');
        if (f.size() != 3) throw InputError("expected SCORE:<totals>:<names>");
        const auto totals = split_fields(f[1], '|');
        const auto names = split_fields(f[2], '|');
        if (totals.size() != names.size())
          throw InputError("SCORE totals and names differ in number");
        score.clear();
        for (std::size_t i = 0; i < totals.size(); ++i)
          score.emplace_back(std::string(names[i]), parse_value(totals[i], line));
        report.has_score = true;
        score_line = line_no;
        continue;
      }
      const LogStateLine s = parse_log_state(line, game);
      ++report.hands;
      bool mismatch = false;
      std::string recomputed;
      for (int p = 0; p < game.num_players; ++p) {
        const double v = s.state.value(p);
        if (p > 0) recomputed += '|';
        recomputed += value_string(v);
        // ACPC values are whole chips, or shares of a split pot printed with decimals.
        if (std::fabs(v - s.values[p]) > 1e-6 * std::max(1.0, std::fabs(v))) mismatch = true;
      }
      if (mismatch) {
        ++report.mismatches;
        report.problems.push_back({line_no, "hand " + std::to_string(s.state.hand_id()) +
                                                ": the log says " +
                                                std::string(split_fields(line, ':')[4]) +
                                                ", the rules say " + recomputed});
      }
      for (int p = 0; p < game.num_players; ++p) {
        Sums& x = sums[player(s.names[p])];
        ++x.n;
        x.sum += s.values[p];
        x.sum_sq += s.values[p] * s.values[p];
      }
    } catch (const InputError& e) {
      ++report.bad_lines;
      report.problems.push_back({line_no, e.what()});
    }
  }
  const double mbb = 1000.0 / game.big_blind();
  for (std::size_t i = 0; i < report.players.size(); ++i) {
    LogPlayer& p = report.players[i];
    const Sums& x = sums[i];
    p.hands = x.n;
    p.total = x.sum;
    const double mean = x.sum / static_cast<double>(x.n);
    p.mbb_per_game = mean * mbb;
    if (x.n > 1) {
      // Sample variance of the per-hand results.
      const double var = std::max(0.0, (x.sum_sq - x.sum * mean) / static_cast<double>(x.n - 1));
      p.ci95_mbb = 1.96 * std::sqrt(var / static_cast<double>(x.n)) * mbb;
    }
  }
  for (const auto& [name, total] : score) {
    auto it = index.find(name);
    const double ours = it == index.end() ? 0.0 : report.players[it->second].total;
    if (std::fabs(ours - total) > 1e-6 * std::max(1.0, std::fabs(total))) {
      report.score_matches = false;
      report.problems.push_back(
          {score_line, "SCORE line gives " + name + " " + value_string(total) +
                           ", the STATE lines add up to " + value_string(ours)});
    }
  }
  return report;
}

}  // namespace hulhe
