// Strategy files. Odd first byte: the file as is. Even: the rest is a body behind a version-2
// header (for bodies of odd length the compact formats: version 4 when the length is 1 mod 4,
// 4-bit when it is 5 mod 8; version 3 when it is 3 mod 4; 56 bytes) with the right size and
// checksum, so the fuzzer reaches the body's
// reader (the header's game and abstraction hashes are 0, so such a file is refused once
// the body is read); a file that reads is then queried everywhere.
#include "abstraction/bucket_map.h"
#include "fuzz/fuzz_support.h"
#include "strategy_files/strategy_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  if (size == 0) return 0;
  const std::string file = fuzz::file_from_input(data, size, [](std::string_view body) {
    std::string header = "HULHESTR";
    const std::size_t kind = body.size() % 4;
    fuzz::put_le(header,
                 kind == 1   ? kCompactStrategyFileVersion
                 : kind == 3 ? kCompactStrategyFileVersion3
                             : kStrategyFileVersion,
                 4);
    fuzz::put_le(header, 0, 8);
    fuzz::put_le(header, 0, 8);
    fuzz::put_le(header, body.size(), 8);
    fuzz::put_le(header, checksum64(body.data(), body.size()), 8);  // the format's checksum
    fuzz::put_le(header, 0, 8);                                     // abstraction hash
    fuzz::put_le(header, body.size() % 8 == 5 ? 4 : 8, 4);          // bits per probability
    return header;
  });
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
