#pragma once
// Shared by the libFuzzer harnesses: bad input must end as an InputError (exit status 2 in
// the CLI); any other exception, a crash or a sanitizer report is a finding. Harnesses that
// need a file write it into one mkdtemp folder of their own, removed at exit.
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "game/game_definition.h"
#include "util/input_error.h"

namespace hulhe::fuzz {

// Runs f; swallows InputError only.
template <typename F>
void expect_input_errors_only(F&& f) {
  try {
    f();
  } catch (const InputError&) {
  }
}

// Appends `v` as a little-endian integer of `bytes` bytes (the binary files' headers).
inline void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The file a binary-format harness reads: with an odd first byte the rest of the input as
// is (the header's size and checksum guard the body); with an even one `header(body)` + the
// rest as body, so the fuzzer gets past the checksum to the body's reader.
template <typename Header>
std::string file_from_input(const std::uint8_t* data, std::size_t size, Header&& header) {
  const std::string_view rest = as_text(data + 1, size - 1);
  if (data[0] & 1) return std::string(rest);
  return header(rest) + std::string(rest);
}

// This process's own temporary folder, removed at exit. Held in a string that is never
// destroyed, so that the exit handler may still read it.
inline const std::string& temp_folder() {
  static const std::string* const folder = [] {
    std::string pattern = std::filesystem::temp_directory_path().string() + "/hulhe_fuzz_XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    auto* kept = new std::string(pattern);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(temp_folder(), ec);
    });
    return kept;
  }();
  return *folder;
}

// Writes bytes to `name` in the temporary folder, returns its path.
inline std::string write_temp(const std::string& name, std::string_view bytes) {
  const std::string path = temp_folder() + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

// The shipped games, by a selector byte.
inline const GameDefinition& game_by_index(std::uint8_t selector) {
  static const GameDefinition games[] = {
      GameDefinition::holdem_limit_2p(),
      GameDefinition::from_string(
          "GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 4\nstack = 20000 20000\nblind = 100 "
          "50\nfirstPlayer = 2 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
          "numBoardCards = 0 3 1 1\nEND GAMEDEF\n"),
      GameDefinition::from_string(
          "GAMEDEF\nlimit\nnumPlayers = 3\nnumRounds = 4\nblind = 5 10 0\nraiseSize = 10 10 20 "
          "20\nfirstPlayer = 3 1 1 1\nmaxRaises = 3 4 4 4\nnumSuits = 4\nnumRanks = 13\n"
          "numHoleCards = 2\nnumBoardCards = 0 3 1 1\nEND GAMEDEF\n"),
      GameDefinition::from_string(
          "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nraiseSize = 1\n"
          "firstPlayer = 1\nmaxRaises = 1\nnumSuits = 1\nnumRanks = 3\nnumHoleCards = 1\n"
          "numBoardCards = 0\nEND GAMEDEF\n"),
      GameDefinition::from_string(
          "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 2 4\n"
          "firstPlayer = 1 1\nmaxRaises = 2 2\nnumSuits = 2\nnumRanks = 3\nnumHoleCards = 1\n"
          "numBoardCards = 0 1\nEND GAMEDEF\n"),
  };
  return games[selector % (sizeof games / sizeof games[0])];
}

}  // namespace hulhe::fuzz
