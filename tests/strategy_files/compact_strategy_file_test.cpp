// Compact strategy files (format version 4; 3 is read): river buckets computed at play time from
// the OCHS model. The features are RiverBoardSweep's bit for bit, the nearest centre is the lowest
// of equals, the file round-trips byte for byte and refuses damage, and (Slow) over a river table
// made by the builder's own arithmetic (RiverBoardSweep features, k-means centres, assign_nearest)
// the compact file plays the full file's actions wherever its own play goes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "abstraction/bucket_map.h"
#include "abstraction/clustered_abstraction.h"
#include "abstraction/clustering/kmeans.h"
#include "abstraction/features/river_strength.h"
#include "game/betting_tree.h"
#include "game/game_definition.h"
#include "game/hand_indexer.h"
#include "strategy_files/compact_bucket_abstraction.h"
#include "strategy_files/ochs_river_bucketer.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/hulhe_fixtures.h"
#include "tests/support/quantized_policy.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "tests/support/test_policies.h"
#include "util/checksums.h"
#include "util/input_error.h"
#include "util/static_rans.h"

namespace hulhe {
namespace {

// Preflop hand h in cluster (h * 7 + 3) mod `clusters`: every cluster used, uneven.
std::vector<std::uint8_t> spread_clusters(int clusters) {
  std::vector<std::uint8_t> c(HandIndexer::holdem(0).size());
  for (std::size_t h = 0; h < c.size(); ++h)
    c[h] = static_cast<std::uint8_t>((h * 7 + 3) % clusters);
  return c;
}

OchsRiverModel random_model(int clusters, int buckets, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(0.0F, 1.0F);
  OchsRiverModel m;
  m.clusters = clusters;
  m.preflop_cluster = spread_clusters(clusters);
  m.num_buckets = buckets;
  for (int i = 0; i < buckets * clusters; ++i) m.centres.push_back(unit(rng));
  return m;
}

std::array<Card, 7> random_cards(std::mt19937_64& rng) {
  std::vector<Card> deck(52);
  for (int c = 0; c < 52; ++c) deck[c] = static_cast<Card>(c);
  std::shuffle(deck.begin(), deck.end(), rng);
  std::array<Card, 7> out{};
  std::copy(deck.begin(), deck.begin() + 7, out.begin());
  return out;
}

TEST(OchsRiverBucketer, FeaturesAreTheBoardSweepsBitForBit) {
  std::mt19937_64 rng(11);
  for (const int clusters : {1, 3, 8}) {
    const OchsRiverBucketer bucketer(random_model(clusters, 5, 1));
    RiverBoardSweep sweep(bucketer.pair_cluster(), clusters);
    std::vector<float> values(static_cast<std::size_t>(kNumHolePairs) * clusters);
    for (int board_no = 0; board_no < 12; ++board_no) {
      const std::array<Card, 7> cards = random_cards(rng);
      const Card* board = cards.data() + 2;
      sweep.run(board, values.data());
      std::vector<float> mine(clusters);
      // Every 7th live pair: 150 hands a board, each checked in every cluster.
      for (std::size_t i = 0; i < sweep.live_pairs().size(); i += 7) {
        const int p = sweep.live_pairs()[i];
        const Card hole[2] = {hole_pairs()[p].low, hole_pairs()[p].high};
        bucketer.features(hole, board, mine.data());
        for (int k = 0; k < clusters; ++k) {
          const float want = values[static_cast<std::size_t>(p) * clusters + k];
          ASSERT_EQ(std::memcmp(&want, &mine[k], sizeof want), 0)
              << "clusters " << clusters << " pair " << p << " cluster " << k << ": " << want
              << " vs " << mine[k];
        }
      }
    }
  }
}

// A hand with a full house against a clustered field: its values are win rates in (0, 1]
// and the cluster holding the hands that tie it shows the tie.
TEST(OchsRiverBucketer, FeaturesAreWinRates) {
  const OchsRiverBucketer bucketer(random_model(1, 3, 2));
  // Board As Ad Ah 2c 7d (no flush or straight flush possible), hole Ks Kd: aces full of
  // kings. The last ace (Ac) with any of the other 44 unknown cards makes quads: 44 losses;
  // Kc Kh ties; the other 945 of the 990 opponent pairs lose.
  const Card board[5] = {make_card(12, 3), make_card(12, 1), make_card(12, 2), make_card(0, 0),
                         make_card(5, 1)};
  const Card hole[2] = {make_card(11, 3), make_card(11, 1)};
  float x = -1.0F;
  bucketer.features(hole, board, &x);
  EXPECT_EQ(x, (945.0F + 0.5F) / 990.0F);
}

TEST(OchsRiverBucketer, NearestIsTheLowestCentreOfTheSmallestDistance) {
  OchsRiverModel m = random_model(4, 150, 3);
  // Centre 140 repeats centre 70, and centre 30 equals centre 5: equal distances go to the
  // lowest index.
  std::copy(m.centres.begin() + 70 * 4, m.centres.begin() + 71 * 4, m.centres.begin() + 140 * 4);
  std::copy(m.centres.begin() + 5 * 4, m.centres.begin() + 6 * 4, m.centres.begin() + 30 * 4);
  const OchsRiverBucketer bucketer(m);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> unit(0.0F, 1.0F);
  int hit_duplicate = 0;
  for (int i = 0; i < 20000; ++i) {
    std::array<float, 4> x{};
    if (i % 3 == 0) {  // on a centre, or next to one
      const int c = static_cast<int>(rng() % 150);
      for (int t = 0; t < 4; ++t) x[t] = m.centres[c * 4 + t] + (i % 2 == 0 ? 0.0F : 0.001F);
    } else {
      for (float& v : x) v = unit(rng);
    }
    double best = std::numeric_limits<double>::infinity();
    int want = -1;
    for (int c = 0; c < 150; ++c) {
      double s = 0;
      for (int t = 0; t < 4; ++t) {
        const double d = static_cast<double>(x[t]) - m.centres[c * 4 + t];
        s += d * d;
      }
      if (s < best) best = s, want = c;
    }
    ASSERT_EQ(bucketer.nearest(x.data()), want);
    hit_duplicate += want == 70 || want == 5 ? 1 : 0;
    ASSERT_NE(want, 140);
    ASSERT_NE(want, 30);
  }
  EXPECT_GT(hit_duplicate, 50);
}

TEST(OchsRiverModel, ReadFromTheBucketMapsRiver) {
  RoundBuckets river;
  river.round = 3;
  river.method = "ochs";
  river.num_buckets = 2;
  river.centres.rows = 2;
  river.centres.cols = 3;
  river.centres.data = {0.1F, 0.2F, 0.3F, 0.9F, 0.8F, 0.7F};
  std::string digits;
  for (std::uint8_t c : spread_clusters(3)) digits += static_cast<char>('0' + c);
  river.feature = "ochs buckets=2 sample=0 opponent_clusters=3 preflop_clusters=" + digits;
  const OchsRiverModel m = OchsRiverModel::from(river, "x.buckets");
  EXPECT_EQ(m.clusters, 3);
  EXPECT_EQ(m.num_buckets, 2);
  EXPECT_EQ(m.preflop_cluster, spread_clusters(3));
  EXPECT_EQ(m.centres, river.centres.data);

  auto error = [](const RoundBuckets& r) {
    try {
      OchsRiverModel::from(r, "x.buckets");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  RoundBuckets other = river;
  other.method = "ehs";
  EXPECT_NE(error(other).find("this map's river is 'ehs'"), std::string::npos) << error(other);
  other = river;
  other.feature.pop_back();  // 168 digits
  EXPECT_NE(error(other).find("168 digits"), std::string::npos) << error(other);
  other = river;
  other.feature.back() = '7';  // cluster 7 of 3
  EXPECT_NE(error(other).find("preflop cluster is out of range"), std::string::npos);
  other = river;
  other.centres.data[4] = 1.5F;
  EXPECT_NE(error(other).find("outside [0, 1]"), std::string::npos);
}

// Rounds 0-2 as canonical index mod k, a random river model and two exceptions.
struct SyntheticCompact {
  std::shared_ptr<const CompactBucketAbstraction> abstraction;
  std::array<Card, 7> exception_hand{};
  std::uint32_t exception_bucket = 0;
};

SyntheticCompact synthetic_compact(std::uint64_t hash) {
  std::vector<PackedRoundBuckets> rounds = testing::modulo_packed_rounds({169, 3, 4, 2});
  rounds.pop_back();
  const OchsRiverModel model = random_model(8, 20, 9);
  const OchsRiverBucketer bucketer(model);
  std::mt19937_64 rng(21);
  SyntheticCompact s;
  s.exception_hand = random_cards(rng);
  const std::uint32_t index =
      static_cast<std::uint32_t>(HandIndexer::holdem(3).index(s.exception_hand.data()));
  s.exception_bucket =
      static_cast<std::uint32_t>(
          bucketer.bucket(s.exception_hand.data(), s.exception_hand.data() + 2) + 1) %
      20;
  RiverExceptions e;
  e.index = {index / 2, index};
  e.bucket = {7, s.exception_bucket};
  s.abstraction = std::make_shared<CompactBucketAbstraction>(std::move(rounds), model, e, hash,
                                                             "synthetic 169-3-4-20");
  return s;
}

class CompactStrategyFile : public ::testing::Test {
 protected:
  CompactStrategyFile()
      : game_(GameDefinition::holdem_limit_2p()),
        tree_(game_),
        synthetic_(synthetic_compact(0x5eed)),
        policy_(tree_, *synthetic_.abstraction) {}

  std::string write(const std::string& name, int bits = 8) {
    const std::string path = dir_ / name;
    StrategyFileMetadata meta;
    meta.bits = bits;
    meta.algorithm = "test";
    write_strategy_file(path, policy_, meta);
    return path;
  }
  std::string read_error(const std::string& bytes) {
    const std::string path = dir_ / "damaged.strategy";
    testing::spit(path, bytes);
    try {
      StrategyFile::read(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  // `bytes` with its body checksum made right again (the header's 8 bytes at offset 36).
  static std::string with_checksum(std::string bytes) {
    const std::uint64_t sum = checksum64(bytes.data() + 56, bytes.size() - 56);
    for (int i = 0; i < 8; ++i) bytes[36 + i] = static_cast<char>((sum >> (8 * i)) & 0xff);
    return bytes;
  }

  // The policy's values at a set as a full file of `bits` stores them.
  std::vector<std::uint32_t> full_values(int bits, int r, std::int32_t n, std::int32_t b) const {
    return testing::full_values(policy_, bits, r, n, b);
  }
  bool reached_by_own_play(int bits, int r, std::int32_t n, std::int32_t b) const {
    return testing::reached_by_own_play(policy_, bits, r, n, b);
  }

  GameDefinition game_;
  BettingTree tree_;
  SyntheticCompact synthetic_;
  testing::HashedPolicy policy_;
  testing::TempFolder dir_;
};

TEST_F(CompactStrategyFile, RoundTripsExactly) {
  for (const int bits : {8, 16, 4, 3}) {
    const std::string path = write("c" + std::to_string(bits) + ".strategy", bits);
    const std::string bytes = testing::slurp(path);
    EXPECT_EQ(bytes[8], 4) << "format version 4";
    const StrategyFile read = StrategyFile::read(path);
    EXPECT_TRUE(read.metadata().compact);
    EXPECT_EQ(read.abstraction_descriptor().kind, "compact");
    EXPECT_EQ(read.abstraction().hash(), 0x5eedU);
    EXPECT_EQ(read.abstraction().describe(), "synthetic 169-3-4-20");
    // Every round's bucket of random deals is the in-memory abstraction's.
    std::mt19937_64 rng(8);
    for (int i = 0; i < 3000; ++i) {
      const std::array<Card, 7> cards = random_cards(rng);
      for (int r = 0; r < 4; ++r)
        ASSERT_EQ(read.abstraction().bucket(r, cards.data(), cards.data() + 2),
                  synthetic_.abstraction->bucket(r, cards.data(), cards.data() + 2));
    }
    // The exception overrides the computed bucket, in every suit relabelling of its hand.
    std::array<Card, 7> hand = synthetic_.exception_hand;
    const auto& river = dynamic_cast<const CompactBucketAbstraction&>(read.abstraction()).river();
    EXPECT_NE(river.bucket(hand.data(), hand.data() + 2),
              static_cast<std::int32_t>(synthetic_.exception_bucket));
    for (Card& c : hand) c = make_card(rank_of(c), (suit_of(c) + 1) % 4);
    EXPECT_EQ(read.abstraction().bucket(3, hand.data(), hand.data() + 2),
              static_cast<std::int32_t>(synthetic_.exception_bucket));
    EXPECT_EQ(read.bits(), bits);
    EXPECT_EQ(read.quantum_total(), (1U << bits) - 1);
    // Where the policy's own play reaches a set, its probabilities are those a full file
    // holds (the writer's quantisation of the policy), value for value, the implied last one
    // too; elsewhere (a fifth of the policy's probabilities are 0) the uniform quantisation.
    std::int64_t reached = 0, unreached = 0;
    for (int r = 0; r < 4; ++r)
      for (std::int32_t n = 0; n < tree_.num_decision_nodes(r); n += 3)
        for (std::int32_t b = 0; b < read.abstraction().num_buckets(r); b += 2) {
          const int actions = tree_.node(tree_.decision_node(r, n)).num_actions;
          std::vector<std::uint32_t> want = full_values(bits, r, n, b);
          if (reached_by_own_play(bits, r, n, b)) {
            ++reached;
          } else {
            ++unreached;
            want = testing::quantized(std::vector<double>(actions, 1.0), bits);
          }
          std::vector<std::uint32_t> got;
          if (bits == 16)
            for (const std::uint16_t q : read.quantized16(r, n, b)) got.push_back(q);
          else
            for (const std::uint8_t q : read.quantized(r, n, b)) got.push_back(q);
          ASSERT_EQ(got, want) << "bits " << bits << " round " << r << " node " << n << " bucket "
                               << b;
        }
    EXPECT_GT(unreached, 0);
    EXPECT_GT(reached, unreached);
    // Re-writing what was read reproduces the file byte for byte.
    const std::string again = dir_ / "again.strategy";
    write_strategy_file(again, read, read.metadata());
    EXPECT_EQ(testing::slurp(again), bytes);
  }
}

// Format version 3, the compact file before version 4, written here as its writers before
// commit e223095 did: every information set stored (none left out), each 8-bit value
// rANS-coded under its (round, actions, slot) context alone. It is read, every set's values
// the full file's. (e223095's version 3 files, which leave out unreached sets, are saved
// fixtures: compact_strategy_file_v3_test.cpp.)
TEST_F(CompactStrategyFile, ReadsFormatVersion3) {
  const CompactBucketAbstraction& compact = *synthetic_.abstraction;
  std::vector<std::int32_t> buckets;
  for (int r = 0; r < 4; ++r) buckets.push_back(compact.num_buckets(r));
  std::vector<std::uint8_t> stored, contexts;
  std::map<std::tuple<int, int, int>, std::uint8_t> number;
  for (int r = 0; r < 4; ++r)
    for (std::int32_t n = 0; n < tree_.num_decision_nodes(r); ++n) {
      const int actions = tree_.node(tree_.decision_node(r, n)).num_actions;
      for (std::int32_t b = 0; b < buckets[r]; ++b) {
        const std::vector<std::uint32_t> q = full_values(8, r, n, b);
        for (int a = 0; a + 1 < actions; ++a) {
          stored.push_back(static_cast<std::uint8_t>(q[a]));
          contexts.push_back(
              number.try_emplace({r, actions, a}, static_cast<std::uint8_t>(number.size()))
                  .first->second);
        }
      }
    }
  const std::vector<RansFrequencies> model =
      rans_model(stored, contexts, static_cast<int>(number.size()));
  std::vector<std::uint16_t> frequencies;
  for (const RansFrequencies& f : model) frequencies.insert(frequencies.end(), f.begin(), f.end());
  std::ostringstream body_stream;
  {
    cereal::PortableBinaryOutputArchive ar(body_stream);
    const AbstractionDescriptor descriptor{"compact", compact.hash(), compact.describe(), ""};
    ar(game_.to_acpc_string(), game_.name, descriptor, std::string("test"), std::int64_t{0},
       buckets, frequencies, rans_encode(stored, contexts, model));
    ar(std::uint32_t{3});
    for (const PackedRoundBuckets& t : compact.tables())
      ar(t.num_buckets, t.num_hands, t.width, t.bytes);
    const OchsRiverModel& m = compact.river().model();
    ar(m.clusters, m.preflop_cluster, m.num_buckets, m.centres);
    ar(compact.exceptions().index, compact.exceptions().bucket);
  }
  const std::string body = std::move(body_stream).str();
  std::string bytes = "HULHESTR";
  const auto put = [&](std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  put(3, 4);
  put(game_.hash(), 8);
  put(0, 8);
  put(body.size(), 8);
  put(checksum64(body.data(), body.size()), 8);
  put(compact.hash(), 8);
  put(8, 4);
  const std::string path = dir_ / "v3.strategy";
  testing::spit(path, bytes + body);
  const StrategyFile read = StrategyFile::read(path);
  EXPECT_TRUE(read.metadata().compact);
  std::int64_t compared = 0;
  for (int r = 0; r < 4; ++r)
    for (std::int32_t n = 0; n < tree_.num_decision_nodes(r); ++n)
      for (std::int32_t b = 0; b < buckets[r]; ++b, ++compared) {
        const auto got = read.quantized(r, n, b);
        ASSERT_EQ(std::vector<std::uint32_t>(got.begin(), got.end()), full_values(8, r, n, b))
            << r << " " << n << " " << b;
      }
  EXPECT_GT(compared, 1000);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 500; ++i) {
    const std::array<Card, 7> cards = random_cards(rng);
    ASSERT_EQ(read.abstraction().bucket(3, cards.data(), cards.data() + 2),
              compact.bucket(3, cards.data(), cards.data() + 2));
  }
  // Written again, it is a version 4 file: the sets its play never reaches left out.
  const std::string again = dir_ / "v4.strategy";
  write_strategy_file(again, read, read.metadata());
  EXPECT_EQ(testing::slurp(again)[8], 4);
  EXPECT_LT(testing::slurp(again).size(), bytes.size() + body.size());
}

TEST_F(CompactStrategyFile, DamageIsRefusedWithAReason) {
  const std::string bytes = testing::slurp(write("c.strategy"));
  ASSERT_EQ(read_error(bytes), "");
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  EXPECT_NE(read_error(flipped).find("checksum mismatch"), std::string::npos);
  EXPECT_NE(read_error(bytes.substr(0, bytes.size() - 3)).find("truncated"), std::string::npos);
  // A compact body under a version 2 header.
  std::string v2 = bytes;
  v2[8] = 2;
  EXPECT_NE(read_error(v2).find("abstraction kind 'compact' in a format version 2 file"),
            std::string::npos)
      << read_error(v2);
  // The tail: ... centres (u64 count, floats), exception indices, exception buckets (u64
  // count, 2 u32 each).
  const std::size_t tail = 8 + 4 * 2 + 8 + 4 * 2;
  std::string nan = bytes;
  const std::uint32_t nan_bits = 0x7fc00000U;
  std::memcpy(nan.data() + bytes.size() - tail - 4, &nan_bits, 4);
  EXPECT_NE(read_error(with_checksum(nan)).find("corrupt river model: a river centre is outside"),
            std::string::npos)
      << read_error(with_checksum(nan));
  std::string order = bytes;  // the exception indices swapped: not ascending
  const std::size_t first = bytes.size() - tail + 8;
  std::swap_ranges(order.begin() + first, order.begin() + first + 4, order.begin() + first + 4);
  EXPECT_NE(read_error(with_checksum(order)).find("indices ascending"), std::string::npos)
      << read_error(with_checksum(order));
  std::string bucket = bytes;  // the last exception's bucket 20 of 20
  const std::uint32_t twenty = 20;
  std::memcpy(bucket.data() + bytes.size() - 4, &twenty, 4);
  EXPECT_NE(read_error(with_checksum(bucket)).find("a bucket is out of range"), std::string::npos);
  // 16-bit files store the values plainly: the first information set's two stored values
  // (after their u64 count) set to 40,000 each, above 65535 together.
  const std::string bytes16 = testing::slurp(write("c16.strategy", 16));
  std::int64_t stored = 0;  // the values of the sets the policy's own play reaches
  for (int r = 0; r < 4; ++r)
    for (std::int32_t n = 0; n < tree_.num_decision_nodes(r); ++n)
      for (std::int32_t b = 0; b < synthetic_.abstraction->num_buckets(r); ++b)
        if (reached_by_own_play(16, r, n, b))
          stored += tree_.node(tree_.decision_node(r, n)).num_actions - 1;
  std::string count(8, '\0');
  for (int i = 0; i < 8; ++i) count[i] = static_cast<char>((stored >> (8 * i)) & 0xff);
  const std::size_t at = bytes16.find(count, 56);
  ASSERT_NE(at, std::string::npos);
  std::string over = bytes16;
  for (const std::size_t v : {at + 8, at + 10}) {
    over[v] = static_cast<char>(40000 & 0xff);
    over[v + 1] = static_cast<char>(40000 >> 8);
  }
  EXPECT_NE(read_error(with_checksum(over)).find("stored probabilities exceed 65535/65535"),
            std::string::npos)
      << read_error(with_checksum(over));
}

// The claim of the format, on a river table made as the builder makes one: OCHS features by
// RiverBoardSweep, centres by k-means on a sample of them, every canonical river hand
// assigned by assign_nearest. The compact file's buckets and action probabilities equal the
// full file's over random deals and betting sequences, and the river check finds (almost)
// nothing to store.
TEST(CompactStrategyFileHoldemSlow, PlaysTheFullFilesActions) {
  const GameDefinition game = GameDefinition::holdem_limit_2p();
  const BettingTree tree(game);
  constexpr int kClusters = 8, kBuckets = 24;
  const std::vector<std::uint8_t> preflop = spread_clusters(kClusters);
  const std::vector<std::uint8_t> pair_cluster =
      OchsRiverBucketer(random_model(kClusters, 1, 1)).pair_cluster();
  const auto boards = canonical_boards(5);
  const auto& pairs = hole_pairs();
  // Centres: k-means (L2) on the features of every 500th canonical board's hands.
  FeatureMatrix sample;
  sample.cols = kClusters;
  {
    RiverBoardSweep sweep(pair_cluster, kClusters);
    std::vector<float> values(static_cast<std::size_t>(kNumHolePairs) * kClusters);
    for (std::size_t b = 0; b < boards.size(); b += 500) {
      sweep.run(boards[b].data(), values.data());
      for (const std::int16_t p : sweep.live_pairs())
        sample.data.insert(sample.data.end(), values.begin() + p * kClusters,
                           values.begin() + (p + 1) * kClusters);
    }
    sample.rows = static_cast<std::int64_t>(sample.data.size() / kClusters);
  }
  KMeansOptions o;
  o.clusters = kBuckets;
  o.max_iterations = 10;
  o.seed = 4;
  o.threads = 2;
  const FeatureMatrix centres = kmeans(sample, KMeansMetric::kL2, o).centres;
  // The river table: every canonical board's hands assigned by the builder's assign_nearest.
  const HandIndexer& river_indexer = HandIndexer::holdem(3);
  std::vector<std::uint16_t> river(river_indexer.size());
  const int num_boards = static_cast<int>(boards.size());
#pragma omp parallel num_threads(2)
  {
    RiverBoardSweep sweep(pair_cluster, kClusters);
    std::vector<float> values(static_cast<std::size_t>(kNumHolePairs) * kClusters);
    FeatureMatrix rows;
    rows.cols = kClusters;
    std::vector<std::int32_t> assignment;
#pragma omp for schedule(dynamic, 64)
    for (int b = 0; b < num_boards; ++b) {
      sweep.run(boards[b].data(), values.data());
      rows.data.clear();
      for (const std::int16_t p : sweep.live_pairs())
        rows.data.insert(rows.data.end(), values.begin() + p * kClusters,
                         values.begin() + (p + 1) * kClusters);
      rows.rows = static_cast<std::int64_t>(sweep.live_pairs().size());
      assign_nearest(rows, centres, KMeansMetric::kL2, assignment, 1);
      Card cards[7] = {0, 0, boards[b][0], boards[b][1], boards[b][2], boards[b][3], boards[b][4]};
      for (std::size_t i = 0; i < sweep.live_pairs().size(); ++i) {
        const int p = sweep.live_pairs()[i];
        cards[0] = pairs[p].low;
        cards[1] = pairs[p].high;
        river[river_indexer.index(cards)] = static_cast<std::uint16_t>(assignment[i]);
      }
    }
  }
  // The bucket map: lossless preflop, hashed flop and turn, this OCHS river.
  auto map = std::make_shared<BucketMap>();
  map->game_hash = game.hash();
  for (int r = 0; r < 3; ++r) {
    const std::int32_t k = std::array<std::int32_t, 3>{169, 40, 30}[r];
    RoundBuckets rb;
    rb.round = r;
    rb.method = r == 0 ? "lossless" : "hashed";
    rb.num_buckets = k;
    std::vector<std::int32_t> b(HandIndexer::holdem(r).size());
    for (std::size_t i = 0; i < b.size(); ++i)
      b[i] = r == 0 ? static_cast<std::int32_t>(i) : testing::index_hash_bucket(i, k);
    rb.set_buckets(b);
    map->rounds.push_back(std::move(rb));
  }
  map->rounds.emplace_back();
  RoundBuckets& r3 = map->rounds[3];
  r3.round = 3;
  r3.method = "ochs";
  r3.num_buckets = kBuckets;
  r3.bucket16 = std::move(river);
  r3.centres = centres;
  r3.feature = "ochs buckets=24 preflop_clusters=";
  for (std::uint8_t c : preflop) r3.feature += static_cast<char>('0' + c);
  const ClusteredAbstraction clustered(map);

  const testing::HashedPolicy policy(tree, clustered);
  const testing::TempFolder dir;
  StrategyFileMetadata meta;
  write_strategy_file(dir / "full.strategy", policy, meta);
  const CompactBucketAbstraction compact =
      CompactBucketAbstraction::from(clustered, "test.buckets", 2);
  write_compact_strategy_file(dir / "compact.strategy", policy, compact, meta);
  // Near-ties of float and double arg-mins only: at most one hand in 10,000 (the real quick
  // map has 2.4 in a million).
  EXPECT_LT(compact.exceptions().index.size(), river_indexer.size() / 10000);
  std::printf("river exceptions: %zu of %llu hands\n", compact.exceptions().index.size(),
              static_cast<unsigned long long>(river_indexer.size()));
  const StrategyFile full = StrategyFile::read(dir / "full.strategy");
  const StrategyFile small = StrategyFile::read(dir / "compact.strategy");
  EXPECT_LT(testing::slurp(dir / "compact.strategy").size() * 5,
            testing::slurp(dir / "full.strategy").size());

  // Random deals; one seat plays the full file's strategy (the file's own actions, as `hulhe
  // play` samples them), the other bets at random. At every decision the same bucket; at the
  // strategy's decisions the same probabilities (exactly: the same quantised values) and the
  // same action from the same random bits. (A fifth of the policy's probabilities are 0, so
  // the compact file leaves out sets that this play never reaches.)
  std::mt19937_64 rng(99);
  std::int64_t decisions = 0, river_decisions = 0;
  for (int deal = 0; deal < 20000; ++deal) {
    std::vector<Card> deck = game.deck();
    std::shuffle(deck.begin(), deck.end(), rng);
    const Card* board = deck.data() + 4;
    const int ours = deal % 2;
    std::int32_t at = tree.root();
    while (tree.node(at).kind == NodeKind::kDecision) {
      const BettingNode& n = tree.node(at);
      const Card* hole = deck.data() + 2 * n.player;
      const std::int32_t b = full.abstraction().bucket(n.round, hole, board);
      ASSERT_EQ(small.abstraction().bucket(n.round, hole, board), b) << "deal " << deal;
      int slot = 0;
      if (n.player == ours) {
        const auto want = full.quantized(n.round, n.id_in_round, b);
        const auto got = small.quantized(n.round, n.id_in_round, b);
        ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin(), got.end()));
        const auto bits = static_cast<std::uint32_t>(rng());
        slot = full.sample_action_from_bits(n.round, n.id_in_round, b, bits);
        ASSERT_EQ(small.sample_action_from_bits(n.round, n.id_in_round, b, bits), slot);
        ++decisions;
        river_decisions += n.round == 3 ? 1 : 0;
      } else {
        // Calls more often than folds, so that most deals reach the river.
        slot = n.num_actions == 3 && rng() % 4 != 0 ? 1 + static_cast<int>(rng() % 2)
                                                    : static_cast<int>(rng() % n.num_actions);
      }
      at = n.child[slot];
    }
  }
  EXPECT_GT(river_decisions, 5000);
  std::printf("%lld decisions compared, %lld on the river\n", static_cast<long long>(decisions),
              static_cast<long long>(river_decisions));
}

}  // namespace
}  // namespace hulhe
