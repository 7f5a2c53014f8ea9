// HULHE itself: external sampling and public chance sampling over a clustered abstraction of
// the real game (a bucket map whose buckets hash the canonical hand index: the real tables'
// shape without hours of k-means), checkpointed and resumed bit-for-bit on one thread.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "abstraction/clustered_abstraction.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "solver/cfr_algorithm.h"
#include "solver/checkpoint.h"
#include "tests/support/hulhe_fixtures.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

struct Hulhe {
  GameDefinition game = testing::hulhe_game();
  BettingTree tree{game};
  ClusteredAbstraction abstraction{testing::index_hash_bucket_map(game, {8, 8, 8, 8})};
};

// run(1, 2N) == run(1, N), checkpoint, read back, run(N + 1, N): the resumed tables are the
// straight run's, bit for bit.
void expect_resumes_bit_for_bit(const Hulhe& h, const std::string& algorithm, std::int64_t n) {
  CfrParameters params;
  params.algorithm = algorithm;
  params.seed = 3;
  params.discount_interval = n / 2;
  params.discount_until = 2 * n;
  StrategyTables straight(h.tree, h.abstraction);
  make_cfr_algorithm(params, h.tree, h.abstraction, straight)->run(1, 2 * n, 1);

  StrategyTables first(h.tree, h.abstraction);
  make_cfr_algorithm(params, h.tree, h.abstraction, first)->run(1, n, 1);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("hulhe-solve-test-" + algorithm + "-" +
                    std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "run.ckpt").string();
  Checkpoint c;
  c.game_text = h.game.to_acpc_string();
  c.game_name = h.game.name;
  c.game_hash = h.game.hash();
  c.abstraction_kind = "buckets";
  c.abstraction_hash = h.abstraction.hash();
  c.iterations = n;
  c.params = params;
  c.tables = std::move(first);
  write_checkpoint(path, c);
  Checkpoint back = read_checkpoint(path);
  std::filesystem::remove_all(dir);
  check_checkpoint_matches(back, path, h.game, h.abstraction);
  make_cfr_algorithm(back.params, h.tree, h.abstraction, back.tables)->run(n + 1, n, 1);
  EXPECT_EQ(back.tables.regret_values(), straight.regret_values()) << algorithm;
  EXPECT_EQ(back.tables.average_sum_values(), straight.average_sum_values()) << algorithm;
  double touched = 0;
  for (double r : straight.regret_values()) touched += r != 0.0;
  EXPECT_GT(touched, 1000) << algorithm;  // the run did update the tables
}

// Built once for the suite: the map has 123M river entries.
const Hulhe& shared_hulhe() {
  static const Hulhe h;
  return h;
}

TEST(HulheSolveSlow, ExternalSamplingAndPublicChanceSamplingResumeBitForBit) {
  const Hulhe& h = shared_hulhe();
  expect_resumes_bit_for_bit(h, "external", 20000);
  expect_resumes_bit_for_bit(h, "pcs", 4);
}

TEST(HulheSolveSlow, FullTraversalsAreRefusedOnHulhe) {
  const Hulhe& h = shared_hulhe();
  StrategyTables tables(h.tree, h.abstraction);
  CfrParameters params;
  params.algorithm = "cfr+";
  EXPECT_THROW(make_cfr_algorithm(params, h.tree, h.abstraction, tables), InputError);
}

}  // namespace
}  // namespace hulhe
