#pragma once
// Text from input files shown on a terminal (error messages, log lines, player names):
// valid UTF-8 passes unchanged; control bytes and bytes that are not UTF-8 become `\xNN`,
// so raw binary from a file never reaches the terminal (escape sequences, NULs).
#include <cstdint>
#include <string>
#include <string_view>

namespace hulhe {

std::string printable(std::string_view text);

// Bytes from a peer or a file quoted for a message: `'` + printable(bytes) + `'`, whole when
// at most `max_bytes` long, else the first max_bytes (cut at a character boundary) and
// "... (N bytes)". Messages are byte strings: a NUL inside is shown as \x00, never the end
// (an ACPC player's "VER\0SION:2.0.0" used to be reported as 'VER').
inline constexpr std::size_t kQuotedBytes = 200;
std::string quoted_bytes(std::string_view bytes, std::size_t max_bytes = kQuotedBytes);

// Offset of the first byte of `text` that does not start a valid UTF-8 sequence (RFC 3629),
// or std::string_view::npos when all of it is UTF-8.
std::size_t first_invalid_utf8(std::string_view text);

// Whether a text field read from a file (a name, a path, a description) is one plain line:
// at most `max_bytes`, valid UTF-8, no control byte (a NUL would cut it, an escape sequence
// would reach the terminal, a newline would split a log line).
bool is_plain_line(std::string_view text, std::size_t max_bytes);

// `what 'path'`, as every message about a file names it.
std::string quoted_path(std::string_view what, const std::string& path);

// 16 lower-case hex digits: how hashes are shown and compared in messages and reports.
std::string hex64(std::uint64_t value);

// `text` without leading and trailing bytes of `blanks`.
std::string_view trim(std::string_view text, std::string_view blanks = " \t\n\r\f\v");

}  // namespace hulhe
