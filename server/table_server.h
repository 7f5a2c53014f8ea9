#pragma once
// The HTTP server of `hulhe serve` (cpp-httplib): the page of web/, and the JSON API under
// /api/ (docs/serve-api.md) through which the page, a script or another program plays
// heads-up limit poker against one opponent (a strategy file or a bot) and explores its
// strategy. Every request a client gets wrong (malformed JSON, an illegal or out-of-turn
// action, an unknown session, a body over the limit, an unknown route) is answered with a
// 4xx and {"error": ..., "status": ...} and changes nothing. Completed hands go to the
// PlayStore before the answer that completes them is sent.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "server/opponent.h"
#include "server/play_store.h"

namespace hulhe::server {

struct ServeLimits {
  std::size_t max_sessions = 256;      // live sessions at once (the least recent goes first)
  double idle_seconds = 1800;          // a session unused this long expires
  std::size_t max_body_bytes = 16384;  // larger request bodies get 413
  int threads = 32;                    // requests served at once
  double request_seconds = 2;          // a request must arrive whole this soon after its first
                                       // byte (server/deadline_http_server.h)
};

class TableServer {
 public:
  // `seed` seeds the deals and the opponent's choices (hulhe serve draws it from the OS unless
  // --seed is given); session ids always come from the OS. `clock` gives the seconds on a
  // steady clock that session expiry reads (empty: std::chrono::steady_clock); tests pass a
  // clock of their own to let sessions expire without sleeping.
  TableServer(Opponent opponent, PlayStore& store, ServeLimits limits, std::uint64_t seed,
              std::function<double()> clock = {});
  ~TableServer();
  TableServer(const TableServer&) = delete;
  TableServer& operator=(const TableServer&) = delete;

  // Binds `host`:`port` (0: a free port); returns the port. InputError when it cannot.
  int bind(const std::string& host, int port);
  // Serves until stop() (from any thread); returns then.
  void serve();
  // Stops serving (from any thread; a signal's watcher): serve() returns once the requests
  // in flight finish, after the hands running in live sessions are ended and stored.
  void stop();
  // One request given as raw bytes, through the same parsing and routing as one from a
  // socket; the raw response (the HTTP fuzz harness, tests).
  std::string handle_raw_request(std::string_view request);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hulhe::server
