// HULHE itself: external sampling and public chance sampling over a clustered abstraction of
// the real game (a bucket map whose buckets hash the canonical hand index: the real tables'
// shape without hours of k-means), checkpointed and resumed bit-for-bit on one thread; and
// CFR-BR, which runs the sampled hybrid on HULHE.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "abstraction/clustered_abstraction.h"
#include "game/betting_tree.h"
#include "game/hand_indexer.h"
#include "pipeline/solve_config.h"
#include "pipeline/solver_run.h"
#include "solver/cfr_algorithm.h"
#include "solver/cfr_algorithm_factory.h"
#include "solver/checkpoint.h"
#include "tests/solver/resumed_solve.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/same_tables.h"
#include "tests/support/temp_folder.h"
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
  const testing::TempFolder dir;
  const std::string path = dir / "run.ckpt";
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

// CFR-BR on HULHE is the sampled hybrid (hybrid_cfr_br.h): `hulhe solve`'s run keeps its trunk
// regrets in the checkpoint, so 2 iterations straight == 1, checkpoint, resume, 1 more (the
// tables and the ~0.9 GB of trunk regrets, bit for bit; 2 threads, which the hybrid's result
// does not depend on). Alone on the machine (tests/CMakeLists.txt: 3 checkpoints of 0.9 GB).
TEST(HulheSolveSerialSlow, CfrBrRunsTheHybridAndResumesBitForBit) {
  const Hulhe& h = shared_hulhe();
  const testing::TempFolder dir;
  const std::string map = dir / "hashed.buckets";
  testing::index_hash_bucket_map(h.game, {8, 8, 8, 8})->save(map);
  auto config = [&](std::int64_t iterations, const std::string& checkpoint) {
    SolveConfig c;
    c.game_path =
        std::string(HULHE_SOURCE_DIR) + "/configs/games/holdem.limit.2p.reverse_blinds.game";
    c.abstraction = "buckets";
    c.bucket_map = map;
    c.params.algorithm = "cfr-br";
    c.params.seed = 5;
    c.iterations = iterations;
    c.threads = 2;
    c.checkpoint = checkpoint;
    c.progress_every_seconds = 1e9;
    return c;
  };
  const auto [a, b] = testing::expect_resume_is_bit_for_bit(config, 1, 2, dir / "straight.ckpt",
                                                            dir / "halves.ckpt");
  // The trunk: 169 preflop and 1,286,792 flop classes per betting node, every action.
  std::int64_t expected = 0;
  for (const BettingNode& node : h.tree.nodes())
    if (node.kind == NodeKind::kDecision && node.round < 2)
      expected += (node.round == 0 ? 169 : 1286792) * node.num_actions;
  ASSERT_EQ(static_cast<std::int64_t>(a.algorithm_state.size()), expected);
  EXPECT_TRUE(a.algorithm_state == b.algorithm_state);
  std::int64_t touched = 0;
  for (float r : a.algorithm_state) touched += r != 0.0F;
  EXPECT_GT(touched, 1000);  // the trunk did learn
}

}  // namespace
}  // namespace hulhe
