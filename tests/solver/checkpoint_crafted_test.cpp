// Crafted checkpoints whose checksum is right: a length prefix the file cannot hold is
// refused before any allocation (the fuzzer's finding: a few hundred bytes announcing a
// vector of 2^60 elements), and tables of another shape than the game and abstraction are
// refused before anything indexes them.
#include <gtest/gtest.h>

#include <array>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "abstraction/card_blind_abstraction.h"
#include "solver/checkpoint.h"
#include "tests/support/solver_test_games.h"
#include "tests/support/temp_folder.h"
#include "util/checksums.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A checkpoint file around `body`: the header's size and FNV-1a checksum match it.
std::string checkpoint_around(const std::string& body, std::uint64_t game_hash) {
  const std::uint64_t h = fnv1a(body);
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
  testing::TempFolder dir;
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

// A Kuhn checkpoint with every field valid, for the crafted variants below (5 iterations).
Checkpoint valid_kuhn_checkpoint(const testing::SmallGame& kuhn, TablePrecision precision) {
  Checkpoint c;
  c.game_text = kuhn.game.to_acpc_string();
  c.game_name = "kuhn";
  c.game_hash = kuhn.game.hash();
  c.abstraction_hash = kuhn.abstraction.hash();
  c.iterations = 5;
  c.tables = StrategyTables(kuhn.tree, kuhn.abstraction, precision);
  return c;
}

// Every cut of a real body, its checksum recomputed, stops the reader inside some field: each
// is an InputError, never a bad_alloc or a read past the end.
TEST(CheckpointCrafted, EveryTruncationOfARealBodyIsAnInputError) {
  const testing::SmallGame kuhn("kuhn");
  testing::TempFolder dir;
  Checkpoint c = valid_kuhn_checkpoint(kuhn, TablePrecision::kFloat32);
  c.iterations = 3;
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
  testing::TempFolder dir;
  struct Case {
    const char* what;
    StrategyTables tables;
    const char* why;
  };
  Case cases[] = {
      {"Leduc's tables", StrategyTables(leduc.tree, leduc.abstraction),
       "round 0 has 6 decision nodes, the game tree 4"},
      {"one bucket a round", StrategyTables(kuhn.tree, blind),
       "round 0 has 1 buckets, the abstraction 3"},
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

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Text fields with a correct checksum: each is checked against what it may be, and the
// message shows the offending bytes escaped (never raw on the terminal).
TEST(CheckpointCrafted, TextFieldsAreCheckedAgainstWhatTheyMayBe) {
  const testing::SmallGame kuhn("kuhn");
  testing::TempFolder dir;
  const std::string path = dir / "text.ckpt";
  struct Case {
    const char* what;
    void (*edit)(Checkpoint&);
    const char* message;
  };
  const Case cases[] = {
      {"algorithm with a non-UTF-8 byte", [](Checkpoint& c) { c.params.algorithm = "cfr\xff"; },
       "is corrupt: unknown algorithm 'cfr\\xff'"},
      {"unknown algorithm", [](Checkpoint& c) { c.params.algorithm = "cfr++"; },
       "is corrupt: unknown algorithm 'cfr++'"},
      {"abstraction kind", [](Checkpoint& c) { c.abstraction_kind = "lossy"; },
       "is corrupt: unknown abstraction kind 'lossy'"},
      {"escape sequence in the game name", [](Checkpoint& c) { c.game_name = "ku\x1b[2Jhn"; },
       "is corrupt: game name is not a plain line of text 'ku\\x1b[2Jhn'"},
      {"NUL in the bucket-map path",
       [](Checkpoint& c) {
         c.abstraction_kind = "buckets";
         c.bucket_map = std::string("a\0b", 3);
       },
       "is corrupt: bucket-map path 'a\\x00b'"},
      {"bucket map of a lossless abstraction", [](Checkpoint& c) { c.bucket_map = "x.buckets"; },
       "is corrupt: bucket-map path of a lossless abstraction 'x.buckets'"},
  };
  for (const Case& k : cases) {
    Checkpoint c = valid_kuhn_checkpoint(kuhn, TablePrecision::kFloat32);
    k.edit(c);
    write_checkpoint(path, c);
    EXPECT_EQ(read_error(path), "checkpoint " + path + " " + k.message) << k.what;
  }
  write_checkpoint(path, valid_kuhn_checkpoint(kuhn, TablePrecision::kFloat64));
  EXPECT_EQ(read_error(path), "");
}

// The tables as format versions 2 and 3 stored them: node-major, no layout byte or bucket
// counts (node offsets, action counts, information-set count, then the two arrays).
std::string old_format_tables(const testing::SmallGame& game, const StrategyTables& t) {
  std::array<std::vector<std::int64_t>, 4> offsets;
  std::array<std::vector<std::uint8_t>, 4> actions;
  for (int r = 0; r < game.game.num_rounds; ++r)
    for (std::int32_t n = 0; n < game.tree.num_decision_nodes(r); ++n) {
      offsets[r].push_back(t.offset(r, n, 0));
      actions[r].push_back(static_cast<std::uint8_t>(t.num_actions(r, n)));
    }
  std::ostringstream os(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(os);
    ar(offsets, actions, t.num_information_sets(), t.regrets<float>(), t.average_sums<float>());
  }
  return os.str().substr(1);  // without the standalone archive's endianness byte
}

// Version 3 stores the tables' precision in one byte before them, version 4 also their
// layout and bucket counts, version 5 the algorithm's extra state after them; version 2 to 4
// files (node-major tables before 4, version 2 without the precision byte) are still read;
// any other precision is refused.
TEST(CheckpointCrafted, TablePrecisionByteAndOlderVersions) {
  const testing::SmallGame kuhn("kuhn");
  testing::TempFolder dir;
  Checkpoint c = valid_kuhn_checkpoint(kuhn, TablePrecision::kFloat32);
  for (std::size_t i = 0; i < c.tables.regrets<float>().size(); ++i)
    c.tables.regrets<float>()[i] = 0.25F * static_cast<float>(i);
  const std::string path = dir / "v4.ckpt";
  write_checkpoint(path, c);
  std::ostringstream tables_only(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(tables_only);
    ar(c.tables);
  }
  constexpr std::size_t kHeader = 44;
  constexpr std::size_t kEmptyState = 8;  // the extra state's length prefix, 0
  const std::string body = file_bytes(path).substr(kHeader);
  ASSERT_EQ(body.substr(body.size() - kEmptyState), std::string(kEmptyState, '\0'));
  // The byte before the tables (a standalone archive starts with one endianness byte).
  const std::size_t at = body.size() - kEmptyState - (tables_only.str().size() - 1) - 1;
  ASSERT_EQ(static_cast<unsigned char>(body[at]), 32);

  // Version 4: the same without the extra state.
  std::string v4 = checkpoint_around(body.substr(0, body.size() - kEmptyState), c.game_hash);
  v4[8] = 4;
  write_file(path, v4);
  EXPECT_EQ(read_checkpoint(path).tables.regret_values(), c.tables.regret_values());
  // A version 5 body cut before its extra state is truncated.
  write_file(path, checkpoint_around(body.substr(0, body.size() - kEmptyState), c.game_hash));
  EXPECT_NE(read_error(path), "");

  std::string wrong = body;
  wrong[at] = 48;
  write_file(path, checkpoint_around(wrong, c.game_hash));
  EXPECT_EQ(read_error(path),
            "checkpoint " + path + " is corrupt (table precision of 48 bits; 32 or 64 expected)");
  std::string bad_layout = body;
  bad_layout[at + 1] = 7;
  write_file(path, checkpoint_around(bad_layout, c.game_hash));
  EXPECT_EQ(read_error(path), "checkpoint " + path + " is corrupt: unknown table layout 7");

  // Version 3: the precision byte, then node-major tables in the old shape.
  const std::string old_tables = old_format_tables(kuhn, c.tables);
  std::string v3 = checkpoint_around(body.substr(0, at + 1) + old_tables, c.game_hash);
  v3[8] = 3;
  write_file(path, v3);
  Checkpoint back = read_checkpoint(path);
  EXPECT_EQ(back.tables.layout(), TableLayout::kNodeMajor);
  EXPECT_EQ(back.tables.num_buckets(0), 3);
  EXPECT_EQ(back.tables.regret_values(), c.tables.regret_values());
  EXPECT_EQ(back.tables.shape_mismatch(kuhn.tree, kuhn.abstraction), "");

  // Version 2: the same without the precision byte.
  std::string v2 = checkpoint_around(body.substr(0, at) + old_tables, c.game_hash);
  v2[8] = 2;
  write_file(path, v2);
  back = read_checkpoint(path);
  EXPECT_EQ(back.tables.precision(), TablePrecision::kFloat32);
  EXPECT_EQ(back.tables.regret_values(), c.tables.regret_values());
  EXPECT_EQ(back.tables.shape_mismatch(kuhn.tree, kuhn.abstraction), "");
  EXPECT_EQ(back.iterations, 5);
}

}  // namespace
}  // namespace hulhe
