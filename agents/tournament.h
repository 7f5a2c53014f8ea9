#pragma once
// A round-robin tournament: every pair of agents plays a match (agents/match.h), and the
// field is ranked the two ways of the ACPC (Bard's thesis, 2013; the competition's rules):
//   Total Bankroll             by each agent's mean winnings against all the others;
//   Bankroll Instant Run-off   repeatedly drop the agent with the lowest mean winnings
//                              against the agents still in; the last one standing wins, and
//                              agents rank in reverse order of elimination.
// Neighbours in a ranking are statistically tied when the difference of their scores is
// within 1.96 standard errors (matches are independent; the standard error of a cross-table
// entry is its 95% half-width / 1.96). In the run-off, the scores compared are those
// against the agents left when the lower one of the two was eliminated.
#include <cstdint>
#include <string>
#include <vector>

#include "agents/match.h"
#include "game/game_definition.h"
#include "util/progress.h"

namespace hulhe {

// win[i][j]: mbb/g agent i won against agent j (= -win[j][i]); ci95[i][j]: its 95%
// half-width. Diagonal entries are unused.
struct CrossTable {
  std::vector<std::string> names;
  std::vector<std::vector<double>> win;
  std::vector<std::vector<double>> ci95;

  int size() const { return static_cast<int>(names.size()); }
  // Mean of win[i][j] over j in `field` (j != i), and its 95% half-width.
  double score(int i, const std::vector<int>& field) const;
  double score_ci95(int i, const std::vector<int>& field) const;
  // Whether score(i) - score(k) over `field` is within 1.96 standard errors of 0.
  bool tied(int i, int k, const std::vector<int>& field) const;
};

struct RankEntry {
  int agent = 0;
  double score = 0;  // mean mbb/g against the field it was ranked in
  double ci95 = 0;
  bool tied_with_next = false;
};

// Best first. Equal scores keep the agents' order.
std::vector<RankEntry> total_bankroll_ranking(const CrossTable& table);
std::vector<RankEntry> instant_runoff_ranking(const CrossTable& table);

struct TournamentResult {
  CrossTable table;
  std::vector<MatchResult> matches;  // i < j, in order (0,1), (0,2), ..., (1,2), ...
  std::vector<RankEntry> total_bankroll;
  std::vector<RankEntry> instant_runoff;
  double seconds = 0;
};

// Every pair plays `config` (same seed, so the same deals: common random numbers).
// `progress`, when set, is told before each match: matches done (the index of the next), in
// all, and the seconds since the start; within a match, config.on_progress is told hands.
TournamentResult play_tournament(const GameDefinition& game, const std::vector<AgentSource>& agents,
                                 const MatchConfig& config, const ProgressCallback& progress = {});

}  // namespace hulhe
