// Crafted bucket maps whose checksum is right: a length prefix the file cannot hold is refused
// before any allocation (the fuzzer's finding: a payload announcing a vector of 2^60 entries).
#include <gtest/gtest.h>

#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "abstraction/bucket_map.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A bucket-map file around `payload`: magic, version and a checksum that matches.
std::string map_around(const std::string& payload) {
  std::ostringstream header(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(header);
    ar(std::string(BucketMap::kMagic), BucketMap::kFormatVersion, std::uint64_t{7},
       std::uint64_t{8}, checksum64(payload.data(), payload.size()));
  }
  return header.str() + payload;
}

// A payload up to round 0's method, then `tail`.
std::string payload_head() {
  std::ostringstream os(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(os);
    ar(std::string("seed = 1\n"), std::uint32_t{1}, 0, std::string("ehs"), std::int32_t{5});
  }
  return os.str();
}

std::string load_error(const testing::TempFolder& dir, const std::string& bytes) {
  const std::string path = dir / "crafted.buckets";
  testing::spit(path, bytes);
  return testing::error_of([&] { BucketMap::load(path); });
}

TEST(BucketMapCrafted, HugeLengthPrefixIsRefusedWithoutAllocating) {
  testing::TempFolder dir;
  std::string payload = payload_head();
  put(payload, std::uint64_t{1} << 60, 8);  // bucket16: 2^60 entries
  payload += std::string(16, '\0');
  EXPECT_EQ(load_error(dir, map_around(payload)),
            "bucket map '" + (dir / "crafted.buckets") +
                "' is corrupt: a length of 1152921504606846976 elements does not fit in the 16 "
                "bytes that remain");
  // 9 bytes remain: 4 16-bit entries fit, 5 do not.
  std::string five = payload_head();
  put(five, 5, 8);
  five += std::string(9, '\0');
  EXPECT_NE(load_error(dir, map_around(five)).find("a length of 5 elements does not fit in the 9"),
            std::string::npos);
  // The source text's length.
  std::string source(1, '\1');
  put(source, ~std::uint64_t{0}, 8);
  EXPECT_NE(load_error(dir, map_around(source)).find("does not fit in the 0 bytes"),
            std::string::npos);
}

// The fuzzer's second finding: a valid round announcing 641,728,515 buckets over 5 hands made
// counts() allocate 5 GB. More buckets than hands is refused at load.
TEST(BucketMapCrafted, MoreBucketsThanHandsIsRefused) {
  testing::TempFolder dir;
  const auto map_with = [&](std::int32_t num_buckets) {
    BucketMap m;
    RoundBuckets r;
    r.method = "ehs";
    r.num_buckets = 3;
    r.set_buckets({0, 1, 2, 2, 1});
    r.num_buckets = num_buckets;
    m.rounds.push_back(r);
    const std::string path = dir / "written.buckets";
    m.save(path);
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  EXPECT_EQ(load_error(dir, map_with(641728515)),
            "bucket map '" + (dir / "crafted.buckets") + "' is corrupt (round 0)");
  EXPECT_NE(load_error(dir, map_with(6)), "");
  EXPECT_EQ(load_error(dir, map_with(5)), "");  // one hand a bucket
}

TEST(BucketMapCrafted, HugeMagicLengthIsNotAMap) {
  testing::TempFolder dir;
  std::string bytes(1, '\1');
  put(bytes, std::uint64_t{1} << 62, 8);
  EXPECT_EQ(load_error(dir, bytes),
            "'" + (dir / "crafted.buckets") + "' is not a hulhe bucket map (bad magic)");
}

TEST(BucketMapCrafted, EveryCutOfARealPayloadIsRefused) {
  testing::TempFolder dir;
  BucketMap m;
  m.source = "x";
  RoundBuckets r;
  r.method = "ehs";
  r.num_buckets = 3;
  r.set_buckets({0, 1, 2, 2, 1});
  r.centres.rows = 3;
  r.centres.cols = 1;
  r.centres.data = {0.1F, 0.5F, 0.9F};
  m.rounds.push_back(r);
  const std::string good = dir / "good.buckets";
  m.save(good);
  std::ifstream in(good, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string header = map_around("");
  const std::size_t header_size = header.size();
  const std::string payload = bytes.substr(header_size);
  int refused = 0;
  for (std::size_t n = 0; n < payload.size(); ++n)
    refused += load_error(dir, map_around(payload.substr(0, n))).empty() ? 0 : 1;
  EXPECT_EQ(refused, static_cast<int>(payload.size()));
  EXPECT_EQ(load_error(dir, map_around(payload)), "");
}

}  // namespace
}  // namespace hulhe
