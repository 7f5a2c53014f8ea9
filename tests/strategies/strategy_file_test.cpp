// The strategy file: quantisation, round trip (≤ 1/255 per probability, byte-identical
// re-write), sampling, and every way a file can be wrong.
#include "strategies/strategy_file.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "abstraction/lossless_abstraction.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/input_error.h"
#include "solver/average_policy.h"
#include "solver/exploitability.h"
#include "solver/external_sampling_mccfr.h"
#include "solver/strategy_tables.h"
#include "strategies/baseline_policies.h"

namespace hulhe {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A Leduc strategy with uneven probabilities: 20,000 iterations of external sampling.
class StrategyFileTest : public ::testing::Test {
 protected:
  StrategyFileTest()
      : game_(
            GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/leduc.game")),
        tree_(game_),
        abstraction_(game_),
        tables_(tree_, abstraction_),
        policy_(tree_, abstraction_, tables_) {
    ExternalSamplingMccfr(tree_, abstraction_, tables_, 17).run(1, 20000, 1);
    dir_ = fs::temp_directory_path() /
           ("hulhe_strategy_file_test_" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    metadata_.checkpoint_hash = 0x1234abcd5678ef90ULL;
    metadata_.algorithm = "external";
    metadata_.iterations = 20000;
  }
  ~StrategyFileTest() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void expect_input_error(const std::string& file, const std::string& fragment) {
    try {
      StrategyFile::read(file);
      ADD_FAILURE() << "no InputError for " << fragment;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(file), std::string::npos) << what;
      EXPECT_NE(what.find(fragment), std::string::npos) << what;
    }
  }

  GameDefinition game_;
  BettingTree tree_;
  LosslessAbstraction abstraction_;
  StrategyTables tables_;
  AveragePolicy policy_;
  fs::path dir_;
  StrategyFileMetadata metadata_;
};

TEST(QuantizeProbabilities, LargestRemainderSumsTo255) {
  std::array<std::uint8_t, 3> q{};
  quantize_probabilities(std::array<double, 3>{1.0 / 3, 1.0 / 3, 1.0 / 3}, q);
  EXPECT_EQ(q, (std::array<std::uint8_t, 3>{85, 85, 85}));
  quantize_probabilities(std::array<double, 3>{0.5, 0.25, 0.25}, q);
  // 127.5, 63.75, 63.75: floors 127+63+63 = 253; remainders .75, .75 beat .5.
  EXPECT_EQ(q, (std::array<std::uint8_t, 3>{127, 64, 64}));
  quantize_probabilities(std::array<double, 3>{0.0, 0.0, 0.0}, q);  // no information: uniform
  EXPECT_EQ(q, (std::array<std::uint8_t, 3>{85, 85, 85}));
  std::array<std::uint8_t, 2> two{};
  quantize_probabilities(std::array<double, 2>{0.5, 0.5}, two);  // tie goes to the lower slot
  EXPECT_EQ(two, (std::array<std::uint8_t, 2>{128, 127}));
  quantize_probabilities(std::array<double, 2>{2.0, 6.0}, two);  // normalised first
  EXPECT_EQ(two, (std::array<std::uint8_t, 2>{64, 191}));

  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 10000; ++i) {
    std::array<double, 3> p{u(rng), u(rng), i % 7 == 0 ? 0.0 : u(rng)};
    const double sum = p[0] + p[1] + p[2];
    quantize_probabilities(p, q);
    EXPECT_EQ(q[0] + q[1] + q[2], 255);
    for (int a = 0; a < 3; ++a) EXPECT_LE(std::abs(q[a] / 255.0 - p[a] / sum), 1.0 / 255);
    if (p[2] == 0.0) {
      EXPECT_EQ(q[2], 0);
    }
    // Re-quantising the decoded values gives the same bytes.
    std::array<std::uint8_t, 3> again{};
    quantize_probabilities(std::array<double, 3>{q[0] / 255.0, q[1] / 255.0, q[2] / 255.0}, again);
    EXPECT_EQ(again, q);
  }
}

TEST_F(StrategyFileTest, RoundTripWithinOneQuantum) {
  const std::string file = path("leduc.strategy");
  write_strategy_file(file, policy_, metadata_);
  EXPECT_FALSE(fs::exists(file + ".tmp"));
  const StrategyFile read = StrategyFile::read(file);
  EXPECT_EQ(read.game(), game_);
  EXPECT_EQ(read.metadata().checkpoint_hash, metadata_.checkpoint_hash);
  EXPECT_EQ(read.metadata().algorithm, "external");
  EXPECT_EQ(read.metadata().iterations, 20000);
  EXPECT_EQ(read.abstraction().hash(), abstraction_.hash());
  EXPECT_EQ(read.abstraction_descriptor().kind, "lossless");

  std::int64_t sets = 0;
  double worst = 0.0;
  for (int r = 0; r < game_.num_rounds; ++r)
    for (std::int32_t n = 0; n < tree_.num_decision_nodes(r); ++n) {
      const int actions = tree_.node(tree_.decision_node(r, n)).num_actions;
      ASSERT_EQ(read.tree().node(read.tree().decision_node(r, n)).num_actions, actions);
      for (std::int32_t b = 0; b < abstraction_.num_buckets(r); ++b, ++sets) {
        std::vector<double> want(actions), got(actions);
        policy_.action_probabilities(r, n, b, want);
        read.action_probabilities(r, n, b, got);
        int sum = 0;
        for (int a = 0; a < actions; ++a) {
          worst = std::max(worst, std::abs(want[a] - got[a]));
          sum += read.quantized(r, n, b)[a];
        }
        EXPECT_EQ(sum, 255);
      }
    }
  EXPECT_EQ(sets, tables_.num_information_sets());
  EXPECT_LE(worst, 1.0 / 255);
  EXPECT_GT(worst, 0.0);  // the strategy is not trivially representable

  // The quantised strategy is still a good Leduc strategy: its exploitability is within
  // what 1/255 per probability can cost (checked loosely) of the exact average's.
  const double exact = compute_exploitability(policy_).exploitability_chips;
  const double quantized = compute_exploitability(read).exploitability_chips;
  EXPECT_NEAR(quantized, exact, 0.05);
}

TEST_F(StrategyFileTest, RewriteIsByteIdentical) {
  const std::string first = path("a.strategy"), second = path("b.strategy");
  write_strategy_file(first, policy_, metadata_);
  const StrategyFile read = StrategyFile::read(first);
  write_strategy_file(second, read, read.metadata());
  EXPECT_EQ(read_bytes(first), read_bytes(second));
  // Writing over an existing file replaces it atomically.
  write_strategy_file(second, read, read.metadata());
  EXPECT_EQ(read_bytes(first), read_bytes(second));
}

TEST_F(StrategyFileTest, SampleActionFollowsTheQuantisedProbabilities) {
  const std::string file = path("s.strategy");
  write_strategy_file(file, policy_, metadata_);
  const StrategyFile read = StrategyFile::read(file);
  // The root of Leduc for the king of hearts (some bucket with a mixed strategy).
  const int actions = tree_.node(tree_.decision_node(0, 0)).num_actions;
  std::int32_t bucket = 0;
  for (std::int32_t b = 0; b < abstraction_.num_buckets(0); ++b) {
    const auto q = read.quantized(0, 0, b);
    if (q[0] > 20 && q[0] < 235) bucket = b;
  }
  const auto q = read.quantized(0, 0, bucket);
  // Every 32-bit value maps to a slot; exactly q[a]/255 of a fine grid lands on slot a.
  std::vector<int> grid(actions, 0);
  for (std::uint64_t k = 0; k < 255; ++k) {
    const auto bits = static_cast<std::uint32_t>(((k << 32) + (std::uint64_t{1} << 31)) / 255);
    ++grid[read.sample_action_from_bits(0, 0, bucket, bits)];
  }
  for (int a = 0; a < actions; ++a) EXPECT_EQ(grid[a], q[a]) << a;
  std::mt19937 rng(1);
  std::vector<int> counts(actions, 0);
  const int n = 51000;
  for (int i = 0; i < n; ++i) ++counts[read.sample_action(0, 0, bucket, rng)];
  for (int a = 0; a < actions; ++a) {
    const double p = q[a] / 255.0;
    EXPECT_NEAR(counts[a], n * p, 5 * std::sqrt(n * p * (1 - p)) + 1) << a;
  }
}

TEST_F(StrategyFileTest, BaselinePolicyRoundTripsExactly) {
  const std::string file = path("raise.strategy");
  const auto raise = make_baseline_policy("always-raise", tree_, abstraction_);
  write_strategy_file(file, *raise, StrategyFileMetadata{});
  const StrategyFile read = StrategyFile::read(file);
  EXPECT_EQ(read.metadata().checkpoint_hash, 0u);
  std::vector<double> want(3), got(3);
  for (std::int32_t n = 0; n < tree_.num_decision_nodes(1); ++n) {
    const int actions = tree_.node(tree_.decision_node(1, n)).num_actions;
    want.resize(actions);
    got.resize(actions);
    raise->action_probabilities(1, n, 5, want);
    read.action_probabilities(1, n, 5, got);
    EXPECT_EQ(want, got);  // 0 and 1 are exact in 8 bits
  }
}

TEST_F(StrategyFileTest, MissingForeignAndWrongVersionFiles) {
  expect_input_error(path("nothing-here.strategy"), "cannot open");
  const std::string foreign = path("foreign.strategy");
  write_bytes(foreign, "GAMEDEF\nlimit\nnumPlayers = 2\nEND GAMEDEF\n");
  expect_input_error(foreign, "not a hulhe strategy file");
  write_bytes(foreign, "");
  expect_input_error(foreign, "not a hulhe strategy file");

  const std::string file = path("v.strategy");
  write_strategy_file(file, policy_, metadata_);
  std::string bytes = read_bytes(file);
  bytes[8] = 7;  // format version, little-endian u32 right after the magic
  write_bytes(file, bytes);
  expect_input_error(file, "format version 7");
}

TEST_F(StrategyFileTest, TruncatedFiles) {
  const std::string file = path("t.strategy");
  write_strategy_file(file, policy_, metadata_);
  const std::string bytes = read_bytes(file);
  for (std::size_t keep :
       {std::size_t{12}, std::size_t{43}, std::size_t{44}, bytes.size() / 2, bytes.size() - 1}) {
    write_bytes(file, bytes.substr(0, keep));
    expect_input_error(file, "truncated");
  }
}

TEST_F(StrategyFileTest, CorruptFiles) {
  const std::string file = path("c.strategy");
  write_strategy_file(file, policy_, metadata_);
  const std::string bytes = read_bytes(file);
  // A flipped bit anywhere in the body, including in the probabilities at the end.
  for (std::size_t at : {std::size_t{50}, bytes.size() / 2, bytes.size() - 1}) {
    std::string bad = bytes;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    write_bytes(file, bad);
    expect_input_error(file, "corrupt");
  }
  write_bytes(file, bytes + "x");
  expect_input_error(file, "corrupt");
  // A wrong game hash in the header.
  std::string bad = bytes;
  bad[12] = static_cast<char>(bad[12] ^ 1);
  write_bytes(file, bad);
  expect_input_error(file, "game");
}

TEST_F(StrategyFileTest, UnwritableDestination) {
  EXPECT_THROW(write_strategy_file(path("no/such/dir/x.strategy"), policy_, metadata_), InputError);
}

}  // namespace
}  // namespace hulhe
