// Compact strategy files of format version 3 as the last writer of that version (commit
// e223095, the one before format version 4) wrote them, saved in tests/data: every
// information set its own play reaches stored (the others left out), each 8-bit value
// rANS-coded under its (round, actions, slot) context alone, the bucket arrays bit-packed.
// They are read back to the values of the policy they were written from. (The version 3
// files of the writers before e223095 stored every set: ReadsFormatVersion3 in
// compact_strategy_file_test.cpp.) A version 3 file's bucket arrays are bit-packed, so
// these 1.9 MB files are mostly zero bytes: they are stored gzipped (18 and 32 KB).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/hand_indexer.h"
#include "strategy_files/compact_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/quantized_policy.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "tests/support/test_policies.h"

namespace hulhe {
namespace {

// The abstraction the saved files were written over (hash 0x5eed): preflop hand i in bucket
// i mod 3, one flop and one turn bucket, an OCHS river of 8 preflop clusters (hand h in
// cluster (7h + 3) mod 8) and 2 buckets, centres drawn from std::mt19937_64(9), two
// exceptions. The policy was testing::HashedPolicy, written at 8 and at 16 bits.
std::shared_ptr<const CompactBucketAbstraction> saved_abstraction() {
  std::vector<PackedRoundBuckets> rounds = testing::modulo_packed_rounds({3, 1, 1, 1});
  rounds.pop_back();
  OchsRiverModel m;
  m.clusters = 8;
  m.preflop_cluster.resize(HandIndexer::holdem(0).size());
  for (std::size_t h = 0; h < m.preflop_cluster.size(); ++h)
    m.preflop_cluster[h] = static_cast<std::uint8_t>((h * 7 + 3) % 8);
  m.num_buckets = 2;
  std::mt19937_64 centres(9);
  std::uniform_real_distribution<float> unit(0.0F, 1.0F);
  for (int i = 0; i < 2 * 8; ++i) m.centres.push_back(unit(centres));
  RiverExceptions e;
  e.index = {1000, 2000000};
  e.bucket = {1, 0};
  return std::make_shared<CompactBucketAbstraction>(std::move(rounds), m, e, 0x5eed,
                                                    "synthetic 3-1-1-2");
}

// The saved file tests/data/NAME.gz unpacked into `folder`.
std::string unpacked(const std::string& name, const testing::TempFolder& folder) {
  const std::string out = folder / name;
  const std::string command =
      "gzip -dc '" + std::string(HULHE_TEST_DATA_DIR) + "/" + name + ".gz' > '" + out + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return out;
}

TEST(CompactStrategyFileVersion3, ReadsTheFilesItsLastWriterSaved) {
  const testing::TempFolder folder;
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const BettingTree tree(game);
  const std::shared_ptr<const CompactBucketAbstraction> compact = saved_abstraction();
  const testing::HashedPolicy policy(tree, *compact);
  const testing::UniformTestPolicy uniform(tree, *compact);
  for (const int bits : {8, 16}) {
    SCOPED_TRACE(std::to_string(bits) + " bits");
    const std::string path =
        unpacked("compact-v3-" + std::to_string(bits) + "bit.strategy", folder);
    EXPECT_EQ(testing::slurp(path)[8], 3) << "format version 3";
    const StrategyFile read = StrategyFile::read(path);
    EXPECT_TRUE(read.metadata().compact);
    EXPECT_EQ(read.abstraction().hash(), compact->hash());
    std::int64_t reached = 0, unreached = 0;
    for (int r = 0; r < 4; ++r)
      for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n)
        for (std::int32_t b = 0; b < compact->num_buckets(r); ++b) {
          std::vector<std::uint32_t> got;
          if (bits == 16) {
            const auto q = read.quantized16(r, n, b);
            got.assign(q.begin(), q.end());
          } else {
            const auto q = read.quantized(r, n, b);
            got.assign(q.begin(), q.end());
          }
          // A set the strategy's own play never reaches reads as the uniform distribution.
          const bool here = testing::reached_by_own_play(policy, bits, r, n, b);
          (here ? reached : unreached) += 1;
          ASSERT_EQ(got, testing::full_values(here ? static_cast<const Policy&>(policy) : uniform,
                                              bits, r, n, b))
              << r << " " << n << " " << b << (here ? " reached" : " unreached");
        }
    EXPECT_GT(reached, 1000);
    EXPECT_GT(unreached, 100);
    std::mt19937_64 rng(5);
    for (int i = 0; i < 200; ++i) {
      std::array<Card, 52> deck{};
      for (int c = 0; c < 52; ++c) deck[c] = static_cast<Card>(c);
      std::shuffle(deck.begin(), deck.end(), rng);
      ASSERT_EQ(read.abstraction().bucket(3, deck.data(), deck.data() + 2),
                compact->bucket(3, deck.data(), deck.data() + 2));
    }
  }
}

}  // namespace
}  // namespace hulhe
