#include "agents/bot_config.h"

#include "util/duration_format.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/toml_input.h"

namespace hulhe {

BotConfig BotConfig::from_file(const std::string& path, const std::string& bot) {
  if (path.empty()) return from_string("", "(defaults)", bot);
  try {
    // Regular files only: a directory, device or fifo is refused by name, never read.
    return from_string(read_input_file(path, "parameters file", kMaxConfigBytes), path, bot);
  } catch (const InputError& e) {
    if (std::string_view(e.what()).starts_with("bot '")) throw;
    throw InputError("bot '" + bot + "': " + e.what());
  }
}

BotConfig BotConfig::from_string(const std::string& text, const std::string& source,
                                 const std::string& bot) {
  BotConfig c;
  c.source_ = source;
  c.bot_ = bot;
  try {
    c.root_ = parse_toml(text, source);  // syntax errors name source:line:column
  } catch (const InputError& e) {
    throw InputError("bot '" + bot + "': " + e.what());
  }
  return c;
}

std::string BotConfig::context() const {
  return "bot '" + bot_ + "': " + source_ + ": ";
}

void BotConfig::fail(const std::string& what) const {
  throw InputError(context() + what);
}

const toml::value* BotConfig::get(const std::string& key) {
  asked_.insert(key);
  const auto& table = root_.as_table();
  const auto it = table.find(key);
  return it == table.end() ? nullptr : &it->second;
}

double BotConfig::number(const std::string& key, double fallback, double lo, double hi) {
  const toml::value* v = get(key);
  if (v == nullptr) return fallback;
  double x = 0;
  if (!toml_number(*v, x)) fail("'" + key + "' must be a number");
  if (!(x >= lo && x <= hi))
    fail("'" + key + "' = " + format_short_number(x) + " is outside [" + format_short_number(lo) +
         ", " + format_short_number(hi) + "]");
  return x;
}

std::int64_t BotConfig::integer(const std::string& key, std::int64_t fallback, std::int64_t lo,
                                std::int64_t hi) {
  const toml::value* v = get(key);
  if (v == nullptr) return fallback;
  return toml_integer_in(*v, key, lo, hi, context(), "a whole number");
}

std::string BotConfig::string(const std::string& key, const std::string& fallback) {
  const toml::value* v = get(key);
  if (v == nullptr) return fallback;
  return toml_string(*v, key, context());
}

void BotConfig::reject_unknown_keys() const {
  for (const auto& [key, v] : root_.as_table())
    if (!asked_.count(key)) fail("unknown key '" + key + "'");
}

}  // namespace hulhe
