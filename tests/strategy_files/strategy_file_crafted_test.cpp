// Crafted strategy files whose checksum is right: a length prefix the file cannot hold is
// refused before any allocation (the fuzzer's finding), and values or bucket counts of
// another shape than the game and abstraction are refused before anything indexes them.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "game/game_definition.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/crafted_kuhn_strategy.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using testing::put_le;

class StrategyFileCrafted : public ::testing::Test {
 protected:
  StrategyFileCrafted()
      : kuhn_(
            GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/kuhn.game")),
        crafted_(kuhn_) {}

  std::string file_around(const std::string& body) const { return crafted_.file_around(body); }
  std::string body_head(const std::vector<std::int32_t>& buckets) const {
    return crafted_.body_head(buckets);
  }
  std::string body(const std::vector<std::int32_t>& buckets, std::size_t values) const {
    return crafted_.body(buckets, values, values);
  }
  std::string read_error(const std::string& bytes) const {
    const std::string path = dir_ / "crafted.strategy";
    testing::spit(path, bytes);
    return testing::error_of([&] { StrategyFile::read(path); });
  }

  GameDefinition kuhn_;
  testing::CraftedKuhnStrategy crafted_;
  testing::TempFolder dir_;
};

TEST_F(StrategyFileCrafted, TheWellFormedCraftIsRead) {
  // Kuhn: 4 decision nodes x 3 cards x 2 actions = 24 values; the crafting is right.
  EXPECT_EQ(read_error(file_around(body({3}, 24))), "");
}

// Text fields with a correct checksum are checked against what they may be; the message
// shows the offending bytes escaped, never raw on the terminal.
TEST_F(StrategyFileCrafted, TextFieldsAreCheckedAgainstWhatTheyMayBe) {
  auto with = [&](auto edit) {
    testing::CraftedKuhnStrategy::TextFields text = crafted_.text_fields();
    edit(text);
    std::string b = crafted_.body_head({3}, text);
    put_le(b, 24, 8);
    for (int i = 0; i < 24; ++i) b.push_back(static_cast<char>(i % 2 == 0 ? 200 : 55));
    return read_error(file_around(b));
  };
  const std::string path = dir_ / "crafted.strategy";
  EXPECT_EQ(with([](auto&) {}), "");
  EXPECT_EQ(
      with([](auto& t) { t.algorithm = "cfr\x1b[2J"; }),
      "strategy file " + path + ": corrupt: algorithm is not a plain line of text 'cfr\\x1b[2J'");
  EXPECT_EQ(
      with([](auto& t) { t.game_name = "ku\xffhn"; }),
      "strategy file " + path + ": corrupt: game name is not a plain line of text 'ku\\xffhn'");
  EXPECT_EQ(
      with([](auto& t) { t.bucket_map = std::string("a\nb"); }),
      "strategy file " + path + ": corrupt: bucket-map path is not a plain line of text 'a\\x0ab'");
  EXPECT_EQ(with([](auto& t) { t.kind = "lossless\x07"; }),
            "strategy file " + path + ": unknown abstraction kind 'lossless\\x07'");
}

TEST_F(StrategyFileCrafted, HugeLengthPrefixIsRefusedWithoutAllocating) {
  std::string b = body_head({3});
  put_le(b, std::uint64_t{1} << 60, 8);  // 2^60 one-byte values
  b += std::string(24, '\x7f');
  EXPECT_EQ(read_error(file_around(b)),
            "strategy file " + (dir_ / "crafted.strategy") +
                " is corrupt: a length of 1152921504606846976 elements does not fit in the 24 "
                "bytes that remain");
  // The same at the very first length (the game text).
  std::string first(1, '\1');
  put_le(first, ~std::uint64_t{0}, 8);
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
