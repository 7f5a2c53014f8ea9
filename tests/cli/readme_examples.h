#pragma once
// The documentation's examples as a test sees them: those of README.md and of every
// docs/*.md page (markdown_files). Convention (docs/commands.md, "Examples that stay true"):
// inside a fenced block, a line `$ hulhe ARGS` is a command and the lines after it,
// up to the next `$ ` line or the block's end, are what it prints (stdout and stderr); an
// expected line ending in `(exit status N)` also gives the exit status. `$ echo $?` prints
// the previous command's status. HTML comments before a block steer the test:
//   <!-- readme-test: skip (why) -->      the block is not run (long runs, servers)
//   <!-- readme-test: setup SHELL -->     run SHELL in the test folder before the block
// Any other `$ ` command in a block without a skip marker is an error: every example is
// either checked or explicitly skipped.
#include <algorithm>
#include <filesystem>
#include <optional>
// GCC 12 with -fsanitize=address warns (falsely) that std::regex's std::function members
// may be used uninitialized; warnings are errors here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>
#include <set>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include <sstream>
#include <string>
#include <vector>

namespace hulhe::readme {

struct Example {
  int line = 0;         // of the `$ ` line in its markdown file (1-based)
  std::string command;  // without the `$ `
  std::string expected;
  std::optional<int> status;
};

struct Block {
  int line = 0;  // of the opening fence
  std::string skip;
  std::vector<std::string> setup;
  std::vector<Example> examples;
  std::vector<std::string> unsupported;  // `$ ` lines that are neither hulhe nor echo $?
};

// The markdown files whose examples are checked, relative to the source folder `source`:
// README.md, then every docs/*.md in name order, so a new page is checked without a change
// here.
inline std::vector<std::string> markdown_files(const std::string& source) {
  std::vector<std::string> pages;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(source + "/docs", ec))
    if (entry.is_regular_file() && entry.path().extension() == ".md")
      pages.push_back("docs/" + entry.path().filename().string());
  std::sort(pages.begin(), pages.end());
  pages.insert(pages.begin(), "README.md");
  return pages;
}

inline std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

inline std::vector<Block> parse_blocks(const std::string& markdown) {
  std::vector<Block> blocks;
  std::istringstream in(markdown);
  std::string line;
  int number = 0;
  bool inside = false;
  Block pending;
  Block current;
  const std::string skip_marker = "<!-- readme-test: skip";
  const std::string setup_marker = "<!-- readme-test: setup ";
  while (std::getline(in, line)) {
    ++number;
    line = rtrim(line);
    if (!inside) {
      if (line.rfind("```", 0) == 0) {
        inside = true;
        current = std::move(pending);
        pending = Block{};
        current.line = number;
      } else if (line.rfind(skip_marker, 0) == 0) {
        pending.skip = line.substr(skip_marker.size());
        if (pending.skip.empty()) pending.skip = "skip";
      } else if (line.rfind(setup_marker, 0) == 0 && line.size() > setup_marker.size() + 4 &&
                 line.substr(line.size() - 4) == " -->") {
        pending.setup.push_back(
            line.substr(setup_marker.size(), line.size() - 4 - setup_marker.size()));
      }
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      inside = false;
      if (!current.examples.empty() || !current.unsupported.empty())
        blocks.push_back(std::move(current));
      current = Block{};
      continue;
    }
    if (line.rfind("$ ", 0) == 0) {
      const std::string command = line.substr(2);
      if (command.rfind("hulhe ", 0) == 0 || command == "echo $?") {
        current.examples.push_back(Example{number, command, "", std::nullopt});
      } else {
        current.unsupported.push_back(command);
      }
      continue;
    }
    if (current.examples.empty()) continue;  // a usage line, not output
    Example& e = current.examples.back();
    static const std::regex status_note(R"(^(.*?)\s*\(exit status (\d+)\)$)");
    std::smatch m;
    if (std::regex_match(line, m, status_note)) {
      e.status = std::stoi(m[2]);
      line = m[1];
    }
    e.expected += line + "\n";
  }
  return blocks;
}

// Output with what legitimately varies between runs masked: the test folder's path,
// durations, rates, ETAs, dates, JSON timing fields and the machine's available memory. Every other
// number must match.
inline std::string mask_values(std::string text, const std::string& folder) {
  if (!folder.empty())
    for (std::size_t at = 0; (at = text.find(folder, at)) != std::string::npos;)
      text.replace(at, folder.size(), "<folder>");
  static const std::pair<std::regex, const char*> rules[] = {
      {std::regex(R"(\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?)?)"), "<date>"},
      {std::regex(R"re("(\w*(seconds|per_second|elapsed|eta)\w*)": ?-?[0-9.eE+-]+)re"),
       "\"$1\":<t>"},
      {std::regex(R"([0-9][0-9,.]*(e[-+]?\d+)? ?(it/s|hands/s|units/s|flops/s|[KMG]i?B/s|/s))"),
       "<rate>"},
      {std::regex(R"(memory available [0-9.]+ [KMGT]iB)"), "memory available <memory>"},
      {std::regex(R"(\b-?\d+h\d+m(\d+s)?|\b\d+m\d+s\b)"), "<time>"},
      {std::regex(R"(\b\d+(\.\d+)? ?(s|ms|us|µs|min)\b)"), "<time>"},
  };
  for (const auto& [pattern, replacement] : rules)
    text = std::regex_replace(text, pattern, replacement);
  return text;
}

inline bool is_eta_line(const std::string& masked_line) {
  return masked_line.find("ETA <time>") != std::string::npos;
}

// mask_values, and the progress lines left out: they come on a timer, so how many a run prints
// depends on the machine's speed (a sanitizer build prints more). eta_line_shapes compares
// them instead.
inline std::string mask_timings(const std::string& text, const std::string& folder) {
  std::string out;
  std::istringstream in(mask_values(text, folder));
  std::string line;
  while (std::getline(in, line))
    if (!is_eta_line(line)) out += rtrim(line) + "\n";
  while (out.size() >= 2 && out.substr(out.size() - 2) == "\n\n") out.pop_back();
  return out;
}

// The shapes of the progress lines mask_timings leaves out: masked, then every other number a
// '#' ("best response: #/# units (#.#%), <rate>, # s/unit/thread, ETA <time>"). Each line a
// run prints must have the shape of one its page shows, when the page shows any.
inline std::set<std::string> eta_line_shapes(const std::string& text, const std::string& folder) {
  static const std::regex number(R"(\d+(\.\d+)?([eE][-+]?\d+)?)");
  std::set<std::string> shapes;
  std::istringstream in(mask_values(text, folder));
  std::string line;
  while (std::getline(in, line))
    if (is_eta_line(line)) shapes.insert(std::regex_replace(rtrim(line), number, "#"));
  return shapes;
}

}  // namespace hulhe::readme
