#pragma once
// Runs the built `hulhe` binary (HULHE_BINARY) as a user would, for the end-to-end tests in
// tests/cli/: the exit status and what it printed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace hulhe::cli_test {

struct HulheRun {
  int status = -1;  // exit status; -1 if it did not exit normally
  std::string out;  // stdout, and stderr too unless dropped
};

// Runs a shell command line; its exit status and what it printed on stdout.
inline HulheRun run_shell(const std::string& command) {
  HulheRun r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    r.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// `args` go to the shell after the binary's path. With `stderr_too` false, stderr is
// dropped (for `--json` output on stdout only).
inline HulheRun run_hulhe(const std::string& args, bool stderr_too = true) {
  return run_shell(std::string(HULHE_BINARY) + " " + args +
                   (stderr_too ? " 2>&1" : " 2>/dev/null"));
}

// Each of `parts` is in the run's output (a failure names the part and shows the output).
inline void expect_output_has(const HulheRun& r, std::initializer_list<std::string_view> parts) {
  for (const std::string_view part : parts)
    EXPECT_NE(r.out.find(part), std::string::npos) << "no '" << part << "' in:\n" << r.out;
}

// Refused as unusable input: exit status 2, a message naming `fragment`, no internal error
// (`what` names the case in a failure).
inline void expect_refused(const HulheRun& r, const std::string& fragment,
                           const std::string& what) {
  EXPECT_EQ(r.status, 2) << what << "\n" << r.out;
  EXPECT_NE(r.out.find(fragment), std::string::npos) << what << "\n" << r.out;
  EXPECT_EQ(r.out.find("internal error"), std::string::npos) << what << "\n" << r.out;
}

// `hulhe args` with `--json` (stdout only), which must exit 0: its JSON report (a run that
// fails adds a test failure naming its output and gives a discarded value).
inline nlohmann::json run_hulhe_json(const std::string& args) {
  const HulheRun r = run_hulhe(args, false);
  EXPECT_EQ(r.status, 0) << args << "\n" << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

}  // namespace hulhe::cli_test
