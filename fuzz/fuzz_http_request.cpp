// The HTTP layer of `hulhe serve`: any bytes as one request, through httplib's parsing, the
// router and every API handler (server/table_server.h). A client's bad request must be
// answered (a 4xx, or 200/201 for a good one), never crash the server or end in a 500. The
// token SESSION in the input becomes the id of a live session, so the fuzzer reaches the
// session routes past the 404 of an unknown id.
#include <string>

#include "fuzz/fuzz_support.h"
#include "server/opponent.h"
#include "server/play_store.h"
#include "server/table_server.h"

namespace {

struct Table {
  hulhe::server::PlayStore store{hulhe::fuzz::temp_folder() + "/play.sqlite"};
  hulhe::server::TableServer server{
      hulhe::server::load_opponent("bot:uniform", hulhe::GameDefinition::holdem_limit_2p()), store,
      hulhe::server::ServeLimits{}, 1};
  std::string session;

  Table() {
    const std::string body = R"({"player":"fuzz"})";
    const std::string response = server.handle_raw_request(
        "POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body);
    const auto at = response.find("\"session\":\"");
    if (at == std::string::npos) std::abort();
    session = response.substr(at + 11, 32);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Table* const table = new Table();  // one server for the whole run, as in production
  std::string request(hulhe::fuzz::as_text(data, size));
  for (std::size_t at = request.find("SESSION"); at != std::string::npos;
       at = request.find("SESSION", at + table->session.size()))
    request.replace(at, 7, table->session);
  const std::string response = table->server.handle_raw_request(request);
  // A 500 is the server's own failure, never the client's: a finding.
  if (response.starts_with("HTTP/1.1 500")) std::abort();
  return 0;
}
