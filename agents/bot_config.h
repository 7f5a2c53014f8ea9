#pragma once
// The small TOML file a bot reads its parameters from (`bot:NAME:params.toml`). Every key
// must be one the bot knows and every number within its range; anything else is an
// InputError naming the file and the key. Without a file every parameter has its default.
#include <set>
#include <string>
#include <toml.hpp>

#include "util/toml_input.h"  // toml_number

namespace hulhe {

class BotConfig {
 public:
  // An empty path gives an empty table (all defaults).
  static BotConfig from_file(const std::string& path, const std::string& bot);
  static BotConfig from_string(const std::string& text, const std::string& source,
                               const std::string& bot);

  // A number (integer or float) in [lo, hi], or `fallback` when the key is absent.
  double number(const std::string& key, double fallback, double lo, double hi);
  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t lo,
                       std::int64_t hi);
  std::string string(const std::string& key, const std::string& fallback);
  // The raw value of a key the caller parses itself (nullptr when absent).
  const toml::value* get(const std::string& key);
  // Throws for the first key no call above asked for.
  void reject_unknown_keys() const;

  const std::string& source() const { return source_; }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  // Messages read "bot '<name>': <file>: <what>".
  std::string context() const;

  toml::value root_;
  std::string source_;
  std::string bot_;
  std::set<std::string> asked_;
};

}  // namespace hulhe
