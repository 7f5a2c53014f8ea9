#include "acpc/acpc_dealer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

#include "game/dealer_log.h"
#include "game/match_state.h"
#include "util/input_error.h"
#include "util/printable_text.h"

namespace hulhe {
namespace {

constexpr std::size_t kMaxWarnings = 20;

std::string seat_label(const DealerConfig& c, int seat) {
  return "seat " + std::to_string(seat + 1) + " (" + c.names[seat] + ")";
}

std::string value_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return std::to_string(static_cast<std::int64_t>(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

// What `viewer` sees of `full`: its own hole cards, and after a showdown (the hand ended
// with two or more players in) those of every player who did not fold (game.c
// printMatchState).
GameState view_of(const GameState& full, const GameState& no_holes, int viewer) {
  GameState view = no_holes;
  const int n = full.game().num_players;
  const bool showdown = full.finished() && full.num_folded() + 1 < n;
  for (int p = 0; p < n; ++p)
    if (p == viewer || (showdown && !full.folded(p))) view.set_hole_cards(p, full.hole_cards(p));
  return view;
}

// "VERSION:2.<minor>.<revision>" (dealer.c reads it with sscanf "VERSION:%u.%u.%u" and
// needs major 2), checked on all of the line's bytes.
bool is_version_2(std::string_view line) {
  constexpr std::string_view kPrefix = "VERSION:2.";
  if (!line.starts_with(kPrefix)) return false;
  line.remove_prefix(kPrefix.size());
  const std::size_t dot = line.find('.');
  auto number = [](std::string_view s) {
    return !s.empty() && s.size() <= 9 &&
           s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  return dot != std::string_view::npos && number(line.substr(0, dot)) &&
         number(line.substr(dot + 1));
}

}  // namespace

std::string score_line(const std::vector<double>& totals, const std::vector<std::string>& names) {
  std::string s = "SCORE";
  for (std::size_t i = 0; i < totals.size(); ++i) {
    s.push_back(i ? '|' : ':');
    s.append(value_text(totals[i]));
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    s.push_back(i ? '|' : ':');
    s.append(names[i]);
  }
  return s;
}

AcpcDealer::AcpcDealer(DealerConfig config) : config_(std::move(config)) {
  const int n = config_.game.num_players;
  if (config_.hands < 0) throw InputError("--hands must be at least 0");
  if (config_.names.empty())
    for (int s = 0; s < n; ++s) config_.names.push_back("player" + std::to_string(s + 1));
  if (static_cast<int>(config_.names.size()) != n)
    throw InputError("the game " + config_.game.name + " has " + std::to_string(n) +
                     " players, but " + std::to_string(config_.names.size()) + " names were given");
  for (const std::string& name : config_.names)
    if (name.empty() || name.find_first_of(":|\r\n ") != std::string::npos)
      throw InputError("player name '" + name + "' may not be empty or contain ':', '|' or spaces");
  if (config_.ports.empty()) config_.ports.assign(n, 0);
  if (static_cast<int>(config_.ports.size()) != n)
    throw InputError("the game " + config_.game.name + " has " + std::to_string(n) +
                     " players, but " + std::to_string(config_.ports.size()) + " ports were given");
  if (config_.timeout_ms <= 0) throw InputError("--timeout-ms must be positive");
  for (int port : config_.ports) {
    listeners_.emplace_back(port);
    ports_.push_back(listeners_.back().port());
  }
}

DealerResult AcpcDealer::run(std::ostream* log, const ProgressCallback& progress) {
  const GameDefinition& game = config_.game;
  const int n = game.num_players;
  const int timeout = config_.timeout_ms;
  DealerResult result;
  result.totals.assign(n, 0.0);
  auto warn = [&](const std::string& w) {
    if (result.warnings.size() < kMaxWarnings) result.warnings.push_back(w);
  };

  // Connections in seat order, then each seat's version line (dealer.c).
  std::vector<LineConnection> seats;
  for (int s = 0; s < n; ++s) {
    seats.push_back(listeners_[s].accept(timeout));
    if (!seats.back().is_open())
      throw InputError(seat_label(config_, s) + " did not connect to port " +
                       std::to_string(ports_[s]) + " within " + std::to_string(timeout) + " ms");
  }
  std::string line;
  for (int s = 0; s < n; ++s) {
    const auto read = seats[s].read_line(line, timeout);
    if (read != LineConnection::Read::kLine)
      throw InputError(seat_label(config_, s) + " sent no version line " +
                       (read == LineConnection::Read::kTimeout
                            ? "within " + std::to_string(timeout) + " ms"
                            : std::string("(connection closed)")));
    // The line is a byte string: a NUL inside must not end it (sscanf on c_str() would read
    // "VER\0SION:2.0.0" as "VER"), so the whole line is checked and shown escaped.
    if (!is_version_2(line))
      throw InputError(seat_label(config_, s) + " sent " + quoted_bytes(line) +
                       ", expected the protocol version VERSION:2.0.0");
  }

  if (log != nullptr) {
    *log << "# name/game/hands/seed hulhe " << config_.game_file << ' ' << config_.hands << ' '
         << config_.seed << '\n'
         << "#--t_response " << timeout << '\n';
  }

  std::mt19937 genrand(config_.seed);  // ACPC init_genrand(seed)
  const auto started = std::chrono::steady_clock::now();
  auto last_progress = started;
  std::vector<std::string> position_names(n);
  for (std::int64_t h = 0; h < config_.hands; ++h) {
    const auto hand = static_cast<std::uint32_t>(h);
    const AcpcDeal deal = deal_acpc_cards(game, genrand);
    GameState no_holes(game, hand);
    for (std::size_t i = 0; i < deal.board.size(); ++i)
      no_holes.set_board_card(static_cast<int>(i), deal.board[i]);
    GameState full = no_holes;
    for (int p = 0; p < n; ++p) full.set_hole_cards(p, deal.hole[p].data());
    // Position p is played by seat (p + hand) mod n; seat s is position (s - hand) mod n.
    auto seat_of = [&](int position) { return static_cast<int>((position + h) % n); };
    auto position_of = [&](int seat) { return static_cast<int>(((seat - h) % n + n) % n); };

    auto send_all = [&] {
      for (int s = 0; s < n; ++s) {
        const int position = position_of(s);
        const MatchState ms{position, view_of(full, no_holes, position)};
        if (!seats[s].write_line(ms.to_string()))
          throw InputError(seat_label(config_, s) + " closed its connection in hand " +
                           std::to_string(hand));
      }
    };

    while (!full.finished()) {
      send_all();
      const int position = full.current_player();
      const int s = seat_of(position);
      const std::string expected =
          MatchState{position, view_of(full, no_holes, position)}.to_string();
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout);
      BetAction action;
      for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        const auto read = seats[s].read_line(line, static_cast<int>(std::max<long long>(left, 0)));
        if (read == LineConnection::Read::kTimeout)
          throw InputError(seat_label(config_, s) + " sent no action within " +
                           std::to_string(timeout) + " ms in hand " + std::to_string(hand) +
                           " (state " + expected + ")");
        if (read == LineConnection::Read::kClosed)
          throw InputError(seat_label(config_, s) + " closed its connection in hand " +
                           std::to_string(hand));
        if (line.empty() || line[0] == '#' || line[0] == ';') continue;
        std::optional<MatchResponse> response;
        try {
          response.emplace(MatchResponse::parse(line, game));
        } catch (const InputError& e) {
          ++result.ignored_lines;
          warn(seat_label(config_, s) + ": ignored " + quoted_bytes(line) + ": " + e.what());
          continue;
        }
        if (response->match_state.to_string() != expected) {
          ++result.ignored_lines;
          warn(seat_label(config_, s) +
               ": ignored an answer to another state: " + quoted_bytes(line));
          continue;
        }
        action = response->action;
        break;
      }
      // game.c isValidAction with tryFixing, then dealer.c: invalid becomes a call.
      std::int32_t min_to = 0, max_to = 0;
      BetAction fixed = action;
      if (action.type == Action::kRaise) {
        if (!full.can_raise(&min_to, &max_to))
          fixed = {Action::kCall, 0};
        else if (game.betting_type == BettingType::kNoLimit)
          fixed.size = std::clamp(action.size, min_to, max_to);
      } else if (action.type == Action::kFold && !full.can_fold()) {
        fixed = {Action::kCall, 0};
      }
      if (!full.is_legal(fixed)) fixed = {Action::kCall, 0};
      if (!(fixed == action)) {
        ++result.fixed_actions;
        warn(seat_label(config_, s) + ": invalid action '" + action_string(action, game) +
             "' in hand " + std::to_string(hand) + " played as '" + action_string(fixed, game) +
             "'");
      }
      full.apply(fixed);
      no_holes.apply(fixed);
    }

    LogStateLine logged{full, {}, {}};
    for (int p = 0; p < n; ++p) {
      const double v = full.value(p);
      logged.values.push_back(v);
      logged.names.push_back(config_.names[seat_of(p)]);
      result.totals[seat_of(p)] += v;
    }
    if (log != nullptr) *log << log_state_string(logged) << '\n';
    send_all();
    ++result.hands;

    const auto now = std::chrono::steady_clock::now();
    if (progress && now - last_progress > std::chrono::seconds(2)) {
      last_progress = now;
      progress(progress_at("dealer", result.hands, config_.hands, result.hands,
                           std::chrono::duration<double>(now - started).count()));
    }
  }
  if (log != nullptr) {
    *log << score_line(result.totals, config_.names) << '\n';
    log->flush();
  }
  return result;
}

}  // namespace hulhe
