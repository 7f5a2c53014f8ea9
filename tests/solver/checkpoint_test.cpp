// Checkpoints: round trip, resume bit-for-bit (1 thread: 2N iterations == N, checkpoint,
// resume to 2N), and every kind of bad file is an InputError naming it.
#include "solver/checkpoint.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "pipeline/solve_config.h"
#include "pipeline/solver_run.h"
#include "tests/solver/resumed_solve.h"
#include "tests/support/solver_test_games.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

// In this process's own folder, removed at exit.
std::string temp_path(const std::string& name) {
  static const testing::TempFolder dir;
  return dir / name;
}

SolveConfig leduc_config(const std::string& algorithm, std::int64_t iterations,
                         const std::string& checkpoint) {
  SolveConfig c;
  c.game_path = std::string(HULHE_SOURCE_DIR) + "/configs/games/leduc.game";
  c.params.algorithm = algorithm;
  c.params.seed = 11;
  c.iterations = iterations;
  c.checkpoint = checkpoint;
  c.progress_every_seconds = 1e9;
  return c;
}

void expect_input_error_naming(const std::string& path, const std::string& what) {
  try {
    read_checkpoint(path);
    FAIL() << "no error for " << what;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(Checkpoint, ResumeIsBitForBit) {
  for (const char* algorithm : {"cfr+", "dcfr", "pcs", "external", "outcome"}) {
    const std::string straight = temp_path(std::string("straight_") + algorithm);
    const std::string halves = temp_path(std::string("halves_") + algorithm);
    SCOPED_TRACE(algorithm);
    const auto config = [&](std::int64_t iterations, const std::string& checkpoint) {
      return leduc_config(algorithm, iterations, checkpoint);
    };
    const auto checkpoints =
        testing::expect_resume_is_bit_for_bit(config, 20, 40, straight, halves);
    EXPECT_EQ(checkpoints.first.params.algorithm, algorithm);
    std::filesystem::remove(straight);
    std::filesystem::remove(halves);
  }
}

TEST(Checkpoint, RoundTripKeepsEverything) {
  const std::string path = temp_path("roundtrip");
  SolveConfig config = leduc_config("dcfr", 7, path);
  config.params.dcfr_alpha = 1.25;
  SolverRun run(config, false);
  run.run({});
  const Checkpoint c = read_checkpoint(path);
  EXPECT_EQ(c.iterations, 7);
  EXPECT_EQ(c.params.dcfr_alpha, 1.25);
  EXPECT_EQ(c.params.seed, 11u);
  EXPECT_EQ(c.tables.regret_values(), run.tables().regret_values());
  EXPECT_EQ(c.game().hash(), run.game().hash());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove(path);
}

TEST(Checkpoint, BadFilesAreInputErrors) {
  const std::string path = temp_path("good");
  SolverRun(leduc_config("cfr+", 3, path), false).run({});
  const std::string good = testing::slurp(path);
  const std::string bad = temp_path("bad");

  testing::spit(bad, good.substr(0, good.size() / 2));
  expect_input_error_naming(bad, "truncated body");
  testing::spit(bad, good.substr(0, 20));
  expect_input_error_naming(bad, "truncated header");
  std::string corrupt = good;
  corrupt[corrupt.size() - 9] ^= 0x5a;
  testing::spit(bad, corrupt);
  expect_input_error_naming(bad, "flipped byte");
  std::string version = good;
  version[8] = 99;
  testing::spit(bad, version);
  expect_input_error_naming(bad, "unknown version");
  testing::spit(bad, "GAMEDEF\nlimit\n");
  expect_input_error_naming(bad, "not a checkpoint");
  testing::spit(bad, "");
  expect_input_error_naming(bad, "empty file");
  expect_input_error_naming(temp_path("missing"), "missing file");

  // A Leduc checkpoint resumed by a Kuhn run: another game, named in the message.
  SolveConfig kuhn = leduc_config("cfr+", 10, path);
  kuhn.game_path = std::string(HULHE_SOURCE_DIR) + "/configs/games/kuhn.game";
  try {
    SolverRun resumed(kuhn, true);
    FAIL() << "resumed a Leduc checkpoint as Kuhn";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("another game"), std::string::npos) << e.what();
  }
  // The same game resumed by another algorithm: refused, naming both.
  try {
    SolverRun resumed(leduc_config("dcfr", 10, path), true);
    FAIL() << "resumed a cfr+ checkpoint with dcfr";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'cfr+', not 'dcfr'"), std::string::npos) << e.what();
  }
  // Another abstraction of the same game.
  const Checkpoint c = read_checkpoint(path);
  testing::SmallGame leduc("leduc");
  struct OtherAbstraction final : CardAbstraction {
    int num_rounds() const override { return 2; }
    std::int32_t num_buckets(int) const override { return 1; }
    std::int32_t bucket(int, const Card*, const Card*) const override { return 0; }
    std::uint64_t hash() const override { return 12345; }
    std::string describe() const override { return "one bucket"; }
  } other;
  EXPECT_THROW(check_checkpoint_matches(c, path, leduc.game, other), InputError);
  EXPECT_NO_THROW(check_checkpoint_matches(c, path, leduc.game, leduc.abstraction));
  std::filesystem::remove(path);
  std::filesystem::remove(bad);
}

}  // namespace
}  // namespace hulhe
