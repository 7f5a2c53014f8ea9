#include "util/os_entropy.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace hulhe {
namespace {

void fill_from_os(unsigned char* out, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = getrandom(out + done, size - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(got);
  }
}

}  // namespace

std::uint64_t os_entropy64() {
  unsigned char bytes[8];
  fill_from_os(bytes, sizeof bytes);
  std::uint64_t v = 0;
  for (const unsigned char b : bytes) v = (v << 8) | b;
  return v;
}

}  // namespace hulhe
