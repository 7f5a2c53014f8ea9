// Crafted strategy files whose checksum is right: a length prefix the file cannot hold is
// refused before any allocation (the fuzzer's finding), and values or bucket counts of
// another shape than the game and abstraction are refused before anything indexes them.
#include <gtest/gtest.h>

#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "abstraction/bucket_map.h"
#include "abstraction/lossless_abstraction.h"
#include "game/game_definition.h"
#include "game/input_error.h"
#include "strategies/strategy_file.h"
#include "tests/game/temp_folder.h"

namespace hulhe {
namespace {

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

class StrategyFileCrafted : public ::testing::Test {
 protected:
  StrategyFileCrafted()
      : kuhn_(
            GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/kuhn.game")),
        abstraction_(kuhn_) {}

  // A strategy file of Kuhn (lossless abstraction, 8 bits) around `body`: header hashes,
  // size and checksum all match.
  std::string file_around(const std::string& body) const {
    std::string file = "HULHESTR";
    put(file, kStrategyFileVersion, 4);
    put(file, kuhn_.hash(), 8);
    put(file, 0, 8);
    put(file, body.size(), 8);
    put(file, checksum64(body.data(), body.size()), 8);
    put(file, abstraction_.hash(), 8);
    put(file, 8, 4);
    return file + body;
  }
  // The body's fields as the writer writes them up to the bucket counts.
  std::string body_head(const std::vector<std::int32_t>& buckets) const {
    std::ostringstream os(std::ios::binary);
    {
      cereal::PortableBinaryOutputArchive ar(os);
      AbstractionDescriptor descriptor{"lossless", abstraction_.hash(), abstraction_.describe(),
                                       ""};
      ar(kuhn_.to_acpc_string(), kuhn_.name, descriptor, std::string("cfr+"), std::int64_t{5},
         buckets);
    }
    return os.str();
  }
  // A whole body: head, then `values` (pairs summing to 255).
  std::string body(const std::vector<std::int32_t>& buckets, std::size_t values) const {
    std::string b = body_head(buckets);
    put(b, values, 8);
    for (std::size_t i = 0; i < values; ++i) b.push_back(static_cast<char>(i % 2 == 0 ? 200 : 55));
    return b;
  }
  std::string read_error(const std::string& bytes) const {
    const std::string path = dir_ / "crafted.strategy";
    std::ofstream(path, std::ios::binary) << bytes;
    try {
      StrategyFile::read(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }

  GameDefinition kuhn_;
  LosslessAbstraction abstraction_;
  test::TempFolder dir_;
};

TEST_F(StrategyFileCrafted, TheWellFormedCraftIsRead) {
  // Kuhn: 4 decision nodes x 3 cards x 2 actions = 24 values; the crafting is right.
  EXPECT_EQ(read_error(file_around(body({3}, 24))), "");
}

TEST_F(StrategyFileCrafted, HugeLengthPrefixIsRefusedWithoutAllocating) {
  std::string b = body_head({3});
  put(b, std::uint64_t{1} << 60, 8);  // 2^60 one-byte values
  b += std::string(24, '\x7f');
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(read_error(file_around(b)),
            "strategy file " + (dir_ / "crafted.strategy") +
                " is corrupt: a length of 1152921504606846976 elements does not fit in the 24 "
                "bytes that remain");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  // The same at the very first length (the game text).
  std::string first(1, '\1');
  put(first, ~std::uint64_t{0}, 8);
  EXPECT_NE(read_error(file_around(first)).find("does not fit in the 0 bytes"), std::string::npos);
}

TEST_F(StrategyFileCrafted, ShapesThatDoNotMatchTheGameAreRefused) {
  const std::string shape = "strategy size does not match the game and abstraction";
  EXPECT_NE(read_error(file_around(body({3}, 22))).find(shape), std::string::npos);
  EXPECT_NE(read_error(file_around(body({3}, 26))).find(shape), std::string::npos);
  EXPECT_NE(read_error(file_around(body({2}, 24))).find(shape), std::string::npos);
  EXPECT_NE(read_error(file_around(body({3, 3}, 24))).find(shape), std::string::npos);
  EXPECT_NE(read_error(file_around(body({3}, 24) + "x")).find("bytes after the strategy"),
            std::string::npos);
}

}  // namespace
}  // namespace hulhe
