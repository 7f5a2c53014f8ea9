// Bucket maps. Odd first byte: the file as is. Even: the rest is a payload behind a valid
// header with the right checksum, so the fuzzer reaches the payload's reader.
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <sstream>

#include "abstraction/bucket_map.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  if (size == 0) return 0;
  const std::string file = fuzz::file_from_input(data, size, [](std::string_view body) {
    std::ostringstream header(std::ios::binary);
    {
      cereal::PortableBinaryOutputArchive ar(header);
      std::string magic(BucketMap::kMagic);
      const std::uint64_t zero = 0, sum = checksum64(body.data(), body.size());
      ar(magic, BucketMap::kFormatVersion, zero, zero, sum);
    }
    return header.str();
  });
  const std::string path = fuzz::write_temp("fuzz.buckets", file);
  fuzz::expect_input_errors_only([&] {
    const BucketMap m = BucketMap::load(path);
    for (const RoundBuckets& r : m.rounds) (void)r.counts();
  });
  return 0;
}
