// The strategy file: quantisation, round trip (≤ 1/255 per probability, byte-identical
// re-write), sampling, and every way a file can be wrong.
#include "strategy_files/strategy_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "abstraction/lossless_abstraction.h"
#include "agents/baseline_policies.h"
#include "best_response/exploitability.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/hand_indexer.h"
#include "public_tree/strategy_tables.h"
#include "solver/average_policy.h"
#include "solver/external_sampling_mccfr.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "tests/support/test_policies.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

namespace fs = std::filesystem;

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
    metadata_.checkpoint_hash = 0x1234abcd5678ef90ULL;
    metadata_.algorithm = "external";
    metadata_.iterations = 20000;
  }
  std::string path(const std::string& name) const { return folder_ / name; }
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

  struct Comparison {
    double worst = 0.0;     // the largest difference of a probability
    std::int64_t sets = 0;  // information sets compared
  };
  // policy_ against the file `read` at every information set: the same actions, each set's
  // stored values (stored(round, node, bucket)) summing to `total`.
  template <typename Stored>
  Comparison compare_with_policy(const StrategyFile& read, Stored stored, int total) const {
    Comparison c;
    for (int r = 0; r < game_.num_rounds; ++r)
      for (std::int32_t n = 0; n < tree_.num_decision_nodes(r); ++n) {
        const int actions = tree_.node(tree_.decision_node(r, n)).num_actions;
        if (read.tree().node(read.tree().decision_node(r, n)).num_actions != actions) {
          ADD_FAILURE() << "round " << r << " node " << n << ": the file has another action count";
          return c;
        }
        for (std::int32_t b = 0; b < abstraction_.num_buckets(r); ++b, ++c.sets) {
          std::vector<double> want(actions), got(actions);
          policy_.action_probabilities(r, n, b, want);
          read.action_probabilities(r, n, b, got);
          int sum = 0;
          for (int a = 0; a < actions; ++a) {
            c.worst = std::max(c.worst, std::abs(want[a] - got[a]));
            sum += stored(r, n, b)[a];
          }
          EXPECT_EQ(sum, total);
        }
      }
    return c;
  }

  GameDefinition game_;
  BettingTree tree_;
  LosslessAbstraction abstraction_;
  StrategyTables tables_;
  AveragePolicy policy_;
  testing::TempFolder folder_;
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

  const Comparison c = compare_with_policy(
      read, [&](int r, std::int32_t n, std::int32_t b) { return read.quantized(r, n, b); }, 255);
  EXPECT_EQ(c.sets, tables_.num_information_sets());
  EXPECT_LE(c.worst, 1.0 / 255);
  EXPECT_GT(c.worst, 0.0);  // the strategy is not trivially representable

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
  EXPECT_EQ(testing::slurp(first), testing::slurp(second));
  // Writing over an existing file replaces it atomically.
  write_strategy_file(second, read, read.metadata());
  EXPECT_EQ(testing::slurp(first), testing::slurp(second));
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
  expect_input_error(path("nothing-here.strategy"), "cannot read strategy file");
  const std::string foreign = path("foreign.strategy");
  testing::spit(foreign, "GAMEDEF\nlimit\nnumPlayers = 2\nEND GAMEDEF\n");
  expect_input_error(foreign, "not a hulhe strategy file");
  testing::spit(foreign, "");
  expect_input_error(foreign, "not a hulhe strategy file");

  const std::string file = path("v.strategy");
  write_strategy_file(file, policy_, metadata_);
  std::string bytes = testing::slurp(file);
  bytes[8] = 7;  // format version, little-endian u32 right after the magic
  testing::spit(file, bytes);
  expect_input_error(file, "format version 7");
}

TEST_F(StrategyFileTest, TruncatedFiles) {
  const std::string file = path("t.strategy");
  write_strategy_file(file, policy_, metadata_);
  const std::string bytes = testing::slurp(file);
  for (std::size_t keep :
       {std::size_t{12}, std::size_t{43}, std::size_t{44}, bytes.size() / 2, bytes.size() - 1}) {
    testing::spit(file, bytes.substr(0, keep));
    expect_input_error(file, "truncated");
  }
}

TEST_F(StrategyFileTest, CorruptFiles) {
  const std::string file = path("c.strategy");
  write_strategy_file(file, policy_, metadata_);
  const std::string bytes = testing::slurp(file);
  // A flipped bit anywhere in the body, including in the probabilities at the end.
  for (std::size_t at : {std::size_t{50}, bytes.size() / 2, bytes.size() - 1}) {
    std::string bad = bytes;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    testing::spit(file, bad);
    expect_input_error(file, "corrupt");
  }
  testing::spit(file, bytes + "x");
  expect_input_error(file, "corrupt");
  // A wrong game hash in the header.
  std::string bad = bytes;
  bad[12] = static_cast<char>(bad[12] ^ 1);
  testing::spit(file, bad);
  expect_input_error(file, "game");
}

TEST_F(StrategyFileTest, UnwritableDestination) {
  EXPECT_THROW(write_strategy_file(path("no/such/dir/x.strategy"), policy_, metadata_), InputError);
}

}  // namespace
}  // namespace hulhe

namespace hulhe {
namespace {

TEST(QuantizeProbabilities, SixteenBitsSumTo65535) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::array<std::uint16_t, 3> q{};
  for (int i = 0; i < 10000; ++i) {
    std::array<double, 3> p{u(rng), i % 3 == 0 ? 0.0 : u(rng), u(rng)};
    const double sum = p[0] + p[1] + p[2];
    quantize_probabilities(p, q);
    EXPECT_EQ(q[0] + q[1] + q[2], 65535);
    for (int a = 0; a < 3; ++a) EXPECT_LE(std::abs(q[a] / 65535.0 - p[a] / sum), 1.0 / 65535);
  }
}

TEST_F(StrategyFileTest, SixteenBitsAndWhatQuantisationCosts) {
  const std::string f8 = path("leduc8.strategy"), f16 = path("leduc16.strategy");
  write_strategy_file(f8, policy_, metadata_);
  StrategyFileMetadata m16 = metadata_;
  m16.bits = 16;
  write_strategy_file(f16, policy_, m16);
  const StrategyFile s8 = StrategyFile::read(f8), s16 = StrategyFile::read(f16);
  EXPECT_EQ(s8.bits(), 8);
  EXPECT_EQ(s16.bits(), 16);
  EXPECT_EQ(s16.metadata().bits, 16);
  EXPECT_LE(
      compare_with_policy(
          s16, [&](int r, std::int32_t n, std::int32_t b) { return s16.quantized16(r, n, b); },
          65535)
          .worst,
      1.0 / 65535);
  // Exact best response (chips per hand): 16 bits cost at most what 8 bits cost, and both
  // stay close to the unquantised strategy.
  const double exact = compute_exploitability(policy_).exploitability_chips;
  const double e8 = compute_exploitability(s8).exploitability_chips;
  const double e16 = compute_exploitability(s16).exploitability_chips;
  std::printf(
      "Leduc exploitability (chips/hand): exact %.9f, 8-bit %.9f (%+.2e), 16-bit %.9f "
      "(%+.2e); sizes %ju / %ju bytes\n",
      exact, e8, e8 - exact, e16, e16 - exact, static_cast<std::uintmax_t>(fs::file_size(f8)),
      static_cast<std::uintmax_t>(fs::file_size(f16)));
  EXPECT_NEAR(e16, exact, 1e-3);
  EXPECT_LE(std::abs(e16 - exact), std::abs(e8 - exact) + 1e-6);
  // Sampling from a 16-bit file follows q/65535.
  std::mt19937 rng(2);
  const auto q = s16.quantized16(0, 0, 2);
  std::vector<int> counts(q.size(), 0);
  const int draws = 60000;
  for (int i = 0; i < draws; ++i) ++counts[s16.sample_action(0, 0, 2, rng)];
  for (std::size_t a = 0; a < q.size(); ++a) {
    const double p = q[a] / 65535.0;
    EXPECT_NEAR(counts[a], draws * p, 5 * std::sqrt(draws * p * (1 - p)) + 1) << a;
  }
  // Bits other than 2 to 8 and 16 are refused.
  for (const int bits : {0, 1, 9, 12, 15, 17, 32}) {
    StrategyFileMetadata bad = metadata_;
    bad.bits = bits;
    EXPECT_THROW(write_strategy_file(path("bad.strategy"), policy_, bad), InputError) << bits;
  }
}

// 2 to 7 bits: Q = 2^bits - 1, every probability within 1/Q of the policy's, the file read
// back and written again byte for byte, sampling by q/Q; and a 2-bit grid makes the strategy
// more exploitable than 8 bits (exact best response, Leduc).
TEST_F(StrategyFileTest, FewerBitsQuantiseToACoarserGrid) {
  const double exact = compute_exploitability(policy_).exploitability_chips;
  std::map<int, double> exploitability;
  for (const int bits : {8, 6, 4, 2}) {
    const std::string f = path("leduc" + std::to_string(bits) + ".strategy");
    StrategyFileMetadata m = metadata_;
    m.bits = bits;
    write_strategy_file(f, policy_, m);
    const StrategyFile read = StrategyFile::read(f);
    const std::uint32_t total = (1U << bits) - 1;
    ASSERT_EQ(read.bits(), bits);
    ASSERT_EQ(read.quantum_total(), total);
    double worst = 0;
    for (int r = 0; r < game_.num_rounds; ++r)
      for (std::int32_t n = 0; n < tree_.num_decision_nodes(r); ++n) {
        const int actions = tree_.node(tree_.decision_node(r, n)).num_actions;
        for (std::int32_t b = 0; b < abstraction_.num_buckets(r); ++b) {
          std::vector<double> want(actions), got(actions), trip(actions);
          policy_.action_probabilities(r, n, b, want);
          read.action_probabilities(r, n, b, got);
          trip = want;
          quantization_round_trip(trip, bits);
          std::uint32_t sum = 0;
          for (int a = 0; a < actions; ++a) {
            worst = std::max(worst, std::abs(want[a] - got[a]));
            EXPECT_EQ(got[a], trip[a]);
            EXPECT_EQ(got[a], read.quantized(r, n, b)[a] * (1.0 / static_cast<double>(total)));
            sum += read.quantized(r, n, b)[a];
          }
          ASSERT_EQ(sum, total);
        }
      }
    EXPECT_LE(worst, 1.0 / total + 1e-12) << bits;
    // Every grid point of [0, 2^32) lands on slot a exactly q[a] times in Q.
    const auto q = read.quantized(0, 0, 2);
    std::vector<std::uint32_t> grid(q.size(), 0);
    for (std::uint64_t k = 0; k < total; ++k)
      ++grid[read.sample_action_from_bits(
          0, 0, 2, static_cast<std::uint32_t>(((k << 32) + (std::uint64_t{1} << 31)) / total))];
    for (std::size_t a = 0; a < q.size(); ++a) EXPECT_EQ(grid[a], q[a]) << bits;
    const std::string again = path("again.strategy");
    write_strategy_file(again, read, read.metadata());
    EXPECT_EQ(testing::slurp(again), testing::slurp(f));
    const double e = compute_exploitability(read).exploitability_chips;
    std::printf("Leduc exploitability at %d bits: %.6f chips/hand (unquantised %.6f)\n", bits, e,
                exact);
    exploitability[bits] = e;
  }
  EXPECT_GT(exploitability[2], exploitability[8] + 0.05);
}

TEST(PackedRoundBuckets, EveryWidthRoundTrips) {
  std::mt19937_64 rng(9);
  for (std::int32_t k : {1, 2, 3, 4, 5, 50, 169, 1000, 65536, 70000}) {
    std::vector<std::int32_t> want(10007);
    for (auto& b : want) b = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(k));
    want.back() = k - 1;
    const PackedRoundBuckets p = PackedRoundBuckets::pack(static_cast<std::int64_t>(want.size()), k,
                                                          [&](std::int64_t i) { return want[i]; });
    EXPECT_EQ(p.width, k <= 2 ? 1 : static_cast<int>(std::ceil(std::log2(k))));
    for (std::size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(p[static_cast<std::int64_t>(i)], want[i]);
    EXPECT_EQ(p.check(), "");
  }
  // 50 buckets in 6 bits: a stored 63 is caught.
  PackedRoundBuckets p = PackedRoundBuckets::pack(10, 50, [](std::int64_t i) { return i; });
  p.bytes[0] |= 0x3f;
  EXPECT_NE(p.check(), "");
  EXPECT_THROW(PackedRoundBuckets::pack(3, 2, [](std::int64_t i) { return i; }),
               std::invalid_argument);
}

// A HULHE strategy over a bucket table (bucket = canonical index mod k per round): one
// self-contained file whose embedded buckets and probabilities read back exactly.
TEST(StrategyFileHoldemSlow, EmbeddedBucketsRoundTrip) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const BettingTree tree(game);
  const std::array<std::int32_t, 4> k = {7, 3, 4, 5};
  std::vector<PackedRoundBuckets> rounds = testing::modulo_packed_rounds(k);
  const PackedBucketAbstraction abstraction(std::move(rounds), 0xabcdef0123456789ULL,
                                            "test 7-3-4-5");
  const testing::HashedPolicy policy(tree, abstraction);
  const testing::TempFolder dir;
  const std::string file = dir / "h.strategy";
  StrategyFileMetadata meta;
  meta.checkpoint_hash = 77;
  meta.bucket_map = "made-up.buckets";
  write_strategy_file(file, policy, meta);
  const StrategyFile read = StrategyFile::read(file);
  EXPECT_EQ(read.abstraction_descriptor().kind, "buckets");
  EXPECT_EQ(read.abstraction().hash(), 0xabcdef0123456789ULL);
  EXPECT_EQ(read.abstraction().describe(), "test 7-3-4-5");
  EXPECT_EQ(read.metadata().bucket_map, "made-up.buckets");
  EXPECT_EQ(read.metadata().checkpoint_hash, 77u);
  EXPECT_EQ(read.game().name, game.name);
  // Buckets of random deals: the canonical index mod k.
  std::mt19937_64 rng(4);
  for (int i = 0; i < 2000; ++i) {
    std::vector<Card> deck = game.deck();
    std::shuffle(deck.begin(), deck.end(), rng);
    for (int r = 0; r < 4; ++r) {
      const std::uint64_t index = HandIndexer::holdem(r).index(deck.data());
      ASSERT_EQ(read.abstraction().bucket(r, deck.data(), deck.data() + 2),
                static_cast<std::int32_t>(index % k[r]));
    }
  }
  for (int r = 0; r < 4; ++r)
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); n += 7)
      for (std::int32_t b = 0; b < k[r]; ++b) {
        const int actions = tree.node(tree.decision_node(r, n)).num_actions;
        std::vector<double> want(actions), got(actions);
        policy.action_probabilities(r, n, b, want);
        read.action_probabilities(r, n, b, got);
        for (int a = 0; a < actions; ++a) EXPECT_LE(std::abs(want[a] - got[a]), 1.0 / 255);
      }
  // Re-writing what was read reproduces the file byte for byte.
  const std::string again = dir / "again.strategy";
  write_strategy_file(again, read, read.metadata());
  EXPECT_EQ(testing::slurp(file), testing::slurp(again));
  // A corrupt bucket array is caught by the checksum.
  std::string bytes = testing::slurp(file);
  bytes[bytes.size() - 100] ^= 0x40;
  testing::spit(file, bytes);
  EXPECT_THROW(StrategyFile::read(file), InputError);
}

}  // namespace
}  // namespace hulhe
