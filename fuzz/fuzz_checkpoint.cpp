// Solver checkpoints. Odd first byte: the rest is the file as is (the header's size and
// checksum guard the body). Even: the rest is a body, given a header with the right size
// and checksum, so the fuzzer reaches the body's reader and the shape checks.
#include "fuzz/fuzz_support.h"
#include "solver/checkpoint.h"

namespace {

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  if (size == 0) return 0;
  const std::string_view rest = fuzz::as_text(data + 1, size - 1);
  std::string file;
  if (data[0] & 1) {
    file = rest;
  } else {
    file = "HULHECKP";
    put(file, kCheckpointVersion, 4);
    put(file, 0, 8);
    put(file, 0, 8);
    put(file, rest.size(), 8);
    put(file, fnv1a(rest), 8);
    file += rest;
  }
  const std::string path = fuzz::write_temp("fuzz.ckpt", file);
  fuzz::expect_input_errors_only([&] {
    const Checkpoint c = read_checkpoint(path);
    (void)c.game();
  });
  return 0;
}
