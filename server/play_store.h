#pragma once
// The SQLite file of `hulhe serve` (docs/serve-api.md#the-sqlite-store): players by name and
// every completed hand each played, so that a returning player sees their lifetime results.
// Each completed hand is written in one transaction (the player's row, if new, and the hand's
// row) with synchronous=FULL in WAL mode: once record_hand returns, a killed server (kill -9)
// still has the hand on reopening.
//
// Thread-safe: one connection guarded by a mutex (a hand is a few hundred bytes; the writes
// of one local table are far from SQLite's limits).
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

struct sqlite3;

namespace hulhe::server {

// One completed hand as it is stored.
struct StoredHand {
  std::string player;             // the person's name
  std::string session;            // the session id it was played in
  std::int64_t hand_number = 0;   // within the session, from 0
  std::string game;               // the game's name
  std::string opponent;           // the strategy file or bot
  int position = 0;               // the person's position in the hand (ACPC)
  std::int64_t result_chips = 0;  // what the person won (negative: lost)
  std::int32_t big_blind = 1;     // of the game: the unit of mbb/g
  std::string log_line;           // the hand as an ACPC dealer-log STATE line
};

// A player's lifetime results in one game: mean and 95% interval (1.96 s/sqrt(n)) in mbb/g.
struct LifetimeResult {
  std::string game;
  std::int64_t hands = 0;
  std::int64_t chips = 0;
  double mbb_per_game = 0;
  double ci95_mbb = 0;
};

struct PlayerProfile {
  bool known = false;  // the name has played at least one hand or was registered
  std::string name;
  std::string created_at;               // UTC, ISO 8601
  std::vector<LifetimeResult> results;  // one per game, by game name
};

class PlayStore {
 public:
  // Opens or creates the store at `path` (a version-1 file is upgraded). A file that is not
  // SQLite, another program's database, a damaged one, one of a newer schema, a read-only one
  // or a folder is an InputError naming it, and is left untouched (checked read-only first).
  explicit PlayStore(const std::string& path);
  ~PlayStore();
  PlayStore(const PlayStore&) = delete;
  PlayStore& operator=(const PlayStore&) = delete;

  // Registers `name` if new (a returning player keeps their row).
  void ensure_player(const std::string& name);
  // Writes one completed hand, its player's row too if new, in one transaction; throws (and
  // writes nothing) for a (session, hand_number) already stored.
  void record_hand(const StoredHand& hand);
  PlayerProfile profile(const std::string& name);
  // How many hands the store holds (tests, `hulhe serve`'s start line).
  std::int64_t hand_count();

  static constexpr int kSchemaVersion = 2;  // 2: (session, hand_number) unique

 private:
  void exec(const char* sql);
  std::int64_t player_id_locked(const std::string& name);

  std::string path_;
  sqlite3* db_ = nullptr;
  std::mutex mutex_;
};

}  // namespace hulhe::server
