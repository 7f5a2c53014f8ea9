#include "server/table_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "game/card.h"
#include "human_play/strategy_grid.h"
#include "server/api_error.h"
#include "server/deadline_http_server.h"
#include "server/play_session.h"
#include "server/session_registry.h"
#include "server/strategy_grid_json.h"
#include "server/web_assets.h"
#include "util/input_error.h"
#include "util/printable_text.h"
#include "util/split_mix64.h"

namespace hulhe::server {
namespace {

using nlohmann::json;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Text from a request (a path, a name, a card) may hold bytes that are not UTF-8; they reach
// the JSON as U+FFFD instead of making dump() throw (which, from the error handler, used to
// abort the server: `GET /%ff`).
void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, status, {{"error", message}, {"status", status}});
}

// The request's body as a JSON object; an empty body is {}. Anything else is a 400.
json body_object(const httplib::Request& req) {
  if (req.body.empty()) return json::object();
  json j = json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw ApiError(400, "the request body is not valid JSON");
  if (!j.is_object()) throw ApiError(400, "the request body must be a JSON object");
  return j;
}

// A player's name: 1 to 40 characters, printable ASCII or UTF-8 letters, no control bytes,
// not blank. The store keys players by it.
std::string player_name(const json& value) {
  if (!value.is_string()) throw ApiError(400, "\"player\" must be a string (the player's name)");
  const std::string name = value.get<std::string>();
  if (name.empty() || name.size() > 40)
    throw ApiError(400, "a player's name has 1 to 40 characters");
  if (first_invalid_utf8(name) != std::string_view::npos)
    throw ApiError(400, "a player's name must be UTF-8 text");
  bool blank = true;
  for (const unsigned char c : name) {
    if (c < 0x20 || c == 0x7f)
      throw ApiError(400, "a player's name may not hold control characters");
    if (c != ' ') blank = false;
  }
  if (blank) throw ApiError(400, "a player's name may not be blank");
  return name;
}

// Cards as people type them: "ah kd 7c" is "Ah Kd 7c" (rank letters upper case, suits lower
// case; the two sets do not overlap, so this cannot turn one card into another).
std::string card_letters_normalised(std::string text) {
  for (char& c : text) {
    const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper == 'A' || upper == 'K' || upper == 'Q' || upper == 'J' || upper == 'T') c = upper;
    if (upper == 'C' || upper == 'D' || upper == 'H' || upper == 'S')
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

json profile_json(const PlayerProfile& p) {
  json results = json::array();
  for (const LifetimeResult& r : p.results)
    results.push_back({{"game", r.game},
                       {"hands", r.hands},
                       {"chips", r.chips},
                       {"mbb_per_game", r.mbb_per_game},
                       {"ci95_mbb", r.ci95_mbb}});
  return {{"player", p.name}, {"known", p.known}, {"since", p.created_at}, {"results", results}};
}

}  // namespace

struct TableServer::Impl {
  Opponent opponent;
  PlayStore& store;
  ServeLimits limits;
  std::uint64_t seed;
  SessionRegistry<PlaySession> sessions;
  std::mutex counter_mutex;
  std::int64_t sessions_started = 0;
  DeadlineHttpServer http;
  std::function<double()> clock;  // empty: seconds_now()

  Impl(Opponent o, PlayStore& s, ServeLimits l, std::uint64_t sd, std::function<double()> c)
      : opponent(std::move(o)),
        store(s),
        limits(l),
        seed(sd),
        sessions(l.max_sessions, l.idle_seconds,
                 [this](const std::string& id, SessionRegistry<PlaySession>::Entry& entry) {
                   finish_abandoned(id, entry);
                 }),
        http(l.request_seconds),
        clock(std::move(c)) {
    routes();
  }

  double now() const { return clock ? clock() : seconds_now(); }

  // A session leaving the registry (expired, evicted, the server stopping) with a hand
  // running: the hand ends by the person's fold and is stored, so that leaving a losing
  // hand never escapes it (docs/serve-api.md#sessions).
  void finish_abandoned(const std::string& id, SessionRegistry<PlaySession>::Entry& entry) {
    std::lock_guard lock(entry.mutex);
    try {
      entry.session->abandon_hand();
      entry.session->store_completed_hands(hand_writer(id));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hulhe serve: session %s: the abandoned hand was not stored: %s\n",
                   id.c_str(), e.what());
    }
  }

  // Runs `handler`, turning what the client got wrong into its 4xx answer: ApiError as it
  // says, InputError (an illegal action, a bad card or sequence) as 400.
  template <typename Handler>
  httplib::Server::Handler guarded(Handler handler) {
    return [handler](const httplib::Request& req, httplib::Response& res) {
      try {
        handler(req, res);
      } catch (const ApiError& e) {
        send_error(res, e.status(), e.what());
      } catch (const InputError& e) {
        send_error(res, 400, e.what());
      }
    };
  }

  std::shared_ptr<SessionRegistry<PlaySession>::Entry> session(const httplib::Request& req) {
    const std::string id = req.matches[1];
    auto entry = sessions.find(id, now());
    if (entry == nullptr)
      throw ApiError(404, "no session '" + id + "' (unknown, or expired after " +
                              std::to_string(static_cast<long>(limits.idle_seconds)) +
                              " s idle); start one with POST /api/session");
    return entry;
  }

  // Stores one hand the session `id` completed (PlaySession retries it and, failing, undoes
  // the step and answers 503): an answered hand is a stored hand.
  PlaySession::StoreHand hand_writer(const std::string& id) {
    return [this, id](StoredHand& h) {
      h.session = id;
      store.record_hand(h);
    };
  }

  // POST /api/session/<id>/<name>: the session of the id (404 if none), its body checked by
  // `check`, then step(session, body, the body's state number, the hand writer) under the
  // session's lock, answered with the state it returns.
  template <typename Check, typename Step>
  void post_session_step(const std::string& name, Check check, Step step) {
    http.Post(R"(/api/session/([0-9a-f]{1,32})/)" + name,
              guarded([this, check, step](const httplib::Request& req, httplib::Response& res) {
                const json body = body_object(req);
                auto entry = session(req);
                check(body);
                const auto number = PlaySession::requested_state_number(body);
                std::lock_guard lock(entry->mutex);
                json state = step(*entry->session, body, number, hand_writer(req.matches[1]));
                send_json(res, 200, state);
              }));
  }

  void routes() {
    http.set_payload_max_length(limits.max_body_bytes);
    // SO_REUSEADDR only: a restarted server binds at once past TIME_WAIT, but a port some
    // server listens on is refused. httplib's default adds SO_REUSEPORT, with which a second
    // `hulhe serve` on the same port would start and share the connections.
    http.set_socket_options([](socket_t sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    http.set_read_timeout(10, 0);
    http.set_write_timeout(10, 0);
    const int threads = limits.threads < 1 ? 1 : limits.threads;
    // Connections wait for a free thread in this queue; each holds one for at most the request
    // deadline (plus the keep-alive wait), so slow clients delay others by seconds, not forever.
    http.new_task_queue = [threads] {
      return new httplib::ThreadPool(static_cast<std::size_t>(threads));
    };
    // Whatever reaches here without a body of ours (an unknown route, a body over the
    // limit, a bad request line) still gets a JSON error.
    http.set_error_handler(httplib::Server::HandlerWithResponse(
        [](const httplib::Request& req, httplib::Response& res) {
          if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
          std::string message = "HTTP status " + std::to_string(res.status);
          if (res.status == 404)
            message = "no such route: " + printable(req.method.substr(0, 20)) + " " +
                      printable(req.path.substr(0, 200));
          else if (res.status == 413)
            message = "the request body is too large";
          else if (res.status == 414)
            message = "the request's URI is too long";
          else if (res.status == 400)
            message = "bad request (a POST needs a body with its Content-Length: send {} for none)";
          send_error(res, res.status, message);
          return httplib::Server::HandlerResponse::Handled;
        }));
    http.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
          std::string message = "internal error";
          try {
            std::rethrow_exception(ep);
          } catch (const std::exception& e) {
            message += std::string(": ") + e.what();
          } catch (...) {
          }
          send_error(res, 500, message);
        });

    for (const WebAsset& asset : web_assets()) {
      auto serve_asset = [&asset](const httplib::Request&, httplib::Response& res) {
        res.set_content(std::string(asset.content), std::string(asset.content_type).c_str());
      };
      http.Get(std::string(asset.path), serve_asset);
      if (asset.path == "/index.html") http.Get("/", serve_asset);
    }

    http.Get("/api/info", guarded([this](const httplib::Request&, httplib::Response& res) {
               const GameDefinition& g = opponent.game;
               json board = json::array();
               for (int r = 0; r < g.num_rounds; ++r) board.push_back(g.num_board_cards[r]);
               send_json(res, 200,
                         {{"game", g.name},
                          {"opponent", opponent.name},
                          {"rounds", g.num_rounds},
                          {"hole_cards", g.num_hole_cards},
                          {"board_cards", board},
                          {"big_blind", g.big_blind()},
                          {"explorer", opponent.policy != nullptr && g.num_hole_cards == 2},
                          {"max_sessions", limits.max_sessions},
                          {"idle_seconds", limits.idle_seconds}});
             }));

    http.Get("/api/explorer", guarded([this](const httplib::Request& req, httplib::Response& res) {
               if (opponent.policy == nullptr)
                 throw ApiError(404,
                                "the opponent '" + opponent.name +
                                    "' decides at play time and has no strategy table to explore");
               const std::string sequence = req.get_param_value("sequence");
               const std::vector<Card> board =
                   parse_cards(card_letters_normalised(req.get_param_value("board")));
               const StrategyGrid grid = strategy_grid(*opponent.policy, sequence, board);
               send_json(res, 200, strategy_grid_json(grid, opponent.name));
             }));

    http.Get(R"(/api/player/(.+))",
             guarded([this](const httplib::Request& req, httplib::Response& res) {
               const std::string name = player_name(json(std::string(req.matches[1])));
               send_json(res, 200, profile_json(store.profile(name)));
             }));

    http.Post("/api/session", guarded([this](const httplib::Request& req, httplib::Response& res) {
                const json body = body_object(req);
                const std::string player = player_name(body.value("player", json("guest")));
                std::int64_t number = 0;
                {
                  std::lock_guard lock(counter_mutex);
                  number = sessions_started++;
                }
                store.ensure_player(player);
                auto s = std::make_unique<PlaySession>(opponent, player,
                                                       SplitMix64::for_iteration(seed, number)());
                const std::string id = sessions.add(std::move(s), now());
                auto entry = sessions.find(id, now());
                std::lock_guard lock(entry->mutex);
                json state = entry->session->state();
                send_json(res, 201,
                          {{"session", id},
                           {"player", player},
                           {"profile", profile_json(store.profile(player))},
                           {"state", state}});
              }));

    const auto any_body = [](const json&) {};
    post_session_step("hand", any_body,
                      [](PlaySession& s, const json&, auto number, const auto& writer) {
                        return s.new_hand(number, writer);
                      });
    post_session_step(
        "act",
        [](const json& body) {
          if (!body.contains("action") || !body["action"].is_string())
            throw ApiError(400,
                           "act needs {\"action\": \"fold\" | \"call\" | \"check\" | "
                           "\"bet\" | \"raise\"} (or \"f\", \"c\", \"r\")");
        },
        [](PlaySession& s, const json& body, auto number, const auto& writer) {
          return s.act(body["action"].get<std::string>(), number, writer);
        });
    post_session_step("leave", any_body,
                      [](PlaySession& s, const json&, auto number, const auto& writer) {
                        return s.leave(number, writer);
                      });

    http.Get(R"(/api/session/([0-9a-f]{1,32}))",
             guarded([this](const httplib::Request& req, httplib::Response& res) {
               auto entry = session(req);
               std::lock_guard lock(entry->mutex);
               send_json(res, 200, entry->session->state());
             }));

    http.Get(R"(/api/session/([0-9a-f]{1,32})/totals)",
             guarded([this](const httplib::Request& req, httplib::Response& res) {
               auto entry = session(req);
               std::lock_guard lock(entry->mutex);
               json totals = entry->session->totals();
               totals["profile"] = profile_json(store.profile(entry->session->player()));
               send_json(res, 200, totals);
             }));

    http.Get(R"(/api/session/([0-9a-f]{1,32})/history)",
             guarded([this](const httplib::Request& req, httplib::Response& res) {
               auto entry = session(req);
               std::lock_guard lock(entry->mutex);
               res.set_header("Content-Disposition", "attachment; filename=\"hulhe-" +
                                                         std::string(req.matches[1]) + ".log\"");
               res.set_content(entry->session->history(), "text/plain; charset=utf-8");
             }));
  }
};

TableServer::TableServer(Opponent opponent, PlayStore& store, ServeLimits limits,
                         std::uint64_t seed, std::function<double()> clock)
    : impl_(std::make_unique<Impl>(std::move(opponent), store, limits, seed, std::move(clock))) {}

TableServer::~TableServer() = default;

int TableServer::bind(const std::string& host, int port) {
  if (port < 0 || port > 65535)
    throw InputError("--port " + std::to_string(port) + " is not a TCP port (0 to 65535)");
  if (port == 0) {
    const int bound = impl_->http.bind_to_any_port(host);
    if (bound <= 0) throw InputError("cannot listen on " + host + " (no free port)");
    return bound;
  }
  if (!impl_->http.bind_to_port(host, port))
    throw InputError("cannot listen on " + host + ":" + std::to_string(port) +
                     " (in use, not an address of this machine, or a privileged port)");
  return port;
}

void TableServer::serve() {
  impl_->http.listen_after_bind();
  // Every request has finished: the hands running in live sessions end and are stored.
  impl_->sessions.clear();
}

std::string TableServer::handle_raw_request(std::string_view request) {
  return impl_->http.handle(request);
}

void TableServer::stop() {
  impl_->http.stop();
}

}  // namespace hulhe::server
