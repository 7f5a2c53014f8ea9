// The SQLite store of `hulhe serve`: hands and lifetime results by player and game, the
// 95% interval, persistence across a reopen, duplicate hands refused, the version-1 upgrade,
// and the files it refuses without touching them.
#include "server/play_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/support/temp_folder.h"
#include "util/input_error.h"

namespace hulhe::server {
namespace {

StoredHand hand(const std::string& player, const std::string& game, std::int64_t chips,
                std::int32_t big_blind, std::int64_t number) {
  StoredHand h;
  h.player = player;
  h.session = "session-of-" + player + "-in-" + game;  // (session, hand_number) is unique
  h.hand_number = number;
  h.game = game;
  h.opponent = "bot";
  h.position = static_cast<int>(number % 2);
  h.result_chips = chips;
  h.big_blind = big_blind;
  h.log_line = "STATE:" + std::to_string(number) + ":cc:9s8h|KdAc:" + std::to_string(chips) + "|" +
               std::to_string(-chips) + ":Alice|Bot";
  return h;
}

TEST(PlayStore, LifetimeResultsPerGameWithTheirInterval) {
  testing::TempFolder dir;
  PlayStore store(dir / "play.sqlite");
  const std::vector<std::int64_t> results = {10, -20, 30, 5, -5};
  for (std::size_t i = 0; i < results.size(); ++i)
    store.record_hand(hand("alice", "holdem", results[i], 10, static_cast<std::int64_t>(i)));
  store.record_hand(hand("alice", "leduc", 2, 2, 0));
  store.record_hand(hand("bob", "holdem", -7, 10, 0));
  EXPECT_EQ(store.hand_count(), 7);

  const PlayerProfile p = store.profile("alice");
  ASSERT_TRUE(p.known);
  ASSERT_EQ(p.results.size(), 2u);
  const LifetimeResult& h = p.results[0];
  EXPECT_EQ(h.game, "holdem");
  EXPECT_EQ(h.hands, 5);
  EXPECT_EQ(h.chips, 20);
  // mbb: 1000, -2000, 3000, 500, -500: mean 400; squared deviations sum to 13,700,000, so
  // the sample variance is 3,425,000.
  EXPECT_NEAR(h.mbb_per_game, 400.0, 1e-9);
  EXPECT_NEAR(h.ci95_mbb, 1.96 * std::sqrt(3'425'000.0 / 5), 1e-6);
  EXPECT_EQ(p.results[1].game, "leduc");
  EXPECT_NEAR(p.results[1].mbb_per_game, 1000.0, 1e-9);
  EXPECT_EQ(p.results[1].ci95_mbb, 0.0);  // one hand: no interval
  EXPECT_FALSE(store.profile("carol").known);
}

TEST(PlayStore, AReopenedStoreHasEveryHandAndPlayer) {
  testing::TempFolder dir;
  {
    PlayStore store(dir / "play.sqlite");
    store.ensure_player("dave");
    for (int i = 0; i < 20; ++i) store.record_hand(hand("erin", "holdem", i, 10, i));
  }
  PlayStore again(dir / "play.sqlite");
  EXPECT_EQ(again.hand_count(), 20);
  EXPECT_TRUE(again.profile("dave").known);
  EXPECT_TRUE(again.profile("dave").results.empty());
  ASSERT_EQ(again.profile("erin").results.size(), 1u);
  EXPECT_EQ(again.profile("erin").results[0].chips, 190);
}

// The whole of a file's bytes, to show a refused file is untouched.
std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void sql(const std::string& path, const char* statements) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, statements, nullptr, nullptr, &error);
  const std::string message = error != nullptr ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << message;
}

// Opening `path` as the store is refused with a message holding `why`, and the file and its
// folder are exactly as before (no hulhe table, no WAL switch, no -wal or -shm left).
void expect_refused_untouched(const testing::TempFolder& dir, const std::string& name,
                              const std::string& why) {
  const std::string path = dir / name;
  const std::string before = bytes_of(path);
  try {
    PlayStore store(path);
    FAIL() << name << " was taken for the database";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
  EXPECT_EQ(bytes_of(path), before) << name;
  EXPECT_FALSE(std::filesystem::exists(path + "-wal")) << name;
  EXPECT_FALSE(std::filesystem::exists(path + "-shm")) << name;
}

TEST(PlayStore, RefusesAnotherProgramsDatabaseAndLeavesItUntouched) {
  testing::TempFolder dir;
  sql(dir / "other.sqlite",
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);"
      "INSERT INTO notes (text) VALUES ('keep me');");
  expect_refused_untouched(dir, "other.sqlite", "another program's SQLite database");
  // Even one that happens to have a table called `hands`.
  sql(dir / "cards.sqlite", "CREATE TABLE hands (id INTEGER PRIMARY KEY, cards TEXT);");
  expect_refused_untouched(dir, "cards.sqlite", "another program's");
}

TEST(PlayStore, RefusesANewerSchemaAndLeavesItUntouched) {
  testing::TempFolder dir;
  { PlayStore store(dir / "play.sqlite"); }
  sql(dir / "play.sqlite", "UPDATE schema_version SET version = 99");
  expect_refused_untouched(dir, "play.sqlite", "schema version is 99, newer than");
}

TEST(PlayStore, RefusesADamagedDatabase) {
  testing::TempFolder dir;
  {
    PlayStore store(dir / "play.sqlite");
    for (int i = 0; i < 200; ++i) store.record_hand(hand("amy", "holdem", i, 10, i));
  }
  // Overwrite the second page onward with garbage: the header still says SQLite.
  std::string bytes = bytes_of(dir / "play.sqlite");
  ASSERT_GT(bytes.size(), 3 * 4096u);
  for (std::size_t i = 4096; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 % 251);
  std::ofstream(dir / "play.sqlite", std::ios::binary) << bytes;
  expect_refused_untouched(dir, "play.sqlite", "damaged");
}

TEST(PlayStore, ADuplicateSessionHandIsRefused) {
  testing::TempFolder dir;
  PlayStore store(dir / "play.sqlite");
  store.record_hand(hand("amy", "holdem", 10, 10, 0));
  StoredHand again = hand("bob", "holdem", -10, 10, 0);
  again.session = hand("amy", "holdem", 10, 10, 0).session;  // another player, the same id
  EXPECT_THROW(store.record_hand(again), std::exception);
  EXPECT_EQ(store.hand_count(), 1);
  EXPECT_FALSE(store.profile("bob").known);  // the failed transaction left no player row
}

TEST(PlayStore, AVersionOneFileIsUpgradedAndRefusesDuplicatesFromThenOn) {
  testing::TempFolder dir;
  // A version-1 file as hulhe wrote it, holding the duplicate rows its seeded session ids
  // made possible: the upgrade keeps them and refuses new ones.
  sql(dir / "v1.sqlite", R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (1);
CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
CREATE TABLE hands (id INTEGER PRIMARY KEY, player_id INTEGER NOT NULL REFERENCES players(id),
  session TEXT NOT NULL, hand_number INTEGER NOT NULL, game TEXT NOT NULL, opponent TEXT NOT NULL,
  position INTEGER NOT NULL, result_chips INTEGER NOT NULL, big_blind INTEGER NOT NULL,
  log_line TEXT NOT NULL, played_at TEXT NOT NULL);
CREATE INDEX hands_by_player ON hands (player_id, game);
INSERT INTO players VALUES (1, 'amy', '2026-01-01T00:00:00Z');
INSERT INTO hands VALUES (1, 1, 'c8550039cfd8257a', 0, 'holdem', 'bot', 0, 5, 10, 'x', 'y');
INSERT INTO hands VALUES (2, 1, 'c8550039cfd8257a', 0, 'holdem', 'bot', 0, 7, 10, 'x', 'y');
)sql");
  PlayStore store(dir / "v1.sqlite");
  EXPECT_EQ(store.hand_count(), 2);
  StoredHand h = hand("amy", "holdem", 1, 10, 0);
  h.session = "c8550039cfd8257a";
  EXPECT_THROW(store.record_hand(h), std::exception);
  h.hand_number = 1;
  store.record_hand(h);
  EXPECT_EQ(store.hand_count(), 3);
}

TEST(PlayStore, RefusesAFileThatIsNotItsDatabase) {
  testing::TempFolder dir;
  std::ofstream(dir / "text.sqlite") << "this is not an SQLite database, just text\n";
  try {
    PlayStore store(dir / "text.sqlite");
    FAIL() << "a text file was taken for the database";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("text.sqlite"), std::string::npos) << e.what();
  }
  EXPECT_THROW(PlayStore(dir.path()), InputError);                     // a folder
  EXPECT_THROW(PlayStore(dir / "missing/folder.sqlite"), InputError);  // no such folder
}

}  // namespace
}  // namespace hulhe::server
