#include "util/checksums.h"

#include <cstring>

namespace hulhe {

std::uint64_t checksum64(const void* data, std::size_t size, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = seed ^ (0x9E3779B97F4A7C15ULL * (size + 1));
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  for (; i < size; ++i) {
    h = (h ^ p[i]) * 0x94D049BB133111EBULL;
    h ^= h >> 29;
  }
  return h ^ (h >> 32);
}

}  // namespace hulhe
