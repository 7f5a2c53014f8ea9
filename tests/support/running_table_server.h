#pragma once
// A `hulhe serve` table (server/table_server.h) on a free loopback port, serving from a thread
// of the test that holds it, with httplib's client calls answered as status, JSON body and
// text: the fixture of the server's API and session tests.
#include <httplib.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>

#include "game/game_definition.h"
#include "server/opponent.h"
#include "server/play_store.h"
#include "server/table_server.h"

namespace hulhe::testing {

struct Answer {
  int status = 0;  // 0: no answer
  nlohmann::json body;
  std::string text;
};

class RunningServer {
 public:
  // `clock`: the server's steady clock in seconds (server/table_server.h; empty: the real one).
  RunningServer(const std::string& spec, const std::optional<GameDefinition>& game,
                const std::string& db, server::ServeLimits limits = {}, std::uint64_t seed = 1,
                std::function<double()> clock = {})
      : store_(db),
        server_(server::load_opponent(spec, game), store_, limits, seed, std::move(clock)) {
    port_ = server_.bind("127.0.0.1", 0);
    thread_ = std::thread([this] { server_.serve(); });
    // The listener is bound already; wait until it answers.
    for (int i = 0; i < 200 && get("/api/info").status != 200; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ~RunningServer() {
    server_.stop();
    thread_.join();
  }
  RunningServer(const RunningServer&) = delete;
  RunningServer& operator=(const RunningServer&) = delete;

  Answer call(const std::string& method, const std::string& path, const std::string& body = "") {
    httplib::Client client("127.0.0.1", port_);
    client.set_read_timeout(60, 0);
    httplib::Result r = method == "GET" ? client.Get(path.c_str())
                                        : client.Post(path.c_str(), body, "application/json");
    Answer a;
    if (!r) return a;
    a.status = r->status;
    a.text = r->body;
    a.body = nlohmann::json::parse(r->body, nullptr, false);
    return a;
  }
  Answer get(const std::string& path) { return call("GET", path); }
  Answer post(const std::string& path, const nlohmann::json& body = nlohmann::json::object()) {
    return call("POST", path, body.dump());
  }
  server::PlayStore& store() { return store_; }
  int port() const { return port_; }

 private:
  server::PlayStore store_;
  server::TableServer server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace hulhe::testing
