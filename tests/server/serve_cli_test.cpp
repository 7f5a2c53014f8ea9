// `hulhe serve` as a user starts it: the line with its address, SIGTERM stopping it cleanly,
// kill -9 losing no completed hand, the bad inputs that exit 2 with one line, and the hostile
// clients of issue 38 (bytes that are not UTF-8, guessable ids and repeated deals across
// restarts, foreign databases, slow clients).
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/play_store.h"
#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace hulhe::server {
namespace {

using nlohmann::json;

// `hulhe serve ARGS` as a child process; its stdout is read until the address line.
class ServeProcess {
 public:
  explicit ServeProcess(const std::vector<std::string>& args) {
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      std::vector<char*> argv;
      std::string binary = HULHE_BINARY, serve = "serve";
      argv.push_back(binary.data());
      argv.push_back(serve.data());
      std::vector<std::string> copy = args;
      for (std::string& a : copy) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    close(out[1]);
    out_ = fdopen(out[0], "r");
    char line[512];
    while (std::fgets(line, sizeof line, out_) != nullptr) {
      output_ += line;
      std::smatch m;
      const std::string s = line;
      if (std::regex_search(s, m, std::regex("listening on http://127\\.0\\.0\\.1:(\\d+)/"))) {
        port_ = std::stoi(m[1]);
        break;
      }
    }
  }
  ~ServeProcess() {
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_ != nullptr) fclose(out_);
  }
  int port() const { return port_; }
  // Sends `sig` and waits: the exit status, or -signal when killed by one.
  int stop(int sig) {
    kill(pid_, sig);
    int status = 0;
    waitpid(pid_, &status, 0);
    reaped_ = true;
    char line[512];
    while (std::fgets(line, sizeof line, out_) != nullptr) output_ += line;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }
  const std::string& output() const { return output_; }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  int port_ = 0;
  bool reaped_ = false;
  std::string output_;
};

json post(int port, const std::string& path, const json& body = json::object()) {
  httplib::Client client("127.0.0.1", port);
  auto r = client.Post(path.c_str(), body.dump(), "application/json");
  return r ? json::parse(r->body, nullptr, false) : json();
}

TEST(ServeCli, SigtermStopsItCleanly) {
  testing::TempFolder dir;
  ServeProcess serve({"--bot", "always-call", "--port", "0", "--db", dir / "play.sqlite"});
  ASSERT_GT(serve.port(), 0) << serve.output();
  EXPECT_NE(serve.output().find("hulhe serve: holdem.limit.2p.reverse_blinds against always-call"),
            std::string::npos)
      << serve.output();
  httplib::Client client("127.0.0.1", serve.port());
  auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<script src=\"/table.js\">"), std::string::npos);
  EXPECT_EQ(serve.stop(SIGTERM), 0);
  EXPECT_NE(serve.output().find("hulhe serve: stopped (SIGTERM)"), std::string::npos)
      << serve.output();
}

TEST(ServeCli, AKilledServerLosesNoCompletedHand) {
  testing::TempFolder dir;
  const std::string db = dir / "play.sqlite";
  int completed = 0;
  {
    ServeProcess serve({"--bot", "always-call", "--port", "0", "--db", db, "--seed", "4"});
    ASSERT_GT(serve.port(), 0) << serve.output();
    const std::string id = post(serve.port(), "/api/session", {{"player", "erin"}})["session"];
    for (int h = 0; h < 8; ++h) {
      json state = post(serve.port(), "/api/session/" + id + "/hand");
      while (state["in_hand"].get<bool>())
        state = post(serve.port(), "/api/session/" + id + "/act", {{"action", "c"}});
      ++completed;
    }
    // A ninth hand, left in the middle.
    post(serve.port(), "/api/session/" + id + "/hand");
    EXPECT_EQ(serve.stop(SIGKILL), -SIGKILL);
  }
  PlayStore store(db);
  EXPECT_EQ(store.hand_count(), completed);
  const PlayerProfile p = store.profile("erin");
  ASSERT_EQ(p.results.size(), 1u);
  EXPECT_EQ(p.results[0].hands, completed);
}

TEST(ServeCli, BadInputsExitWithStatus2AndOneLine) {
  testing::TempFolder dir;
  std::ofstream(dir / "text.sqlite") << "not a database\n";
  // One line, "hulhe: error: ...", except CLI11's own parse errors (which add a line
  // pointing to --help, as for every command).
  auto expect_refused = [&](const std::string& args, const std::string& words, int lines = 1) {
    // Bounded: a server that starts where it should refuse fails here instead of hanging.
    const auto r =
        cli_test::run_shell("timeout 30 " + std::string(HULHE_BINARY) + " serve " + args + " 2>&1");
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(words), std::string::npos) << args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), lines) << args << "\n" << r.out;
  };
  const std::string db = " --db " + (dir / "play.sqlite");
  expect_refused("--strategy " + (dir / "missing.strategy") + db, "missing.strategy");
  expect_refused("--strategy " + (dir / "text.sqlite") + db, "text.sqlite");
  expect_refused("--bot nobody" + db, "nobody");
  expect_refused("--bot uniform --db " + (dir / "text.sqlite"), "text.sqlite");
  expect_refused("--bot uniform --db " + dir.path(), "play database");
  expect_refused("--bot uniform --db " + (dir / "no/such/folder.sqlite"), "folder.sqlite");
  expect_refused("--bot uniform --port 70000" + db, "70000");
  expect_refused("--bot uniform --port -1" + db, "-1");
  expect_refused("--bot uniform --host 203.0.113.7 --port 0" + db, "cannot listen");
  expect_refused("--bot uniform --port x" + db, "--port", 2);
  expect_refused(db, "--strategy FILE or --bot NAME");
  // A port in use.
  ServeProcess first({"--bot", "uniform", "--port", "0", "--db", dir / "first.sqlite"});
  ASSERT_GT(first.port(), 0);
  expect_refused("--bot uniform --port " + std::to_string(first.port()) + db, "cannot listen");
}

// A raw HTTP request over loopback (bytes as given, no client-side encoding); the status of
// the answer, or 0 when none came.
int raw_status(int port, const std::string& request) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return 0;
  }
  const timeval limit{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  (void)!write(fd, request.data(), request.size());
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) answer.append(buffer, n);
  close(fd);
  if (answer.rfind("HTTP/1.1 ", 0) != 0) return 0;
  return std::stoi(answer.substr(9, 3));
}

// Issue 38: one request with bytes that are not UTF-8 used to abort the server (the JSON of
// its error message threw). Every such request gets a 4xx and the server stays up.
TEST(ServeCli, BytesThatAreNotUtf8GetA4xxAndTheServerStaysUp) {
  testing::TempFolder dir;
  ServeProcess serve({"--bot", "uniform", "--port", "0", "--db", dir / "play.sqlite"});
  ASSERT_GT(serve.port(), 0) << serve.output();
  const std::string id = post(serve.port(), "/api/session", {{"player", "ann"}})["session"];
  const std::vector<std::string> paths = {"/%ff",
                                          "/%c3",
                                          "/%c3%28",
                                          "/%e2%82",
                                          "/%f0%9f%92",
                                          "/\xff",
                                          "/a\xc3",
                                          "/%00",
                                          "/api/session/%ff/hand",
                                          "/api/session/" + id + "%ff",
                                          "/api/session/" + id + "/%ff",
                                          "/api/player/%ff",
                                          "/api/player/%c3",
                                          "/api/player/\xfe\xff",
                                          "/api/explorer?sequence=%ff&board=",
                                          "/api/explorer?sequence=&board=%ff%fe",
                                          "/explorer.html%ff"};
  for (const std::string& path : paths) {
    const int status = raw_status(serve.port(), "GET " + path +
                                                    " HTTP/1.1\r\nHost: x\r\n"
                                                    "Connection: close\r\n\r\n");
    EXPECT_GE(status, 400) << path;
    EXPECT_LT(status, 500) << path;
  }
  const std::string body = "{\"player\":\"\xff\xfe\"}";
  EXPECT_EQ(raw_status(serve.port(), "POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                                         std::to_string(body.size()) +
                                         "\r\nConnection: close\r\n\r\n" + body),
            400);
  httplib::Client client("127.0.0.1", serve.port());
  auto info = client.Get("/api/info");
  ASSERT_TRUE(info) << "the server died";
  EXPECT_EQ(info->status, 200);
  EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.output();
}

// Issue 38: the explorer takes cards as people type them, in either case.
TEST(ServeCli, TheExplorerTakesLowerCaseCards) {
  testing::TempFolder dir;
  ServeProcess serve({"--bot", "uniform", "--port", "0", "--db", dir / "play.sqlite"});
  ASSERT_GT(serve.port(), 0) << serve.output();
  httplib::Client client("127.0.0.1", serve.port());
  auto upper = client.Get("/api/explorer?sequence=cc/&board=AsKhKd");
  auto lower = client.Get("/api/explorer?sequence=cc/&board=askhkd");
  ASSERT_TRUE(upper && lower);
  EXPECT_EQ(upper->status, 200) << upper->body;
  EXPECT_EQ(lower->status, 200) << lower->body;
  EXPECT_EQ(lower->body, upper->body);
  EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.output();
}

// Issue 38: session ids are the only credential, so they come from the OS (32 hex digits,
// never the same after a restart); so do the deals unless --seed is given, which repeats them.
TEST(ServeCli, RestartsGiveNewSessionIdsAndNewDealsUnlessSeeded) {
  testing::TempFolder dir;
  const std::string db = dir / "play.sqlite";
  // The session id and the person's cards of the first three hands of a new session.
  auto first_session = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--bot", "always-call", "--port", "0", "--db", db};
    args.insert(args.end(), extra.begin(), extra.end());
    ServeProcess serve(args);
    EXPECT_GT(serve.port(), 0) << serve.output();
    const std::string id = post(serve.port(), "/api/session", {{"player", "bo"}})["session"];
    std::string cards;
    for (int h = 0; h < 3; ++h) {
      json state = post(serve.port(), "/api/session/" + id + "/hand");
      cards += state["your_cards"].dump();
      while (state["in_hand"].get<bool>())
        state = post(serve.port(), "/api/session/" + id + "/act", {{"action", "c"}});
    }
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.output();
    return std::make_pair(id, cards);
  };
  const auto a = first_session({}), b = first_session({});
  EXPECT_EQ(a.first.size(), 32u) << a.first;
  EXPECT_NE(a.first, b.first);
  EXPECT_NE(a.second, b.second);  // 3 hands alike: about 1 in 1326^3
  const auto c = first_session({"--seed", "4"}), d = first_session({"--seed", "4"});
  EXPECT_NE(c.first, d.first);    // ids: never from the seed
  EXPECT_EQ(c.second, d.second);  // deals: the seed's, as documented
  // Four sessions of 3 hands, every (session, hand_number) once in the store.
  PlayStore store(db);
  EXPECT_EQ(store.hand_count(), 12);
}

// Issue 38: --db is checked at start, read-only: another program's database, a newer schema
// or an input of the server itself exits 2 with one line, the file untouched.
TEST(ServeCli, ADatabaseThatIsNotItsOwnIsRefusedUntouched) {
  testing::TempFolder dir;
  auto refused = [&](const std::string& args, const std::string& file, const std::string& words) {
    std::ifstream before_in(file, std::ios::binary);
    const std::string before((std::istreambuf_iterator<char>(before_in)), {});
    const auto r = cli_test::run_shell("timeout 30 " + std::string(HULHE_BINARY) + " serve " +
                                       args + " --port 0 2>&1");
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(words), std::string::npos) << args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    std::ifstream after_in(file, std::ios::binary);
    const std::string after((std::istreambuf_iterator<char>(after_in)), {});
    EXPECT_EQ(after, before) << file;
    EXPECT_FALSE(std::filesystem::exists(file + "-wal")) << file;
    EXPECT_FALSE(std::filesystem::exists(file + "-shm")) << file;
  };
  const std::string other = dir / "other.sqlite";
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (1)",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  refused("--bot uniform --db " + other, other, "another program's SQLite database");
  const std::string params = dir / "e.toml";
  std::ofstream(params) << "samples = 100\n";
  refused("--bot equity:" + params + " --db " + params, params, "e.toml");
}

// Issue 38: NaN and non-decimal numbers are bad input, not values.
TEST(ServeCli, NumbersMustBeFiniteAndDecimal) {
  testing::TempFolder dir;
  const std::string db = " --db " + (dir / "play.sqlite");
  for (const std::string args :
       {"--idle-minutes nan", "--idle-minutes inf", "--port ''", "--port 0x50", "--port 1e3",
        "--max-sessions 0x10", "--max-sessions ''"}) {
    const auto r = cli_test::run_shell("timeout 30 " + std::string(HULHE_BINARY) +
                                       " serve --bot uniform " + args + db + " 2>&1");
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_EQ(r.out.find("listening"), std::string::npos) << args << "\n" << r.out;
  }
}

// Issue 38: clients that send a request a byte every second (slowloris) cannot starve the
// others: each holds a request thread for at most the 2 s request deadline, so ordinary
// requests are answered while 40 of them keep reconnecting, and SIGTERM stops the server at
// once (the wait below only detects a hang).
TEST(ServeCliSlow, SlowClientsDoNotStarveOthersAndSigtermIsPrompt) {
  testing::TempFolder dir;
  ServeProcess serve({"--bot", "uniform", "--port", "0", "--db", dir / "play.sqlite"});
  ASSERT_GT(serve.port(), 0) << serve.output();
  std::atomic<bool> done{false};
  std::vector<std::thread> slow;
  for (int c = 0; c < 40; ++c)
    slow.emplace_back([&] {
      while (!done) {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(serve.port()));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
          const std::string request = "GET /api/info HTTP/1.1\r\nHost: slow\r\nX-Pad: ";
          for (char ch : request) {
            if (done || send(fd, &ch, 1, MSG_NOSIGNAL) != 1) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(1000));
          }
        }
        close(fd);
      }
    });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  int answered = 0;
  for (int i = 0; i < 8; ++i) {
    httplib::Client client("127.0.0.1", serve.port());
    client.set_connection_timeout(60, 0);
    client.set_read_timeout(60, 0);
    auto r = client.Get("/api/info");
    answered += r && r->status == 200;
  }
  EXPECT_EQ(answered, 8);
  EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.output();
  done = true;
  for (std::thread& t : slow) t.join();
}

}  // namespace
}  // namespace hulhe::server
