#pragma once
// The hashes hulhe's files and definitions carry: FNV-1a (Fowler, Noll and Vo) for game
// definitions and checkpoint bodies, and a faster word-wise checksum for the large bodies of
// bucket maps and strategy files. Neither is cryptographic: they catch corruption and
// mismatched files, not tampering.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace hulhe {

inline constexpr std::uint64_t kFnv1aOffset = 0xcbf29ce484222325ULL;

// FNV-1a of `bytes`, continuing from `h` (chain calls to hash several pieces).
constexpr std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = kFnv1aOffset) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// 64-bit checksum of bytes (word-wise multiply-xorshift).
std::uint64_t checksum64(const void* data, std::size_t size, std::uint64_t seed = 0);

}  // namespace hulhe
