// Bucket map files: round trip, atomic replacement, and every kind of bad file (missing,
// foreign, truncated, corrupted, other version, other game) is an InputError naming it.
#include "abstraction/bucket_map.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <string>

#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

namespace fs = std::filesystem;

BucketMap sample_map() {
  std::mt19937_64 rng(1);
  BucketMap m;
  m.game_hash = 0x1234567890ABCDEFULL;
  m.source_hash = 42;
  m.source = "game = \"x.game\"\n";
  // Round `round`'s `hands` buckets drawn from `rng` among `buckets`, with `rows` x `cols`
  // centres.
  const auto random_round = [&rng](int round, const char* method, int buckets, int hands, int rows,
                                   int cols) {
    RoundBuckets r;
    r.round = round;
    r.method = method;
    r.num_buckets = buckets;
    std::vector<std::int32_t> b(static_cast<std::size_t>(hands));
    for (auto& x : b) x = static_cast<std::int32_t>(rng() % static_cast<unsigned>(buckets));
    r.set_buckets(b);
    r.centres.rows = rows;
    r.centres.cols = cols;
    return r;
  };
  RoundBuckets a = random_round(0, "ehs", 7, 169, 7, 1);
  for (int i = 0; i < 7; ++i) a.centres.data.push_back(i / 7.0f);
  a.feature = "ehs buckets=7";
  a.cost = 1.25;
  RoundBuckets c = random_round(1, "potential", 70000, 100000, 3, 2);  // 32-bit storage
  c.centres.data = {1, 2, 3, 4, 5, 6};
  c.feature = "potential";
  m.rounds = {a, c};
  return m;
}

// In this process's own folder, removed at exit.
std::string temp_path(const std::string& name) {
  static const testing::TempFolder dir;
  return dir / name;
}

// The load must fail with an InputError whose message names the file.
void expect_bad_file(const std::string& path, const std::string& what,
                     std::optional<std::uint64_t> game = std::nullopt) {
  try {
    BucketMap::load(path, game, "game.game");
    ADD_FAILURE() << what << ": loaded without error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << what << ": " << e.what();
  }
}

TEST(BucketMap, RoundTripsThroughFile) {
  BucketMap m = sample_map();
  EXPECT_FALSE(m.rounds[0].bucket16.empty());
  EXPECT_FALSE(m.rounds[1].bucket32.empty());
  const std::string p = temp_path("rt.buckets");
  m.save(p);
  BucketMap back = BucketMap::load(p, m.game_hash);
  EXPECT_EQ(back.game_hash, m.game_hash);
  EXPECT_EQ(back.source_hash, m.source_hash);
  EXPECT_EQ(back.source, m.source);
  ASSERT_EQ(back.rounds.size(), 2U);
  for (int r = 0; r < 2; ++r) {
    const RoundBuckets &x = m.rounds[r], &y = back.rounds[r];
    EXPECT_EQ(y.round, x.round);
    EXPECT_EQ(y.method, x.method);
    EXPECT_EQ(y.num_buckets, x.num_buckets);
    EXPECT_EQ(y.bucket16, x.bucket16);
    EXPECT_EQ(y.bucket32, x.bucket32);
    EXPECT_EQ(y.centres.rows, x.centres.rows);
    EXPECT_EQ(y.centres.cols, x.centres.cols);
    EXPECT_EQ(y.centres.data, x.centres.data);
    EXPECT_EQ(y.feature, x.feature);
    EXPECT_EQ(y.cost, x.cost);
    for (std::int64_t i = 0; i < x.size(); i += 97) EXPECT_EQ(y[i], x[i]);
  }
  EXPECT_EQ(back.hash(), m.hash());
  // Counts add up to the number of hands.
  auto counts = back.rounds[0].counts();
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}), 169);
  fs::remove(p);
}

TEST(BucketMap, SaveReplacesAtomicallyAndLeavesNoTemporary) {
  const std::string p = temp_path("atomic.buckets");
  BucketMap m = sample_map();
  m.save(p);
  m.rounds[0].cost = 99.0;
  m.save(p);  // over the old file
  EXPECT_EQ(BucketMap::load(p).rounds[0].cost, 99.0);
  for (const auto& entry : fs::directory_iterator(fs::path(p).parent_path()))
    EXPECT_EQ(entry.path().string().find(p + ".tmp"), std::string::npos) << entry.path();
  fs::remove(p);
  EXPECT_THROW(m.save("/nonexistent-dir/x.buckets"), InputError);
}

TEST(BucketMap, BadFilesAreClearErrors) {
  const std::string p = temp_path("good.buckets");
  const std::string q = temp_path("bad.buckets");
  BucketMap m = sample_map();
  m.save(p);
  const std::string good = testing::slurp(p);

  expect_bad_file(temp_path("missing.buckets"), "missing file");
  testing::spit(q, "");
  expect_bad_file(q, "empty file");
  testing::spit(q, "this is not a bucket map at all, just text\n");
  expect_bad_file(q, "foreign file");
  // Truncated anywhere: header, payload, last byte.
  for (std::size_t len :
       {std::size_t{5}, std::size_t{20}, std::size_t{45}, good.size() / 2, good.size() - 1}) {
    testing::spit(q, good.substr(0, len));
    expect_bad_file(q, "truncated at " + std::to_string(len));
  }
  // One flipped byte in the payload (bucket data) is caught by the checksum.
  for (std::size_t at : {good.size() / 3, good.size() - 3}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    testing::spit(q, bad);
    expect_bad_file(q, "flipped byte at " + std::to_string(at));
  }
  // Another format version: the version follows the endianness byte, the magic's length
  // (8 bytes) and the magic (8 bytes).
  {
    std::string bad = good;
    bad[1 + 8 + 8] = static_cast<char>(bad[1 + 8 + 8] + 1);
    testing::spit(q, bad);
    try {
      BucketMap::load(q);
      ADD_FAILURE() << "other version loaded";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("version"), std::string::npos) << e.what();
    }
  }
  // Built for another game: the message names the file and the game.
  try {
    BucketMap::load(p, m.game_hash + 1, "holdem.game");
    ADD_FAILURE() << "other game loaded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("holdem.game"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(BucketMap::load(p, m.game_hash));
  fs::remove(p);
  fs::remove(q);
}

TEST(BucketMap, ChecksumSeesEveryByte) {
  std::string s(1000, 'a');
  const auto h = checksum64(s.data(), s.size());
  for (std::size_t i = 0; i < s.size(); i += 37) {
    std::string t = s;
    t[i] = 'b';
    EXPECT_NE(checksum64(t.data(), t.size()), h) << i;
  }
  EXPECT_NE(checksum64(s.data(), s.size() - 1), h);
}

}  // namespace
}  // namespace hulhe
