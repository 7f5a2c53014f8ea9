// Crafted checkpoints whose checksum is right: a length prefix the file cannot hold is
// refused before any allocation (the fuzzer's finding: a few hundred bytes announcing a
// vector of 2^60 elements), and tables of another shape than the game and abstraction are
// refused before anything indexes them.
#include <gtest/gtest.h>

#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "abstraction/card_blind_abstraction.h"
#include "game/input_error.h"
#include "solver/checkpoint.h"
#include "tests/game/temp_folder.h"
#include "tests/solver/solver_test_games.h"

namespace hulhe {
namespace {

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A checkpoint file around `body`: the header's size and FNV-1a checksum match it.
std::string checkpoint_around(const std::string& body, std::uint64_t game_hash) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : body) h = (h ^ c) * 0x100000001b3ULL;
  std::string file = "HULHECKP";
  put(file, kCheckpointVersion, 4);
  put(file, game_hash, 8);
  put(file, 0, 8);
  put(file, body.size(), 8);
  put(file, h, 8);
  return file + body;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The message of the InputError that reading `path` throws ("" if none).
std::string read_error(const std::string& path) {
  try {
    read_checkpoint(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckpointCrafted, HugeLengthPrefixIsRefusedWithoutAllocating) {
  const testing::SmallGame kuhn("kuhn");
  test::TempFolder dir;
  // The game fields as cereal writes them, then a table length of 2^60 entries.
  std::ostringstream os(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(os);
    ar(kuhn.game.to_acpc_string(), std::string("kuhn"), std::string("lossless"), std::string(),
       std::int64_t{1});
  }
  std::string body = os.str();
  put(body, std::uint64_t{1} << 60, 8);  // first field of the parameters: a string length
  body += std::string(64, '\0');
  const std::string path = dir / "crafted.ckpt";
  write_file(path, checkpoint_around(body, kuhn.game.hash()));
  const std::string error = read_error(path);
  EXPECT_EQ(error, "checkpoint " + path +
                       " is corrupt: a length of 1152921504606846976 elements does not fit in "
                       "the 64 bytes that remain");

  // The same 2^60 as the very first length (the game text).
  std::string first(1, '\1');
  put(first, std::uint64_t{1} << 60, 8);
  write_file(path, checkpoint_around(first, 0));
  EXPECT_NE(read_error(path).find("does not fit in the 0 bytes that remain"), std::string::npos)
      << read_error(path);
}

// Every cut of a real body, its checksum recomputed, stops the reader inside some field: each
// is an InputError, never a bad_alloc or a read past the end.
TEST(CheckpointCrafted, EveryTruncationOfARealBodyIsAnInputError) {
  const testing::SmallGame kuhn("kuhn");
  test::TempFolder dir;
  Checkpoint c;
  c.game_text = kuhn.game.to_acpc_string();
  c.game_name = "kuhn";
  c.game_hash = kuhn.game.hash();
  c.abstraction_hash = kuhn.abstraction.hash();
  c.iterations = 3;
  c.tables = StrategyTables(kuhn.tree, kuhn.abstraction);
  const std::string good = dir / "good.ckpt";
  write_checkpoint(good, c);
  std::ifstream in(good, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  constexpr std::size_t kHeader = 44;
  const std::string body = bytes.substr(kHeader);
  int refused = 0;
  // Every prefix of the body with a recomputed checksum: each is refused, none allocates.
  for (std::size_t n = 0; n < body.size(); ++n) {
    const std::string path = dir / "cut.ckpt";
    write_file(path, checkpoint_around(body.substr(0, n), c.game_hash));
    refused += read_error(path).empty() ? 0 : 1;
  }
  EXPECT_EQ(refused, static_cast<int>(body.size()));
  EXPECT_EQ(read_error(good), "");
}

TEST(CheckpointCrafted, TablesOfAnotherShapeAreRefusedAfterTheChecksum) {
  const testing::SmallGame kuhn("kuhn");
  const testing::SmallGame leduc("leduc");
  const CardBlindAbstraction blind(kuhn.game);
  test::TempFolder dir;
  struct Case {
    const char* what;
    StrategyTables tables;
    const char* why;
  };
  Case cases[] = {
      {"Leduc's tables", StrategyTables(leduc.tree, leduc.abstraction),
       "round 0 has 6 decision nodes, the game tree 4"},
      {"one bucket a round", StrategyTables(kuhn.tree, blind),
       "round 0 node 1 has another offset or action count"},
  };
  for (Case& k : cases) {
    Checkpoint c;
    c.game_text = kuhn.game.to_acpc_string();
    c.game_name = "kuhn";
    c.game_hash = kuhn.game.hash();
    c.abstraction_hash = kuhn.abstraction.hash();  // claims Kuhn's lossless abstraction
    c.tables = std::move(k.tables);
    const std::string path = dir / "shape.ckpt";
    write_checkpoint(path, c);  // a valid checksum over the wrong tables
    const Checkpoint back = read_checkpoint(path);
    try {
      check_checkpoint_matches(back, path, kuhn.game, kuhn.abstraction);
      ADD_FAILURE() << k.what << ": accepted";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("has tables of another shape than its game and abstraction"),
                std::string::npos)
          << message;
      EXPECT_NE(message.find(k.why), std::string::npos) << k.what << ": " << message;
    }
  }
}

}  // namespace
}  // namespace hulhe
