#include "game/toml_input.h"

#include <sstream>

#include "game/input_error.h"
#include "game/input_file.h"

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

toml::value parse_toml_file(const std::string& path, std::string_view what) {
  return parse_toml(read_input_file(path, what, std::uint64_t{16} << 20), path);
}

}  // namespace hulhe
