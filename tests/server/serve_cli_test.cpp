// `hulhe serve` as a user starts it: the line with its address, SIGTERM stopping it cleanly,
// kill -9 losing no completed hand, and the bad inputs that exit 2 with one line.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

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

}  // namespace
}  // namespace hulhe::server
