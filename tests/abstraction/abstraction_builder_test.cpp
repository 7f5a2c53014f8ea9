// The abstraction builder's parts on small synthetic data (fast), the configs, and a whole
// small HULHE build (Slow): every canonical hand gets a bucket, counts as configured, the
// map round-trips through its file and answers bucket(round, hole, board).
#include "abstraction/abstraction_builder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "abstraction/abstraction_config.h"
#include "abstraction/clustered_abstraction.h"
#include "abstraction/clustering/earth_movers_distance.h"
#include "abstraction/clustering/kmeans.h"
#include "game/game_definition.h"
#include "game/hand_indexer.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

TEST(AbstractionBuilder, PercentileBucketsSplitEvenlyAndKeepTiesTogether) {
  std::mt19937_64 rng(3);
  std::vector<float> v(10000);
  for (float& x : v) x = static_cast<float>(rng() % 2000) / 2000.0f;  // many ties
  std::vector<float> centres;
  auto b = percentile_buckets(v, 10, centres);
  std::vector<std::int64_t> count(10, 0);
  std::vector<double> sum(10, 0.0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_GE(b[i], 0);
    ASSERT_LT(b[i], 10);
    ++count[b[i]];
    sum[b[i]] += v[i];
  }
  std::map<float, std::set<int>> by_value;
  for (std::size_t i = 0; i < v.size(); ++i) by_value[v[i]].insert(b[i]);
  int last = -1;
  for (auto& [value, s] : by_value) {
    ASSERT_EQ(s.size(), 1U) << "tied value " << value << " split";
    EXPECT_GE(*s.begin(), last) << "buckets must be monotone in the value";
    last = *s.begin();
  }
  for (int c = 0; c < 10; ++c) {
    // Ties move a boundary by at most one tie group (~5 hands here).
    EXPECT_NEAR(count[c], 1000, 20) << "bucket " << c;
    EXPECT_NEAR(centres[c], sum[c] / count[c], 1e-5);
  }
}

TEST(AbstractionBuilder, HistogramsFromListsCountNextRoundBuckets) {
  // Two hands, 6 successors each, over 5 next-round buckets.
  std::vector<std::int32_t> lists{3, 1, 3, 3, 0, 1, /**/ 4, 4, 4, 4, 4, 4};
  SparseHistograms h = histograms_from_lists(lists.data(), 2, 6, 5, 2);
  ASSERT_EQ(h.rows, 2);
  EXPECT_EQ(h.dims, 5);
  ASSERT_EQ(h.size(0), 3);
  EXPECT_EQ(std::vector<std::uint32_t>(h.cluster_of(0), h.cluster_of(0) + 3),
            (std::vector<std::uint32_t>{0, 1, 3}));
  EXPECT_FLOAT_EQ(h.mass_of(0)[0], 1.0f / 6);
  EXPECT_FLOAT_EQ(h.mass_of(0)[1], 2.0f / 6);
  EXPECT_FLOAT_EQ(h.mass_of(0)[2], 3.0f / 6);
  ASSERT_EQ(h.size(1), 1);
  EXPECT_EQ(h.cluster_of(1)[0], 4U);
  EXPECT_FLOAT_EQ(h.mass_of(1)[0], 1.0f);
}

TEST(AbstractionBuilder, BlockedNextRoundHistogramsEqualListsThenHistograms) {
  // Preflop over a made-up flop bucketing: the blocked builder must give exactly the
  // histograms of the per-hand lists (each of the 19,600 flops counted once).
  std::vector<std::int32_t> flop_bucket(HandIndexer::holdem(1).size());
  for (std::size_t i = 0; i < flop_bucket.size(); ++i)
    flop_bucket[i] = static_cast<std::int32_t>((i * 2654435761U) % 7);
  const NextRoundBuckets lists = next_round_buckets(0, flop_bucket, 2);
  const SparseHistograms want =
      histograms_from_lists(lists.bucket.data(), lists.rows, lists.per_row, 7, 2);
  const SparseHistograms got = next_round_histograms(0, flop_bucket, 7, 2);
  EXPECT_EQ(got.rows, 169);
  EXPECT_EQ(got.dims, 7);
  EXPECT_EQ(got.offset, want.offset);
  EXPECT_EQ(got.cluster, want.cluster);
  EXPECT_EQ(got.mass, want.mass);
  for (std::int64_t i = 0; i < got.rows; ++i) {
    double total = 0;
    for (int e = 0; e < got.size(i); ++e) total += got.mass_of(i)[e];
    EXPECT_NEAR(total, 1.0, 1e-5);
  }
}

TEST(AbstractionBuilder, CdfL1IsTheOneDimensionalEmdInStrengthUnits) {
  std::mt19937_64 rng(9);
  const int bins = 20;
  FeatureMatrix h;
  h.rows = 50;
  h.cols = bins;
  h.data.resize(50 * bins);
  for (std::int64_t i = 0; i < h.rows; ++i) {
    float s = 0;
    for (int j = 0; j < bins; ++j) s += h.row(i)[j] = static_cast<float>(rng() % 100);
    for (int j = 0; j < bins; ++j) h.row(i)[j] /= s;
  }
  FeatureMatrix cdf = h;
  histograms_to_cdfs(cdf, 2);
  for (int t = 0; t < 40; ++t) {
    std::int64_t a = t, b = 49 - t;
    double l1 = metric_distance(cdf.row(a), cdf.row(b), bins, KMeansMetric::kL1);
    EXPECT_NEAR(l1, emd_1d(h.row(a), h.row(b), bins) / bins, 1e-5);
  }
}

std::string repo(const std::string& p) {
  return std::string(HULHE_SOURCE_DIR) + "/" + p;
}

TEST(AbstractionConfig, ShippedConfigsParseWithTheirBucketCounts) {
  struct Expect {
    const char* file;
    std::array<int, 4> buckets;
    BucketingMethod flop_and_turn;
  };
  // The standard config's flop and turn are KE (docs/strategy-quality.md).
  for (Expect e :
       {Expect{"configs/hulhe-quick.toml", {169, 50, 50, 50}, BucketingMethod::kPotential},
        Expect{
            "configs/hulhe-standard.toml", {169, 3000, 3000, 740}, BucketingMethod::kDistribution},
        Expect{"configs/hulhe-large.toml", {169, 9000, 9000, 9000}, BucketingMethod::kPotential}}) {
    AbstractionConfig c = AbstractionConfig::from_file(repo(e.file));
    EXPECT_TRUE(std::filesystem::exists(c.game_path)) << c.game_path;
    EXPECT_EQ(c.rounds[0].method, BucketingMethod::kLossless) << e.file;
    for (int r = 1; r < 4; ++r) EXPECT_EQ(c.rounds[r].buckets, e.buckets[r]) << e.file << r;
    EXPECT_EQ(c.rounds[1].method, e.flop_and_turn) << e.file;
    EXPECT_EQ(c.rounds[2].method, e.flop_and_turn) << e.file;
    EXPECT_EQ(c.rounds[3].method, BucketingMethod::kOchs);
    // The effective config hashes stably and differs between configs.
    EXPECT_EQ(c.hash(), AbstractionConfig::from_file(repo(e.file)).hash());
  }
  EXPECT_NE(AbstractionConfig::from_file(repo("configs/hulhe-quick.toml")).hash(),
            AbstractionConfig::from_file(repo("configs/hulhe-standard.toml")).hash());
}

const char* kGood = R"(game = "g.game"
seed = 3
[preflop]
method = "lossless"
[flop]
method = "distribution"
buckets = 10
bins = 20
[turn]
method = "ehs"
buckets = 10
[river]
method = "ochs"
buckets = 10
)";

void expect_config_error(const std::string& text, const std::string& fragment) {
  try {
    AbstractionConfig::from_string(text, "bad.toml", ".");
    ADD_FAILURE() << "accepted: " << fragment;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad.toml"), std::string::npos) << msg;
    EXPECT_NE(msg.find(fragment), std::string::npos) << msg;
  }
}

TEST(AbstractionConfig, ParsesAndRejectsBadConfigsByName) {
  AbstractionConfig c = AbstractionConfig::from_string(kGood, "good.toml", "/base");
  EXPECT_EQ(c.game_path, "/base/g.game");
  EXPECT_EQ(c.seed, 3U);
  EXPECT_EQ(c.rounds[1].method, BucketingMethod::kDistribution);
  EXPECT_EQ(c.rounds[1].bins, 20);
  EXPECT_EQ(c.rounds[2].method, BucketingMethod::kEhs);
  std::string s = kGood;
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = s;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  expect_config_error(with("seed = 3", "sed = 3"), "sed");
  expect_config_error(with("bins = 20", "bins = \"many\""), "flop.bins");
  expect_config_error(with("buckets = 10\nbins", "buckets = 0\nbins"), "flop.buckets");
  expect_config_error(with("method = \"ehs\"", "method = \"magic\""), "magic");
  expect_config_error(with("method = \"ehs\"", "method = \"ochs\""), "river");
  {
    s = with("method = \"ehs\"", "method = \"potential\"");              // turn over the river:
    EXPECT_NO_THROW(AbstractionConfig::from_string(s, "ok.toml", "."));  // fine over ochs,
    expect_config_error(with("method = \"ochs\"\nbuckets = 10", "method = \"lossless\""),
                        "lossless");  // impossible over a lossless river
    s = kGood;
  }
  expect_config_error(with("method = \"ehs\"\nbuckets = 10", "method = \"ehs\""), "buckets");
  expect_config_error(with("[river]\nmethod = \"ochs\"", "[river]\nmethod = \"distribution\""),
                      "river");
  expect_config_error(with("game = \"g.game\"", ""), "game");
  expect_config_error(with("[turn]", "[turn"), "TOML");
}

TEST(AbstractionConfig, MedoidCentresArePotentialOnlyAndChangeTheHash) {
  const std::string potential = std::string(kGood).replace(
      std::string(kGood).find("method = \"ehs\""), 14, "method = \"potential\"");
  AbstractionConfig mean = AbstractionConfig::from_string(potential, "ok.toml", ".");
  EXPECT_FALSE(mean.rounds[2].medoid_centres);
  std::string text = potential;
  text.replace(text.find("method = \"potential\""), 20,
               "method = \"potential\"\ncentres = \"medoid\"");
  AbstractionConfig medoid = AbstractionConfig::from_string(text, "ok.toml", ".");
  EXPECT_TRUE(medoid.rounds[2].medoid_centres);
  EXPECT_NE(medoid.hash(), mean.hash());
  EXPECT_NE(medoid.describe(2).find("centres=medoid"), std::string::npos);
  // "mean" is the default: it keeps the hash (and the bucket maps) of configs without the key.
  std::string explicit_mean = potential;
  explicit_mean.replace(explicit_mean.find("method = \"potential\""), 20,
                        "method = \"potential\"\ncentres = \"mean\"");
  EXPECT_EQ(AbstractionConfig::from_string(explicit_mean, "ok.toml", ".").hash(), mean.hash());
  std::string bad_value = text;
  bad_value.replace(bad_value.find("\"medoid\""), 8, "\"median\"");
  expect_config_error(bad_value, "turn.centres");
  std::string not_potential = kGood;
  not_potential.replace(not_potential.find("bins = 20"), 9, "bins = 20\ncentres = \"medoid\"");
  expect_config_error(not_potential, "flop.centres");
}

// A whole HULHE build (the builder's every round over real hands, through `hulhe abstract`)
// is AbstractCliSlow.BuildsASmallAbstractionEndToEnd: one pass over the river table serves
// both the command and the builder's checks.

}  // namespace
}  // namespace hulhe
