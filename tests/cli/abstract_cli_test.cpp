// End to end: `hulhe abstract` on bad input exits 2 with one clear message; a whole small
// build (Slow) writes a bucket map that loads, with the configured bucket counts.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "abstraction/bucket_map.h"
#include "game/hand_indexer.h"
#include "tests/cli/run_hulhe.h"

namespace {

using hulhe::cli_test::HulheRun;
using hulhe::cli_test::run_hulhe;

namespace fs = std::filesystem;

std::string temp_dir() {
  fs::path d = fs::temp_directory_path() / ("hulhe_abstract_cli_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d.string();
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

const std::string kGame =
    std::string(HULHE_SOURCE_DIR) + "/configs/games/holdem.limit.2p.reverse_blinds.game";

TEST(AbstractCli, BadInputExitsTwoWithAMessageNamingIt) {
  const std::string dir = temp_dir();
  HulheRun r = run_hulhe("abstract --config " + dir + "/missing.toml");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("hulhe: error:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("missing.toml"), std::string::npos) << r.out;

  r = run_hulhe("abstract");  // --config is required
  EXPECT_EQ(r.status, 2) << r.out;

  write(dir + "/unknown.toml", "game = \"" + kGame + "\"\nbuckets = 3\n");
  r = run_hulhe("abstract --config " + dir + "/unknown.toml");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("unknown key 'buckets'"), std::string::npos) << r.out;

  // A game that is not hold'em (Kuhn) is refused before any work.
  write(dir + "/kuhn.toml", "game = \"" + std::string(HULHE_SOURCE_DIR) +
                                "/configs/games/kuhn.game\"\n[preflop]\nmethod = \"lossless\"\n"
                                "[flop]\nmethod = \"lossless\"\n[turn]\nmethod = \"lossless\"\n"
                                "[river]\nmethod = \"lossless\"\n");
  r = run_hulhe("abstract --config " + dir + "/kuhn.toml --out " + dir + "/k.buckets");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("hold'em"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir + "/k.buckets"));

  // An output folder that does not exist is reported before the build starts.
  r = run_hulhe("abstract --config " + std::string(HULHE_SOURCE_DIR) +
                "/configs/hulhe-quick.toml --out /nonexistent-dir/x.buckets");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("/nonexistent-dir/x.buckets"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(AbstractCliSlow, BuildsASmallAbstractionEndToEnd) {
  const std::string dir = temp_dir();
  write(dir + "/tiny.toml", "game = \"" + kGame +
                                "\"\nseed = 2\n"
                                "[preflop]\nmethod = \"lossless\"\n"
                                "[flop]\nmethod = \"potential\"\nbuckets = 8\nsample = 2000\n"
                                "iterations = 3\n"
                                "[turn]\nmethod = \"distribution\"\nbuckets = 9\nbins = 10\n"
                                "sample = 2000\niterations = 3\n"
                                "[river]\nmethod = \"ehs\"\nbuckets = 10\n");
  const std::string out = dir + "/tiny.buckets";
  // stdout: exactly one JSON object; stderr: progress.
  const std::string cmd = std::string(HULHE_BINARY) + " abstract --config " + dir +
                          "/tiny.toml --threads 2 --json --out " + out + " > " + dir +
                          "/out.json 2> " + dir + "/err.txt";
  const int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << cmd;
  std::ifstream json_in(dir + "/out.json");
  nlohmann::json j = nlohmann::json::parse(json_in);
  ASSERT_EQ(j["rounds"].size(), 4U);
  const int want[4] = {169, 8, 9, 10};
  hulhe::BucketMap map = hulhe::BucketMap::load(out);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(j["rounds"][i]["buckets"].get<int>(), want[i]);
    EXPECT_EQ(map.rounds[i].num_buckets, want[i]);
    EXPECT_EQ(static_cast<std::uint64_t>(map.rounds[i].size()),
              hulhe::HandIndexer::holdem(i).size());
    EXPECT_GE(j["rounds"][i]["min_hands"].get<std::int64_t>(), 1);
  }
  EXPECT_EQ(j["hash"].get<std::string>().size(), 16U);
  // Progress on stderr: every stage closes with its time.
  std::ifstream err_in(dir + "/err.txt");
  std::string err((std::istreambuf_iterator<char>(err_in)), std::istreambuf_iterator<char>());
  for (const char* word : {"river hand strength", "turn: k-means", "flop: k-means", "done in"})
    EXPECT_NE(err.find(word), std::string::npos) << word << "\n" << err;
  fs::remove_all(dir);
}

}  // namespace
