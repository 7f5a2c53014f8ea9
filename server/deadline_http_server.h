#pragma once
// cpp-httplib's Server with the limits a public table needs and the library (0.11) lacks:
//  - a request must arrive whole (request line, headers, body) within `request_seconds` of its
//    first byte, so that clients sending a byte every few seconds (slowloris) cannot hold the
//    request threads and starve everyone (httplib's read timeout applies to each recv, and a
//    byte every 2 s never trips it);
//  - stop() ends idle keep-alive and slow connections within a tenth of a second instead of
//    after their timeouts (SIGTERM used to take 75 s under such clients);
//  - handle() runs a request given as raw bytes through the same parsing, routing and error
//    handling as one from a socket, for the HTTP fuzz harness (fuzz/fuzz_http_request.cpp)
//    and tests.
#include <httplib.h>

#include <string>
#include <string_view>

namespace hulhe::server {

class DeadlineHttpServer : public httplib::Server {
 public:
  explicit DeadlineHttpServer(double request_seconds, double write_seconds = 10);

  // The raw response to the raw request `request` (one request; the connection then closes).
  std::string handle(std::string_view request);

 private:
  // httplib calls this (virtual) for each accepted connection, on a thread of the pool.
  bool process_and_close_socket(socket_t sock) override;

  double request_seconds_;
  double write_seconds_;
};

}  // namespace hulhe::server
