#include "util/printable_text.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace hulhe {
namespace {

// Length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms, no
// surrogates, at most U+10FFFF), or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<std::uint8_t>(s[i]);
  std::size_t len = 0;
  std::uint8_t lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<std::uint8_t>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
  }
  return len;
}

}  // namespace

std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<std::uint8_t>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t len = utf8_length(text, i);
    if (len == 0) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<std::uint8_t>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (const std::size_t len = utf8_length(text, i); len > 0) {
        out.append(text.substr(i, len));
        i += len;
        continue;
      }
    }
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
    ++i;
  }
  return out;
}

std::string quoted_bytes(std::string_view bytes, std::size_t max_bytes) {
  std::size_t cut = std::min(bytes.size(), max_bytes);
  // Back up over UTF-8 continuation bytes so a character is shown whole or not at all.
  if (cut < bytes.size())
    for (int k = 0; k < 3 && cut > 0 && (static_cast<std::uint8_t>(bytes[cut]) & 0xC0) == 0x80; ++k)
      --cut;
  // Built by appends: GCC 12 reports a false -Wrestrict on "'" + std::string.
  std::string out(1, '\'');
  out.append(printable(bytes.substr(0, cut)));
  out.push_back('\'');
  if (cut < bytes.size())
    out.append("... (").append(std::to_string(bytes.size())).append(" bytes)");
  return out;
}

bool is_plain_line(std::string_view text, std::size_t max_bytes) {
  if (text.size() > max_bytes || first_invalid_utf8(text) != std::string_view::npos) return false;
  for (const char ch : text) {
    const auto b = static_cast<unsigned char>(ch);
    if (b < 0x20 || b == 0x7f) return false;
  }
  return true;
}

std::string quoted_path(std::string_view what, const std::string& path) {
  return std::string(what) + " '" + path + "'";
}

std::string hex64(std::uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
  return buf;
}

std::string_view trim(std::string_view text, std::string_view blanks) {
  const std::size_t first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

}  // namespace hulhe
