// BoundedInputArchive reads what cereal's portable binary archive wrote, unchanged, and
// refuses a length prefix longer than the bytes that remain before allocating anything.
#include "util/bounded_input_archive.h"

#include <gtest/gtest.h>

#include <array>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "util/input_error.h"

namespace hulhe {
namespace {

struct Record {
  std::string name;
  std::array<std::vector<std::int64_t>, 2> offsets;
  std::vector<float> values;
  double weight = 0;

  template <typename Archive>
  void serialize(Archive& ar) {
    ar(name, offsets, values, weight);
  }
};

template <typename... T>
std::string cereal_bytes(T&... values) {
  std::ostringstream os(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(os);
    ar(values...);
  }
  return os.str();
}

// cereal's little-endian flag byte, then the u64 length prefix `n`, then `tail`.
std::string length_prefix(std::uint64_t n, const std::string& tail = "") {
  std::string s(1, '\1');
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  return s + tail;
}

TEST(BoundedInputArchive, ReadsWhatCerealWrote) {
  Record in{"kuhn", {{{0, 6, 12}, {}}}, {0.25F, -1.5F, 3.0F}, 2.5};
  std::uint32_t version = 7;
  std::vector<std::uint16_t> buckets = {1, 2, 65535};
  const std::string bytes = cereal_bytes(version, in, buckets);
  BoundedInputArchive ar(bytes, "test input");
  Record out;
  std::uint32_t version_out = 0;
  std::vector<std::uint16_t> buckets_out;
  ar(version_out, out, buckets_out);
  EXPECT_EQ(version_out, 7u);
  EXPECT_EQ(out.name, "kuhn");
  EXPECT_EQ(out.offsets[0], (std::vector<std::int64_t>{0, 6, 12}));
  EXPECT_TRUE(out.offsets[1].empty());
  EXPECT_EQ(out.values, (std::vector<float>{0.25F, -1.5F, 3.0F}));
  EXPECT_EQ(out.weight, 2.5);
  EXPECT_EQ(buckets_out, (std::vector<std::uint16_t>{1, 2, 65535}));
  EXPECT_EQ(ar.remaining(), 0u);
  EXPECT_EQ(ar.position(), bytes.size());
}

TEST(BoundedInputArchive, RefusesLengthsLongerThanTheInputBeforeAllocating) {
  // 2^60 floats behind 8 bytes: cereal would resize to 4 EiB first.
  const std::string crafted = length_prefix(std::uint64_t{1} << 60, std::string(8, '\0'));
  std::vector<float> v;
  BoundedInputArchive ar(crafted, "crafted.bin");
  try {
    ar(v);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "crafted.bin is corrupt: a length of 1152921504606846976 elements does not fit in "
              "the 8 bytes that remain");
  }
  EXPECT_TRUE(v.empty());
}

TEST(BoundedInputArchive, BoundsCountElementSizeNotBytes) {
  // Two floats need 8 bytes: 8 remain, so 2 fit and 3 do not.
  const std::string eight(8, '\0');
  std::vector<float> v;
  const std::string two = length_prefix(2, eight);
  BoundedInputArchive fits(two, "x");
  fits(v);
  EXPECT_EQ(v.size(), 2u);
  const std::string three = length_prefix(3, eight);
  BoundedInputArchive too_long(three, "x");
  EXPECT_THROW(too_long(v), InputError);
  std::string s;
  const std::string nine = length_prefix(9, eight);
  BoundedInputArchive string_too_long(nine, "x");
  EXPECT_THROW(string_too_long(s), InputError);
}

TEST(BoundedInputArchive, LengthOfCustomElementsUsesTheirMinimumSize) {
  const std::string crafted = length_prefix(5, std::string(40, '\0'));
  BoundedInputArchive ar(crafted, "x");
  EXPECT_THROW(ar.length(9), InputError);  // 5 x 9 > 40
  BoundedInputArchive ok(crafted, "x");
  EXPECT_EQ(ok.length(8), 5u);  // 5 x 8 = 40
}

}  // namespace
}  // namespace hulhe
