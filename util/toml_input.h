#pragma once
// Parsing TOML configuration files (toml11) with errors as one-line InputErrors that name
// the file, line and column: "configs/x.toml:3:9: not valid TOML: ...". toml11's own
// exceptions (syntax errors, not derived from std::runtime_error) never escape.
#include <string>
#include <string_view>
#include <toml.hpp>

namespace hulhe {

// `source` names the text in messages (a path, or "<string>").
toml::value parse_toml(const std::string& text, const std::string& source);

// Reads the regular file `path` (at most 16 MiB; directories and devices refused) and
// parses it. `what` names the file's role, e.g. "config".
toml::value parse_toml_file(const std::string& path, std::string_view what = "config");

}  // namespace hulhe
