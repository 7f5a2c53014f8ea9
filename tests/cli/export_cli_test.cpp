// `hulhe export --purify` and `--threshold T` end to end: a Leduc CFR+ checkpoint exported
// thinned and read back by the strategy file loader (every information set pure; nothing
// kept below the threshold), the metadata saying what was applied, the options' errors, and
// a threshold of 0 writing the plain export byte for byte. `--compact`: refused (exit 2)
// for a strategy without an OCHS bucket map; a compact HULHE file plays a match, and a
// damaged one is refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "abstraction/abstraction_factory.h"
#include "abstraction/strategy_thinning.h"
#include "game/betting_tree.h"
#include "solver/average_policy.h"
#include "solver/checkpoint.h"
#include "strategy_files/compact_bucket_abstraction.h"
#include "strategy_files/strategy_file.h"
#include "tests/cli/run_hulhe.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "tests/support/test_policies.h"

namespace hulhe {
namespace {

using namespace cli_test;

const std::string kLeduc = std::string(HULHE_SOURCE_DIR) + "/configs/leduc.toml";
const std::string kKuhnGame = std::string(HULHE_SOURCE_DIR) + "/configs/games/kuhn.game";

// Calls f(quantised values) for every information set of an 8-bit file.
template <typename F>
void for_each_information_set(const StrategyFile& file, F&& f) {
  const BettingTree& tree = file.tree();
  for (int r = 0; r < file.game().num_rounds; ++r)
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n)
      for (std::int32_t b = 0; b < file.abstraction().num_buckets(r); ++b)
        f(file.quantized(r, n, b));
}

class ExportCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempFolder;
    const HulheRun r =
        run_hulhe("solve --config " + kLeduc + " --iterations 2000 --checkpoint " + ckpt());
    ASSERT_EQ(r.status, 0) << r.out;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string path(const std::string& name) { return *dir_ / name; }
  static std::string ckpt() { return path("leduc.ckpt"); }

  static testing::TempFolder* dir_;
};

testing::TempFolder* ExportCli::dir_ = nullptr;

TEST_F(ExportCli, PurifyMakesEveryInformationSetPure) {
  const HulheRun ran =
      run_hulhe("export --checkpoint " + ckpt() + " --out " + path("pure.strategy") + " --purify");
  ASSERT_EQ(ran.status, 0) << ran.out;
  EXPECT_NE(ran.out.find("(8-bit probabilities, purified, "), std::string::npos) << ran.out;
  const StrategyFile pure = StrategyFile::read(path("pure.strategy"));
  EXPECT_EQ(pure.metadata().algorithm, "cfr+, purified");
  EXPECT_EQ(pure.metadata().iterations, 2000);
  ASSERT_EQ(run_hulhe("export --checkpoint " + ckpt() + " --out " + path("plain.strategy")).status,
            0);
  const StrategyFile plain = StrategyFile::read(path("plain.strategy"));
  std::int64_t sets = 0, mixed_before = 0;
  const BettingTree& tree = pure.tree();
  for (int r = 0; r < pure.game().num_rounds; ++r)
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n)
      for (std::int32_t b = 0; b < pure.abstraction().num_buckets(r); ++b) {
        const auto q = pure.quantized(r, n, b);
        const auto p = plain.quantized(r, n, b);
        std::size_t played = 0, nonzero = 0;
        for (std::size_t a = 0; a < q.size(); ++a) {
          EXPECT_TRUE(q[a] == 0 || q[a] == 255) << int{q[a]};
          if (q[a] == 255) played = a;
          nonzero += q[a] != 0;
        }
        EXPECT_EQ(nonzero, 1u);
        // The most probable action is played (quantising keeps the order, ties aside).
        for (std::size_t a = 0; a < p.size(); ++a) EXPECT_LE(p[a], p[played]);
        mixed_before += std::count_if(p.begin(), p.end(), [](int v) { return v > 0; }) > 1;
        ++sets;
      }
  EXPECT_EQ(sets, 1116);
  EXPECT_GT(mixed_before, 100);  // there was something to purify
}

TEST_F(ExportCli, ThresholdDropsTheSmallProbabilities) {
  const HulheRun r = run_hulhe("export --checkpoint " + ckpt() + " --out " + path("t15.strategy") +
                               " --threshold 0.15");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("(8-bit probabilities, threshold 0.15, "), std::string::npos) << r.out;
  const StrategyFile file = StrategyFile::read(path("t15.strategy"));
  EXPECT_EQ(file.metadata().algorithm, "cfr+, threshold 0.15");
  std::int64_t sets = 0;
  for_each_information_set(file, [&](std::span<const std::uint8_t> q) {
    int sum = 0;
    for (const std::uint8_t v : q) {
      // Kept actions were ≥ 0.15 before renormalising, which only raises them.
      EXPECT_TRUE(v == 0 || v >= 38) << int{v};  // ⌊0.15 · 255⌋ = 38
      sum += v;
    }
    EXPECT_EQ(sum, 255);
    ++sets;
  });
  EXPECT_EQ(sets, 1116);
}

TEST_F(ExportCli, AThresholdOfZeroIsThePlainExportByteForByte) {
  ASSERT_EQ(run_hulhe("export --checkpoint " + ckpt() + " --out " + path("cli.strategy")).status,
            0);
  const Checkpoint c = read_checkpoint(ckpt());
  const GameDefinition game = c.game();
  const BettingTree tree(game);
  const auto abstraction = make_abstraction(c.abstraction_kind, game, c.bucket_map);
  const AveragePolicy average(tree, *abstraction, c.tables);
  StrategyFileMetadata meta;  // as `hulhe export` fills it
  meta.checkpoint_hash = file_hash(ckpt());
  meta.algorithm = c.params.algorithm;
  meta.iterations = c.iterations;
  meta.abstraction_kind = c.abstraction_kind;
  meta.bits = 8;
  write_strategy_file(path("zero.strategy"),
                      ThinnedPolicy(average, StrategyThinning::with_threshold(0.0)), meta);
  const std::string plain = testing::slurp(path("cli.strategy"));
  EXPECT_FALSE(plain.empty());
  EXPECT_EQ(testing::slurp(path("zero.strategy")), plain);
}

TEST_F(ExportCli, BaselinesThinToo) {
  // Uniform play has every action tied: purified, the lowest slot everywhere.
  const HulheRun r = run_hulhe("export --baseline uniform --game " + kKuhnGame + " --out " +
                               path("u.strategy") + " --purify");
  ASSERT_EQ(r.status, 0) << r.out;
  const StrategyFile file = StrategyFile::read(path("u.strategy"));
  EXPECT_EQ(file.metadata().algorithm, "baseline:uniform, purified");
  for_each_information_set(file, [](std::span<const std::uint8_t> q) {
    EXPECT_EQ(q[0], 255);
    for (std::size_t a = 1; a < q.size(); ++a) EXPECT_EQ(q[a], 0);
  });
  // 1/2 each at Kuhn's two-action nodes, above a threshold of 0.4: unchanged.
  ASSERT_EQ(run_hulhe("export --baseline uniform --game " + kKuhnGame + " --out " +
                      path("u4.strategy") + " --threshold 0.4")
                .status,
            0);
  for_each_information_set(StrategyFile::read(path("u4.strategy")),
                           [](std::span<const std::uint8_t> q) {
                             for (const std::uint8_t v : q) EXPECT_GE(v, 127);
                           });
}

TEST_F(ExportCli, RefusesBothThinningsAndThresholdsOutOfRange) {
  const std::string base = "export --checkpoint " + ckpt() + " --out " + path("bad.strategy");
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {" --purify --threshold 0.2", "excludes"},
      {" --threshold 0", "expected a probability threshold in (0, 1), got '0'"},
      {" --threshold 1", "expected a probability threshold in (0, 1), got '1'"},
      {" --threshold -0.5", "expected a probability threshold in (0, 1), got '-0.5'"},
      {" --threshold nan", "expected a probability threshold in (0, 1), got 'nan'"},
      {" --threshold x", "expected a probability threshold in (0, 1), got 'x'"},
  };
  for (const Case& c : cases) {
    const HulheRun r = run_hulhe(base + c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_FALSE(std::filesystem::exists(path("bad.strategy"))) << c.args;
  }
}

TEST_F(ExportCli, CompactNeedsAnOchsBucketMap) {
  for (const std::string& source :
       {"--checkpoint " + ckpt(), "--baseline uniform --game " + kKuhnGame}) {
    const HulheRun r = run_hulhe("export " + source + " --compact --out " + path("c.strategy"));
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find("--compact needs a HULHE strategy over a bucket map with an OCHS river"),
              std::string::npos)
        << r.out;
    EXPECT_FALSE(std::filesystem::exists(path("c.strategy")));
  }
}

// A compact HULHE file (format version 4; synthetic tables, river model of 20 centres) is
// played by `hulhe match` like any strategy file; cut short, it is an error naming it.
TEST_F(ExportCli, CompactFilesPlayAndDamageIsAnError) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const BettingTree tree(game);
  std::vector<PackedRoundBuckets> tables = testing::modulo_packed_rounds({169, 3, 4, 2});
  tables.pop_back();
  OchsRiverModel river;
  river.clusters = 2;
  river.num_buckets = 20;
  for (std::size_t h = 0; h < 169; ++h) river.preflop_cluster.push_back(h % 2);
  for (int i = 0; i < 40; ++i) river.centres.push_back(static_cast<float>(i) / 40.0F);
  const CompactBucketAbstraction compact(std::move(tables), std::move(river), {}, 3, "c");
  const testing::HashedPolicy policy(tree, compact);
  const std::string file = path("compact.strategy");
  write_strategy_file(file, policy, StrategyFileMetadata{});
  const HulheRun ok = run_hulhe("match --a " + file + " --b bot:always-call --hands 300");
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_NE(ok.out.find("300"), std::string::npos) << ok.out;
  const std::string bytes = testing::slurp(file);
  testing::spit(file, bytes.substr(0, bytes.size() - 10));
  const HulheRun cut = run_hulhe("match --a " + file + " --b bot:always-call --hands 300");
  EXPECT_EQ(cut.status, 2) << cut.out;
  EXPECT_NE(cut.out.find("strategy file " + file + ": truncated"), std::string::npos) << cut.out;
}

}  // namespace
}  // namespace hulhe
