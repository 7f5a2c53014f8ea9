// The two table layouts: both give every information set its own run of entries, the runs
// cover the tables exactly, bucket-major keeps one bucket's round together, and an algorithm
// walks to the same numbers in either layout (only where they are stored differs).
#include "public_tree/strategy_tables.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "solver/checkpoint.h"
#include "solver/external_sampling_mccfr.h"
#include "tests/support/same_tables.h"
#include "tests/support/solver_test_games.h"
#include "tests/support/temp_folder.h"

namespace hulhe {
namespace {

using testing::SmallGame;

// How many information sets own each entry (every entry must be owned exactly once).
std::vector<int> owners(const SmallGame& g, const StrategyTables& t) {
  std::vector<int> count(static_cast<std::size_t>(t.size()), 0);
  for (int r = 0; r < g.game.num_rounds; ++r)
    for (std::int32_t n = 0; n < g.tree.num_decision_nodes(r); ++n)
      for (std::int32_t b = 0; b < g.abstraction.num_buckets(r); ++b)
        for (int a = 0; a < t.num_actions(r, n); ++a) ++count.at(t.offset(r, n, b) + a);
  return count;
}

TEST(StrategyTables, BothLayoutsGiveEveryInformationSetItsOwnEntries) {
  for (const char* name : {"kuhn", "leduc"}) {
    const SmallGame g(name);
    const StrategyTables node(g.tree, g.abstraction, TablePrecision::kFloat32,
                              TableLayout::kNodeMajor);
    const StrategyTables bucket(g.tree, g.abstraction, TablePrecision::kFloat32,
                                TableLayout::kBucketMajor);
    EXPECT_EQ(node.size(), bucket.size()) << name;
    EXPECT_EQ(node.num_information_sets(), bucket.num_information_sets()) << name;
    EXPECT_EQ(owners(g, node), std::vector<int>(node.size(), 1)) << name;
    EXPECT_EQ(owners(g, bucket), std::vector<int>(bucket.size(), 1)) << name;
    std::int64_t visited = 0;
    bucket.for_each_information_set([&](std::int64_t, int) { ++visited; });
    EXPECT_EQ(visited, bucket.num_information_sets()) << name;
  }
}

TEST(StrategyTables, BucketMajorKeepsOneBucketsRoundTogether) {
  const SmallGame g("leduc");
  const StrategyTables t(g.tree, g.abstraction, TablePrecision::kFloat32,
                         TableLayout::kBucketMajor);
  for (int r = 0; r < g.game.num_rounds; ++r) {
    std::int64_t actions = 0;
    for (std::int32_t n = 0; n < g.tree.num_decision_nodes(r); ++n) actions += t.num_actions(r, n);
    for (std::int32_t b = 0; b < g.abstraction.num_buckets(r); ++b) {
      // The round's nodes for bucket b fill [begin + b * actions, begin + (b + 1) * actions).
      const std::int64_t block = t.round_begin(r) + b * actions;
      std::int64_t next = block;
      for (std::int32_t n = 0; n < g.tree.num_decision_nodes(r); ++n) {
        EXPECT_EQ(t.offset(r, n, b), next) << r << " " << n << " " << b;
        EXPECT_EQ(t.bucket_stride(r, n), actions);
        next += t.num_actions(r, n);
      }
    }
  }
  EXPECT_EQ(t.round_begin(g.game.num_rounds), t.size());
  const StrategyTables node(g.tree, g.abstraction);
  EXPECT_EQ(node.round_begin(1), t.round_begin(1));  // both are round-major
}

// External sampling, one thread, same seed: the same regrets and sums per information set.
TEST(StrategyTables, ExternalSamplingWalksToTheSameValuesInEitherLayout) {
  const SmallGame g("leduc");
  StrategyTables node(g.tree, g.abstraction, TablePrecision::kFloat32, TableLayout::kNodeMajor);
  StrategyTables bucket(g.tree, g.abstraction, TablePrecision::kFloat32, TableLayout::kBucketMajor);
  ExternalSamplingMccfr(g.tree, g.abstraction, node, 7).run(1, 3000, 1);
  ExternalSamplingMccfr(g.tree, g.abstraction, bucket, 7).run(1, 3000, 1);
  int compared = 0;
  for (int r = 0; r < g.game.num_rounds; ++r)
    for (std::int32_t n = 0; n < g.tree.num_decision_nodes(r); ++n)
      for (std::int32_t b = 0; b < g.abstraction.num_buckets(r); ++b)
        for (int a = 0; a < node.num_actions(r, n); ++a) {
          ASSERT_EQ(node.regret(node.offset(r, n, b) + a),
                    bucket.regret(bucket.offset(r, n, b) + a));
          ASSERT_EQ(node.average_sum(node.offset(r, n, b) + a),
                    bucket.average_sum(bucket.offset(r, n, b) + a));
          compared += node.regret(node.offset(r, n, b) + a) != 0.0;
        }
  EXPECT_GT(compared, 100);
}

TEST(StrategyTables, BucketMajorTablesRoundTripThroughACheckpoint) {
  const SmallGame g("leduc");
  const testing::TempFolder dir;
  Checkpoint c;
  c.game_text = g.game.to_acpc_string();
  c.game_name = "leduc";
  c.game_hash = g.game.hash();
  c.abstraction_hash = g.abstraction.hash();
  c.params.algorithm = "external";
  c.tables =
      StrategyTables(g.tree, g.abstraction, TablePrecision::kFloat32, TableLayout::kBucketMajor);
  ExternalSamplingMccfr(g.tree, g.abstraction, c.tables, 3).run(1, 500, 1);
  const std::string path = dir / "bucket.ckpt";
  write_checkpoint(path, c);
  const Checkpoint back = read_checkpoint(path);
  check_checkpoint_matches(back, path, g.game, g.abstraction);
  EXPECT_EQ(back.tables.layout(), TableLayout::kBucketMajor);
  testing::expect_same_tables(back.tables, c.tables);
  for (int r = 0; r < 2; ++r) EXPECT_EQ(back.tables.num_buckets(r), g.abstraction.num_buckets(r));
}

}  // namespace
}  // namespace hulhe
