// Checkpoints and strategy files whose body was edited and checksum recomputed: every command
// that reads one refuses it with exit status 2 when its tables do not fit the game tree and
// abstraction (they used to crash `exploit` and `export`), and a length prefix larger than the
// file is refused at once instead of allocating it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "abstraction/bucket_map.h"
#include "abstraction/lossless_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "solver/checkpoint.h"
#include "strategy_files/strategy_file.h"
#include "tests/cli/run_hulhe.h"
#include "tests/support/crafted_kuhn_strategy.h"
#include "tests/support/temp_folder.h"
#include "util/checksums.h"

namespace hulhe {
namespace {

using namespace cli_test;

const std::string kGames = std::string(HULHE_SOURCE_DIR) + "/configs/games/";

using testing::put_le;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class RobustnessShapesCli : public ::testing::Test {
 protected:
  RobustnessShapesCli()
      : kuhn_(GameDefinition::from_file(kGames + "kuhn.game")),
        leduc_(GameDefinition::from_file(kGames + "leduc.game")) {
    kuhn_.name = "kuhn";
    leduc_.name = "leduc";
  }

  // A Kuhn checkpoint (its header and body say Kuhn, lossless) holding Leduc's tables, with a
  // valid checksum: what an edited body with a recomputed checksum looks like.
  std::string kuhn_checkpoint_with_leduc_tables() const {
    const BettingTree leduc_tree(leduc_);
    const LosslessAbstraction leduc_abstraction(leduc_);
    Checkpoint c;
    c.game_text = kuhn_.to_acpc_string();
    c.game_name = "kuhn";
    c.game_hash = kuhn_.hash();
    c.abstraction_hash = LosslessAbstraction(kuhn_).hash();
    c.iterations = 10;
    c.params.algorithm = "cfr+";
    c.tables = StrategyTables(leduc_tree, leduc_abstraction);
    const std::string path = dir_ / "edited.ckpt";
    write_checkpoint(path, c);
    return path;
  }

  // A Kuhn strategy file (8 bits) whose body is `values` quantised values.
  std::string kuhn_strategy(const std::string& name, std::size_t values,
                            std::uint64_t announced) const {
    const testing::CraftedKuhnStrategy crafted(kuhn_);
    const std::string path = dir_ / name;
    std::ofstream(path, std::ios::binary)
        << crafted.file_around(crafted.body({3}, values, announced));
    return path;
  }

  GameDefinition kuhn_;
  GameDefinition leduc_;
  testing::TempFolder dir_;
};

TEST_F(RobustnessShapesCli, CheckpointWithTablesOfAnotherShapeIsRefusedByEveryReader) {
  const std::string ckpt = kuhn_checkpoint_with_leduc_tables();
  const std::string before = read_bytes(ckpt);
  const std::string shape = "has tables of another shape than its game and abstraction";
  expect_refused(run_hulhe("exploit --checkpoint " + ckpt), shape, "exploit");
  expect_refused(run_hulhe("export --checkpoint " + ckpt + " --out " + (dir_ / "k.strategy")),
                 shape, "export");
  expect_refused(run_hulhe("lbr --checkpoint " + ckpt + " --hands 10 --quiet"), shape, "lbr");
  const std::string config = dir_ / "kuhn.toml";
  std::ofstream(config) << "game = \"" + kGames +
                               "kuhn.game\"\niterations = 20\nalgorithm = "
                               "\"cfr+\"\n";
  expect_refused(run_hulhe("solve --config " + config + " --checkpoint " + ckpt + " --resume"),
                 shape, "solve --resume");
  EXPECT_EQ(read_bytes(ckpt), before);  // the refused checkpoint is left as it was
  EXPECT_FALSE(std::filesystem::exists(dir_ / "k.strategy"));
}

TEST_F(RobustnessShapesCli, StrategyFileOfAnotherShapeIsRefusedByEveryReader) {
  // The crafting is right: 24 values (4 nodes x 3 cards x 2 actions) play.
  const std::string good = kuhn_strategy("good.strategy", 24, 24);
  EXPECT_EQ(run_hulhe("exploit --strategy " + good).status, 0);
  const std::string short_file = kuhn_strategy("short.strategy", 22, 22);
  const std::string shape = "strategy size does not match the game and abstraction";
  expect_refused(run_hulhe("exploit --strategy " + short_file), shape, "exploit");
  expect_refused(run_hulhe("lbr --strategy " + short_file + " --hands 10 --quiet"), shape, "lbr");
  expect_refused(run_hulhe("match --a " + short_file + " --b bot:uniform --hands 10 --game " +
                           kGames + "kuhn.game --quiet"),
                 shape, "match");
  expect_refused(run_hulhe("tournament --agents " + short_file + " bot:uniform --hands 10 --game " +
                           kGames + "kuhn.game"),
                 shape, "tournament");
  expect_refused(run_hulhe("play --strategy " + short_file + " --game " + kGames +
                           "kuhn.game --port 1 --connect-timeout-ms 100"),
                 shape, "play");
}

TEST_F(RobustnessShapesCli, HugeLengthPrefixesAreRefusedAtOnce) {
  const std::string huge = kuhn_strategy("huge.strategy", 24, std::uint64_t{1} << 60);
  expect_refused(run_hulhe("exploit --strategy " + huge),
                 "is corrupt: a length of 1152921504606846976 elements does not fit in the 24 "
                 "bytes that remain",
                 "strategy file");
  // A checkpoint whose first length (the game text) is 2^62.
  std::string body(1, '\1');
  put_le(body, std::uint64_t{1} << 62, 8);
  const std::uint64_t h = fnv1a(body);
  std::string file = "HULHECKP";
  put_le(file, kCheckpointVersion, 4);
  put_le(file, 0, 8);
  put_le(file, 0, 8);
  put_le(file, body.size(), 8);
  put_le(file, h, 8);
  const std::string ckpt = dir_ / "huge.ckpt";
  std::ofstream(ckpt, std::ios::binary) << file + body;
  expect_refused(run_hulhe("exploit --checkpoint " + ckpt),
                 "is corrupt: a length of 4611686018427387904 elements does not fit in the 0 "
                 "bytes that remain",
                 "checkpoint");
}

TEST_F(RobustnessShapesCli, DirectoriesDevicesAndFifosAreRefusedWithoutHanging) {
  const std::string fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& special : {dir_.path(), std::string("/dev/urandom"), fifo}) {
    expect_refused(run_hulhe("exploit --checkpoint " + special), "checkpoint '" + special + "'",
                   "checkpoint " + special);
    expect_refused(run_hulhe("exploit --strategy " + special), "strategy file '" + special + "'",
                   "strategy " + special);
    expect_refused(run_hulhe("export --baseline uniform --bucket-map " + special + " --out " +
                             (dir_ / "x.strategy")),
                   "bucket map '" + special + "'", "bucket map " + special);
    expect_refused(run_hulhe("match --a bot:equity:" + special + " --b bot:uniform --hands 5"),
                   "parameters file '" + special + "'", "bot parameters " + special);
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.strategy"));
}

}  // namespace
}  // namespace hulhe
