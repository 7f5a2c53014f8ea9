#include "agents/tournament.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "util/input_error.h"

namespace hulhe {
namespace {

double variance(double ci95) {
  const double se = ci95 / 1.96;
  return se * se;
}

// Agents of `field` sorted by score against it, best first (stable: ties keep the order).
std::vector<RankEntry> rank_field(const CrossTable& t, const std::vector<int>& field) {
  std::vector<RankEntry> out;
  for (int i : field) out.push_back({i, t.score(i, field), t.score_ci95(i, field), false});
  std::stable_sort(out.begin(), out.end(),
                   [](const RankEntry& x, const RankEntry& y) { return x.score > y.score; });
  return out;
}

}  // namespace

double CrossTable::score(int i, const std::vector<int>& field) const {
  double s = 0;
  int n = 0;
  for (int j : field)
    if (j != i) s += win[i][j], ++n;
  return n > 0 ? s / n : 0.0;
}

double CrossTable::score_ci95(int i, const std::vector<int>& field) const {
  double v = 0;
  int n = 0;
  for (int j : field)
    if (j != i) v += variance(ci95[i][j]), ++n;
  return n > 0 ? 1.96 * std::sqrt(v) / n : 0.0;
}

bool CrossTable::tied(int i, int k, const std::vector<int>& field) const {
  // score(i) - score(k) = (1/m) [ 2 win[i][k] + sum_{j != i,k} (win[i][j] - win[k][j]) ],
  // m = |field| - 1; the matches are independent, and win[i][k] appears in both scores.
  const int m = static_cast<int>(field.size()) - 1;
  if (m < 1) return false;
  double diff = 2 * win[i][k], var = 4 * variance(ci95[i][k]);
  for (int j : field)
    if (j != i && j != k) {
      diff += win[i][j] - win[k][j];
      var += variance(ci95[i][j]) + variance(ci95[k][j]);
    }
  return std::fabs(diff) <= 1.96 * std::sqrt(var);
}

std::vector<RankEntry> total_bankroll_ranking(const CrossTable& table) {
  std::vector<int> all(table.size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<RankEntry> ranking = rank_field(table, all);
  for (std::size_t r = 0; r + 1 < ranking.size(); ++r)
    ranking[r].tied_with_next = table.tied(ranking[r].agent, ranking[r + 1].agent, all);
  return ranking;
}

std::vector<RankEntry> instant_runoff_ranking(const CrossTable& table) {
  std::vector<int> field(table.size());
  std::iota(field.begin(), field.end(), 0);
  std::vector<RankEntry> eliminated;               // worst first
  std::vector<std::vector<int>> field_at_removal;  // the field each was eliminated from
  while (field.size() > 1) {
    const std::vector<RankEntry> ranked = rank_field(table, field);
    eliminated.push_back(ranked.back());
    field_at_removal.push_back(field);
    field.erase(std::find(field.begin(), field.end(), ranked.back().agent));
  }
  if (!field.empty()) {
    // The winner's score: against the last agent it beat (its field of two).
    RankEntry winner{field[0], 0, 0, false};
    if (!field_at_removal.empty()) {
      winner.score = table.score(field[0], field_at_removal.back());
      winner.ci95 = table.score_ci95(field[0], field_at_removal.back());
    }
    eliminated.push_back(winner);
    field_at_removal.push_back(field);
  }
  std::vector<RankEntry> ranking(eliminated.rbegin(), eliminated.rend());
  const std::size_t n = ranking.size();
  for (std::size_t r = 0; r + 1 < n; ++r) {
    // The lower neighbour (rank r + 1) left the field field_at_removal[n - 2 - r].
    const std::vector<int>& f = field_at_removal[n - 2 - r];
    ranking[r].tied_with_next = table.tied(ranking[r].agent, ranking[r + 1].agent, f);
  }
  return ranking;
}

TournamentResult play_tournament(const GameDefinition& game, const std::vector<AgentSource>& agents,
                                 const MatchConfig& config, const ProgressCallback& progress) {
  const int n = static_cast<int>(agents.size());
  if (n < 2) throw InputError("a tournament needs at least two agents");
  TournamentResult result;
  CrossTable& t = result.table;
  t.win.assign(n, std::vector<double>(n, 0.0));
  t.ci95.assign(n, std::vector<double>(n, 0.0));
  // Distinct names for the table: repeated names get their place in the list appended.
  for (int i = 0; i < n; ++i) {
    std::string name = agents[i].name;
    const bool repeated = std::count_if(agents.begin(), agents.end(), [&](const AgentSource& s) {
                            return s.name == agents[i].name;
                          }) > 1;
    if (repeated) name.append("#").append(std::to_string(i + 1));
    t.names.push_back(name);
  }
  const int matches = n * (n - 1) / 2;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  int m = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (progress)
        progress(progress_at("", m, matches, m,
                             std::chrono::duration<double>(Clock::now() - start).count()));
      ++m;
      MatchResult r = play_match(game, agents[i], agents[j], config);
      r.a = t.names[i];
      r.b = t.names[j];
      t.win[i][j] = r.mbb_per_game;
      t.win[j][i] = -r.mbb_per_game;
      t.ci95[i][j] = t.ci95[j][i] = r.ci95_mbb;
      result.seconds += r.seconds;
      result.matches.push_back(std::move(r));
    }
  result.total_bankroll = total_bankroll_ranking(t);
  result.instant_runoff = instant_runoff_ranking(t);
  return result;
}

}  // namespace hulhe
