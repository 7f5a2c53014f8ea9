#include "agents/match.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include "game/dealer_log.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

// Salts that separate the card stream from the agents' streams.
constexpr std::uint64_t kDealSalt = 0x6a09e667f3bcc908ULL;
constexpr std::uint64_t kAgentSalt = 0xbb67ae8584caa73bULL;
constexpr std::int64_t kBlockUnits = 4096;

struct Deal {
  std::array<std::array<Card, kMaxHoleCards>, kMaxPlayers> hole{};
  std::array<Card, kMaxBoardCards> board{};
};

Deal deal_cards(const GameDefinition& game, const std::vector<Card>& deck, std::uint64_t seed,
                std::int64_t d) {
  SplitMix64 rng = SplitMix64::for_iteration(seed ^ kDealSalt, d);
  std::array<Card, kMaxCards> cards{};
  std::copy(deck.begin(), deck.end(), cards.begin());
  const int n = static_cast<int>(deck.size());
  const int board = game.total_board_cards(game.num_rounds - 1);
  const int need = game.num_players * game.num_hole_cards + board;
  for (int i = 0; i < need; ++i) {  // partial Fisher-Yates
    const int j = i + static_cast<int>(rng.below(static_cast<std::uint32_t>(n - i)));
    std::swap(cards[i], cards[j]);
  }
  Deal deal;
  int k = 0;
  for (int p = 0; p < game.num_players; ++p)
    for (int c = 0; c < game.num_hole_cards; ++c) deal.hole[p][c] = cards[k++];
  for (int c = 0; c < board; ++c) deal.board[c] = cards[k++];
  return deal;
}

// ACPC names may not hold the log's separators.
std::string log_name(std::string name) {
  for (char& c : name)
    if (c == ':' || c == '|' || c == ' ' || c == '\t') c = '_';
  return name;
}

// Plays one hand; each agent sees a state holding only its own hole cards and the board
// dealt so far. Returns the final state (with every card, for values and the log).
GameState play_hand(const GameDefinition& game, const Deal& deal, std::uint32_t hand_id,
                    Agent* const* by_position, std::uint64_t agent_seed, std::int64_t deal_index,
                    std::int64_t& illegal) {
  const int n = game.num_players;
  GameState state(game, hand_id);
  std::array<GameState, kMaxPlayers> views{state, state, state, state, state,
                                           state, state, state, state, state};
  std::array<SplitMix64, kMaxPlayers> rngs{
      SplitMix64(0), SplitMix64(0), SplitMix64(0), SplitMix64(0), SplitMix64(0),
      SplitMix64(0), SplitMix64(0), SplitMix64(0), SplitMix64(0), SplitMix64(0)};
  for (int p = 0; p < n; ++p) {
    state.set_hole_cards(p, deal.hole[p].data());
    views[p].set_hole_cards(p, deal.hole[p].data());
    rngs[p] = SplitMix64::for_iteration(agent_seed ^ kAgentSalt, deal_index * kMaxPlayers + p);
    by_position[p]->new_hand();
  }
  const int board = game.total_board_cards(game.num_rounds - 1);
  for (int c = 0; c < board; ++c) state.set_board_card(c, deal.board[c]);
  int shown = 0;  // board cards the views hold
  auto show_board = [&] {
    const int visible = game.total_board_cards(state.round());
    for (; shown < visible; ++shown)
      for (int p = 0; p < n; ++p) views[p].set_board_card(shown, deal.board[shown]);
  };
  show_board();
  while (!state.finished()) {
    const int p = state.current_player();
    BetAction a = by_position[p]->act(views[p], p, rngs[p]);
    if (!state.is_legal(a)) {
      ++illegal;
      a = {Action::kCall, 0};
    }
    state.apply(a);
    for (int q = 0; q < n; ++q) views[q].apply(a);
    show_board();
  }
  return state;
}

}  // namespace

MatchResult play_match(const GameDefinition& game, const AgentSource& a, const AgentSource& b,
                       const MatchConfig& config) {
  if (config.hands < 1) throw InputError("a match needs at least one hand");
  const int n = game.num_players;
  const int threads = std::max(1, config.threads);
  const int hands_per_unit = config.duplicate ? n : 1;
  const std::int64_t units = (config.hands + hands_per_unit - 1) / hands_per_unit;
  const std::int64_t hands = units * hands_per_unit;
  if (hands > std::int64_t{UINT32_MAX}) throw InputError("too many hands for ACPC hand numbers");
  const std::vector<Card> deck = game.deck();

  // Names by seat: A, then the copies of B (made distinct: the log sums up by name).
  std::vector<std::string> seat_names(n, log_name(b.name));
  seat_names[0] = log_name(a.name);
  if (seat_names[0] == seat_names[1]) {
    seat_names[0].append("-a");
    for (int k = 1; k < n; ++k) seat_names[k].append("-b");
  }
  if (n > 2)
    for (int k = 1; k < n; ++k) seat_names[k].append(std::to_string(k));

  // One set of agents per thread: A, then n - 1 copies of B.
  std::vector<std::vector<std::unique_ptr<Agent>>> agents(threads);
  for (auto& set : agents) {
    set.push_back(a.make());
    for (int k = 1; k < n; ++k) set.push_back(b.make());
  }

  MatchResult result;
  result.a = a.name;
  result.b = b.name;
  result.hands = hands;
  result.samples = units;
  const auto start = std::chrono::steady_clock::now();
  double sum = 0, sum_sq = 0;
  std::vector<double> seat_totals(n, 0.0);
  std::vector<double> unit_value;
  std::vector<std::string> lines;
  std::vector<std::int64_t> illegal_by_thread(threads, 0);
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const auto report = [&](std::int64_t units_done, double seconds) {
    const std::int64_t done = units_done * hands_per_unit;
    config.on_progress(progress_at("", done, hands, done, seconds));
  };
  std::atomic<std::int64_t> units_finished{0};
  double last_report = 0;  // seconds at the last report inside a block (calling thread only)
  for (std::int64_t first = 0; first < units; first += kBlockUnits) {
    const std::int64_t count = std::min(kBlockUnits, units - first);
    unit_value.assign(count, 0.0);
    if (config.log != nullptr) lines.assign(count * hands_per_unit, std::string());
    std::vector<std::array<double, kMaxPlayers>> seat_value(count);
    std::exception_ptr error;
    // Chunks of 16 deals keep the scheduling cheap for fast agents; a short block gets smaller
    // ones so that every thread (the reporting one too) has deals.
    const int chunk =
        static_cast<int>(std::clamp<std::int64_t>(count / (8 * std::int64_t{threads}), 1, 16));
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk)
    for (std::int64_t i = 0; i < count; ++i) {
      if (error) continue;
      try {
        const int t = omp_get_thread_num();
        const std::int64_t u = first + i;
        const Deal deal = deal_cards(game, deck, config.seed, u);
        std::array<double, kMaxPlayers> seats{};
        for (int s = 0; s < hands_per_unit; ++s) {
          const std::int64_t hand = u * hands_per_unit + s;
          const int a_position = static_cast<int>(hand % n);
          // seat of each position: A at a_position, B's copies in the others, in order
          std::array<int, kMaxPlayers> seat_of{};
          std::array<Agent*, kMaxPlayers> by_position{};
          for (int p = 0, k = 1; p < n; ++p) {
            seat_of[p] = p == a_position ? 0 : k++;
            by_position[p] = agents[t][seat_of[p]].get();
          }
          const GameState end = play_hand(game, deal, static_cast<std::uint32_t>(hand),
                                          by_position.data(), config.seed, u, illegal_by_thread[t]);
          LogStateLine line{end, {}, {}};
          for (int p = 0; p < n; ++p) {
            const double v = end.value(p);
            seats[seat_of[p]] += v;
            if (config.log != nullptr) {
              line.values.push_back(v);
              line.names.push_back(seat_names[seat_of[p]]);
            }
          }
          if (config.log != nullptr) lines[i * hands_per_unit + s] = log_state_string(line);
        }
        unit_value[i] = seats[0];
        seat_value[i] = seats;
        const std::int64_t finished = units_finished.fetch_add(1, std::memory_order_relaxed) + 1;
        // Thread 0 of the team is the calling thread, the only one that may report.
        if (config.on_progress && omp_get_thread_num() == 0 && finished < first + count) {
          const double seconds = elapsed();
          if (seconds - last_report >= config.progress_interval_seconds) {
            last_report = seconds;
            report(finished, seconds);
          }
        }
      } catch (...) {
#pragma omp critical(hulhe_match_error)
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);
    for (std::int64_t i = 0; i < count; ++i) {  // in hand order: independent of the threads
      sum += unit_value[i];
      sum_sq += unit_value[i] * unit_value[i];
      for (int s = 0; s < n; ++s) seat_totals[s] += seat_value[i][s];
    }
    if (config.log != nullptr)
      for (const std::string& l : lines) *config.log << l << '\n';
    if (config.on_progress) report(first + count, elapsed());
  }
  if (config.log != nullptr) {
    // ACPC's closing line: each seat's total, by name.
    *config.log << "SCORE:";
    for (int s = 0; s < n; ++s) {
      if (s > 0) *config.log << '|';
      const double v = seat_totals[s];
      char buf[64];
      if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
      else
        std::snprintf(buf, sizeof buf, "%.6f", v);
      *config.log << buf;
    }
    *config.log << ':';
    for (int s = 0; s < n; ++s) *config.log << (s > 0 ? "|" : "") << seat_names[s];
    *config.log << '\n';
  }

  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (std::int64_t x : illegal_by_thread) result.illegal_actions += x;
  result.total_chips = sum;
  const double mean = sum / static_cast<double>(units);
  result.chips_per_hand = mean / hands_per_unit;
  if (units > 1) {
    const double var = std::max(0.0, (sum_sq - sum * mean) / static_cast<double>(units - 1));
    result.ci95_chips = 1.96 * std::sqrt(var / static_cast<double>(units)) / hands_per_unit;
  }
  const double mbb = 1000.0 / std::max(1, game.big_blind());
  result.mbb_per_game = result.chips_per_hand * mbb;
  result.ci95_mbb = result.ci95_chips * mbb;
  return result;
}

}  // namespace hulhe
