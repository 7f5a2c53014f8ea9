#include "server/play_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include "util/input_error.h"

namespace hulhe::server {
namespace {

// The schema of docs/serve-api.md#the-sqlite-store. Lifetime results are aggregated from
// `hands` (one row per completed hand), so no running total can disagree with the hands.
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS players (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
  id           INTEGER PRIMARY KEY,
  player_id    INTEGER NOT NULL REFERENCES players(id),
  session      TEXT NOT NULL,
  hand_number  INTEGER NOT NULL,
  game         TEXT NOT NULL,
  opponent     TEXT NOT NULL,
  position     INTEGER NOT NULL,
  result_chips INTEGER NOT NULL,
  big_blind    INTEGER NOT NULL,
  log_line     TEXT NOT NULL,
  played_at    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS hands_by_player ON hands (player_id, game);
)sql";

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

// A prepared statement, finalised on every path out.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, std::int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  // True while there is a row.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db_));
  }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p));
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace

PlayStore::PlayStore(const std::string& path) : path_(path) {
  const int rc =
      sqlite3_open_v2(path.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  auto fail = [&](const std::string& why) {
    sqlite3_close(db_);
    db_ = nullptr;
    return InputError("cannot use '" + path + "' as the play database: " + why);
  };
  if (rc != SQLITE_OK) throw fail(db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory");
  sqlite3_busy_timeout(db_, 5000);
  try {
    // WAL with synchronous=FULL: a committed transaction is on disk when COMMIT returns, so
    // kill -9 loses no completed hand (https://www.sqlite.org/wal.html).
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=FULL");
    exec("PRAGMA foreign_keys=ON");
    exec("BEGIN IMMEDIATE");
    exec(kSchema);
    Statement version(db_, "SELECT version FROM schema_version");
    if (version.step()) {
      if (version.integer(0) != kSchemaVersion) {
        exec("ROLLBACK");
        throw fail("its schema version is " + std::to_string(version.integer(0)) +
                   ", this hulhe uses " + std::to_string(kSchemaVersion));
      }
    } else {
      exec(("INSERT INTO schema_version VALUES (" + std::to_string(kSchemaVersion) + ")").c_str());
    }
    exec("COMMIT");
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw fail(e.what());
  }
}

PlayStore::~PlayStore() {
  sqlite3_close(db_);
}

void PlayStore::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    throw std::runtime_error("SQLite: " + why);
  }
}

std::int64_t PlayStore::player_id_locked(const std::string& name) {
  Statement insert(db_, "INSERT OR IGNORE INTO players (name, created_at) VALUES (?1, ?2)");
  insert.bind(1, name).bind(2, utc_now()).step();
  Statement select(db_, "SELECT id FROM players WHERE name = ?1");
  select.bind(1, name);
  if (!select.step()) throw std::runtime_error("SQLite: player '" + name + "' vanished");
  return select.integer(0);
}

void PlayStore::ensure_player(const std::string& name) {
  std::lock_guard lock(mutex_);
  player_id_locked(name);
}

void PlayStore::record_hand(const StoredHand& h) {
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");
  try {
    const std::int64_t player = player_id_locked(h.player);
    Statement insert(
        db_,
        "INSERT INTO hands (player_id, session, hand_number, game, opponent, position, "
        "result_chips, big_blind, log_line, played_at) VALUES (?1, ?2, ?3, ?4, ?5, "
        "?6, ?7, ?8, ?9, ?10)");
    insert.bind(1, player)
        .bind(2, h.session)
        .bind(3, h.hand_number)
        .bind(4, h.game)
        .bind(5, h.opponent)
        .bind(6, std::int64_t{h.position})
        .bind(7, h.result_chips)
        .bind(8, std::int64_t{h.big_blind})
        .bind(9, h.log_line)
        .bind(10, utc_now())
        .step();
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

PlayerProfile PlayStore::profile(const std::string& name) {
  std::lock_guard lock(mutex_);
  PlayerProfile p;
  p.name = name;
  Statement player(db_, "SELECT id, created_at FROM players WHERE name = ?1");
  player.bind(1, name);
  if (!player.step()) return p;
  p.known = true;
  p.created_at = player.text(1);
  // Per game: n, sum of chips, and the sums of the result in mbb and of its square for the
  // 95% interval 1.96 s / sqrt(n) (s the sample standard deviation).
  Statement results(
      db_,
      "SELECT game, COUNT(*), SUM(result_chips), "
      "SUM(result_chips * 1000.0 / big_blind), "
      "SUM((result_chips * 1000.0 / big_blind) * (result_chips * 1000.0 / big_blind)) "
      "FROM hands WHERE player_id = ?1 GROUP BY game ORDER BY game");
  results.bind(1, player.integer(0));
  while (results.step()) {
    LifetimeResult r;
    r.game = results.text(0);
    r.hands = results.integer(1);
    r.chips = results.integer(2);
    const double n = static_cast<double>(r.hands);
    const double sum = results.real(3), sum_squares = results.real(4);
    r.mbb_per_game = sum / n;
    if (r.hands > 1) {
      const double variance = std::max(0.0, (sum_squares - sum * sum / n) / (n - 1));
      r.ci95_mbb = 1.96 * std::sqrt(variance / n);
    }
    p.results.push_back(r);
  }
  return p;
}

std::int64_t PlayStore::hand_count() {
  std::lock_guard lock(mutex_);
  Statement count(db_, "SELECT COUNT(*) FROM hands");
  count.step();
  return count.integer(0);
}

}  // namespace hulhe::server
