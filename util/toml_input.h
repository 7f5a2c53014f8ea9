#pragma once
// Parsing TOML configuration files (toml11) with errors as one-line InputErrors that name
// the file, line and column: "configs/x.toml:3:9: not valid TOML: ...". toml11's own
// exceptions (syntax errors, not derived from std::runtime_error) never escape.
//
// Every config type (abstraction_config.h, solve_config.h, pipeline_config.h, bot_config.h)
// parses its file once, with these functions, and builds itself from the parsed table with
// the key and value helpers below.
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <toml.hpp>
#include <type_traits>

#include "util/input_error.h"

namespace hulhe {

// The largest config file (`hulhe abstract`/`run` configs, a bot's parameters file).
inline constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{1} << 20;
// The largest TOML file parse_toml_file reads by default (`hulhe solve` configs).
inline constexpr std::uint64_t kMaxTomlFileBytes = std::uint64_t{16} << 20;

// `source` names the text in messages (a path, or "<string>").
toml::value parse_toml(const std::string& text, const std::string& source);

// Reads the regular file `path` (at most `max_bytes`; directories and devices refused) and
// parses it. `what` names the file's role, e.g. "config".
toml::value parse_toml_file(const std::string& path, std::string_view what = "config",
                            std::uint64_t max_bytes = kMaxTomlFileBytes);

// ---- Keys of configs whose messages read "<path>: ..." (solve and pipeline configs).

// The value of `key` in `table` as a T, or `fallback` when the key is absent; a
// floating-point T also takes an integer ("seconds = 60"). InputError
// "<path>: key '<key>' has the wrong type" otherwise.
template <typename T>
T toml_value_or(const toml::value& table, const std::string& key, const T& fallback,
                const std::string& path) {
  if (!table.contains(key)) return fallback;
  try {
    const toml::value& v = table.at(key);
    if constexpr (std::is_floating_point_v<T>) {
      if (v.is_integer()) return static_cast<T>(v.as_integer());
    }
    return toml::get<T>(v);
  } catch (const std::exception&) {
    throw InputError(path + ": key '" + key + "' has the wrong type");
  }
}

// InputError "<path>: unknown key '<prefix><key>'" for the first key of `table` not in
// `known`.
void toml_check_keys(const toml::value& table, const std::set<std::string>& known,
                     const std::string& prefix, const std::string& path);

// The table `[key]` of `root` (nullptr when absent), every key of it in `known`: InputError
// "<path>: [key] must be a table" or "<path>: unknown key '<key>.<k>'" otherwise.
const toml::value* toml_table_of(const toml::value& root, const std::string& key,
                                 const std::set<std::string>& known, const std::string& path);

// ---- Values of configs whose messages read "<context>'<key>' must be ..." (abstraction
// configs: context "config '<path>': "; a bot's parameters: "bot '<name>': <path>: ").

// An integer in [lo, hi]: "'<key>' must be <kind>", "'<key>' = x is outside [lo, hi]".
std::int64_t toml_integer_in(const toml::value& v, const std::string& key, std::int64_t lo,
                             std::int64_t hi, const std::string& context,
                             std::string_view kind = "an integer");
// A string: "'<key>' must be a string".
std::string toml_string(const toml::value& v, const std::string& key, const std::string& context);

// A TOML number (integer or float) as a double; false when the value is neither.
bool toml_number(const toml::value& v, double& out);

}  // namespace hulhe
