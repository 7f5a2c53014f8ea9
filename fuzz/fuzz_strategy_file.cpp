// Strategy files. Odd first byte: the file as is. Even: the rest is a body behind a valid
// header with the right size and checksum; a file that reads is then queried everywhere.
#include "fuzz/fuzz_support.h"
#include "strategies/strategy_file.h"

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
    file = "HULHESTR";
    put(file, kStrategyFileVersion, 4);
    put(file, 0, 8);
    put(file, 0, 8);
    put(file, rest.size(), 8);
    put(file, fnv1a(rest), 8);
    file += rest;
  }
  const std::string path = fuzz::write_temp("fuzz.strategy", file);
  fuzz::expect_input_errors_only([&] {
    const StrategyFile s = StrategyFile::read(path);
    const BettingTree& tree = s.tree();
    double p[kNumActionKinds];
    for (int r = 0; r < tree.game().num_rounds; ++r)
      for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
        const int actions = tree.node(tree.decision_node(r, n)).num_actions;
        for (std::int32_t b = 0; b < s.abstraction().num_buckets(r); ++b)
          s.action_probabilities(r, n, b, std::span<double>(p, actions));
      }
  });
  return 0;
}
