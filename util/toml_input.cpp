#include "util/toml_input.h"

#include <algorithm>
#include <sstream>

#include "util/input_error.h"
#include "util/input_file.h"
#include "util/printable_text.h"

namespace hulhe {
namespace {

// toml11's message is several lines ("[error] toml::parse_x: problem", then a picture of
// the line); keep the problem only.
std::string first_line_problem(const char* what) {
  std::string s(what);
  s = s.substr(0, s.find('\n'));
  if (s.starts_with("[error] ")) s.erase(0, 8);
  if (s.starts_with("toml::")) {
    const std::size_t colon = s.find(": ");
    if (colon != std::string::npos) s.erase(0, colon + 2);
  }
  return s;
}

}  // namespace

toml::value parse_toml(const std::string& text, const std::string& source) {
  // A TOML document is UTF-8 (TOML 1.0, "Spec"). Checked here, before toml11 sees it: its
  // literal-string parser reads past the end of its buffer on invalid UTF-8 (toml11 3.7,
  // fixed upstream after Debian's version: ToruNiina/toml11#199).
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
    const std::string_view before = std::string_view(text).substr(0, bad);
    const std::size_t line_start = before.rfind('\n');
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t column = line_start == std::string_view::npos ? bad + 1 : bad - line_start;
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(column) +
                     ": not valid TOML: not UTF-8 (byte " + printable(text.substr(bad, 1)) + ")");
  }
  try {
    std::istringstream in(text);
    return toml::parse(in, source);
  } catch (const toml::exception& e) {
    const toml::source_location& loc = e.location();
    throw InputError(source + ":" + std::to_string(loc.line()) + ":" +
                     std::to_string(loc.column()) +
                     ": not valid TOML: " + first_line_problem(e.what()));
  } catch (const std::exception& e) {
    throw InputError(source + ": not valid TOML: " + first_line_problem(e.what()));
  }
}

toml::value parse_toml_file(const std::string& path, std::string_view what,
                            std::uint64_t max_bytes) {
  return parse_toml(read_input_file(path, what, max_bytes), path);
}

void toml_check_keys(const toml::value& table, const std::set<std::string>& known,
                     const std::string& prefix, const std::string& path) {
  for (const auto& [key, v] : table.as_table())
    if (!known.count(key)) throw InputError(path + ": unknown key '" + prefix + key + "'");
}

const toml::value* toml_table_of(const toml::value& root, const std::string& key,
                                 const std::set<std::string>& known, const std::string& path) {
  if (!root.contains(key)) return nullptr;
  const toml::value& t = root.at(key);
  if (!t.is_table()) throw InputError(path + ": [" + key + "] must be a table");
  toml_check_keys(t, known, key + ".", path);
  return &t;
}

std::int64_t toml_integer_in(const toml::value& v, const std::string& key, std::int64_t lo,
                             std::int64_t hi, const std::string& context, std::string_view kind) {
  if (!v.is_integer()) throw InputError(context + "'" + key + "' must be " + std::string(kind));
  const std::int64_t x = v.as_integer();
  if (x < lo || x > hi)
    throw InputError(context + "'" + key + "' = " + std::to_string(x) + " is outside [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

std::string toml_string(const toml::value& v, const std::string& key, const std::string& context) {
  if (!v.is_string()) throw InputError(context + "'" + key + "' must be a string");
  return v.as_string().str;
}

bool toml_number(const toml::value& v, double& out) {
  if (v.is_integer()) {
    out = static_cast<double>(v.as_integer());
    return true;
  }
  if (v.is_floating()) {
    out = v.as_floating();
    return true;
  }
  return false;
}

}  // namespace hulhe
