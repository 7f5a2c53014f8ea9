#include "server/play_store.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <vector>

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

// Schema version 2: a session's hand numbers are unique, so a hand is never stored twice and
// two sessions can never share an id unnoticed. A version-1 file is upgraded in place; one
// holding duplicates already (session ids of hulhe before they came from the OS's entropy)
// gets a trigger that refuses new ones instead of the index that its old rows would break.
constexpr const char* kUniqueHands =
    "CREATE UNIQUE INDEX IF NOT EXISTS hands_by_session ON hands (session, hand_number)";
constexpr const char* kUniqueHandsTrigger = R"sql(
CREATE INDEX IF NOT EXISTS hands_by_session_any ON hands (session, hand_number);
CREATE TRIGGER IF NOT EXISTS hands_unique_in_session BEFORE INSERT ON hands
WHEN EXISTS (SELECT 1 FROM hands WHERE session = NEW.session AND hand_number = NEW.hand_number)
BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: hands.session, hands.hand_number'); END;
)sql";

// What the file at `path` holds, read without writing a byte: nothing (absent or empty), a
// hulhe play database of some schema version, or something else, which is refused.
struct FileInspection {
  bool fresh = true;    // no tables yet: hulhe may create its own
  int version = 0;      // the hulhe schema version when not fresh
  std::string refusal;  // why the file is not usable, empty if it is
};

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

std::string fmt_percent(unsigned char c) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return {'%', kDigits[c >> 4], kDigits[c & 15]};
}

FileInspection inspect(const std::string& path, int current_version) {
  FileInspection out;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return out;  // created below (its folder is checked there)
  if (S_ISDIR(st.st_mode)) {
    out.refusal = "it is a folder";
    return out;
  }
  if (!S_ISREG(st.st_mode)) {
    out.refusal = "it is not a regular file";
    return out;
  }
  if (st.st_size == 0) return out;
  char magic[16] = {};
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      out.refusal = "it cannot be read";
      return out;
    }
    in.read(magic, sizeof magic);
    if (in.gcount() != sizeof magic || std::memcmp(magic, "SQLite format 3", 16) != 0) {
      out.refusal = "it is not an SQLite database";
      return out;
    }
  }
  // Read-only; `immutable` opens no journal and creates no -wal/-shm beside a file that has
  // none. One with a -wal beside it (a server killed mid-run) is opened read-only, so the
  // transactions in its WAL are seen.
  struct stat wal {};
  const bool has_wal = stat((path + "-wal").c_str(), &wal) == 0;
  std::string uri = "file:";
  for (const char c : path) {  // a URI: '%', '?' and '#' in the path are escaped
    if (c == '%' || c == '?' || c == '#')
      uri += fmt_percent(static_cast<unsigned char>(c));
    else
      uri += c;
  }
  uri += has_wal ? "?mode=ro" : "?immutable=1";
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  try {
    if (rc != SQLITE_OK) throw std::runtime_error(db ? sqlite3_errmsg(db) : "out of memory");
    {
      Statement check(db, "PRAGMA quick_check");
      const std::string verdict = check.step() ? check.text(0) : "no answer";
      if (verdict != "ok") throw std::runtime_error("it is damaged (quick_check: " + verdict + ")");
    }
    std::vector<std::string> tables;
    Statement list(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    while (list.step()) tables.push_back(list.text(0));
    if (!tables.empty()) {
      out.fresh = false;
      const bool ours = std::all_of(tables.begin(), tables.end(), [](const std::string& t) {
        return t == "schema_version" || t == "players" || t == "hands";
      });
      if (!ours || std::find(tables.begin(), tables.end(), "schema_version") == tables.end()) {
        std::string names;
        for (const std::string& t : tables) names += (names.empty() ? "" : ", ") + t;
        throw std::runtime_error("it is another program's SQLite database (tables: " +
                                 names.substr(0, 200) + "), not hulhe's");
      }
      Statement version(db, "SELECT version FROM schema_version");
      out.version = version.step() ? static_cast<int>(version.integer(0)) : 0;
      if (out.version > current_version)
        throw std::runtime_error("its schema version is " + std::to_string(out.version) +
                                 ", newer than this hulhe's " + std::to_string(current_version) +
                                 " (left untouched)");
      if (out.version < 1)
        throw std::runtime_error("its schema_version table holds no valid version");
    }
  } catch (const std::exception& e) {
    out.refusal = e.what();
  }
  sqlite3_close(db);
  return out;
}

}  // namespace

PlayStore::PlayStore(const std::string& path) : path_(path) {
  auto fail = [&](const std::string& why) {
    sqlite3_close(db_);
    db_ = nullptr;
    return InputError("cannot use '" + path + "' as the play database: " + why);
  };
  // Everything that can refuse the file is read first, without writing: a foreign, damaged
  // or newer file is left exactly as it was.
  const FileInspection found = inspect(path, kSchemaVersion);
  if (!found.refusal.empty()) throw fail(found.refusal);
  const int rc =
      sqlite3_open_v2(path.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) throw fail(db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory");
  // SQLite falls back to read-only on a file it may not write: that server would answer 500
  // to every hand, so it does not start.
  if (sqlite3_db_readonly(db_, "main") == 1) throw fail("it is read-only");
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
    const bool has_version = version.step();
    const std::int64_t stored = has_version ? version.integer(0) : 0;
    if (has_version && stored > kSchemaVersion) {  // written since the inspection
      exec("ROLLBACK");
      throw fail("its schema version is " + std::to_string(stored) + ", newer than this hulhe's " +
                 std::to_string(kSchemaVersion));
    }
    if (sqlite3_exec(db_, kUniqueHands, nullptr, nullptr, nullptr) != SQLITE_OK)
      exec(kUniqueHandsTrigger);  // a version-1 file with duplicate rows (see above)
    // Writing the version row also proves the file writable now, not at the first hand.
    exec("DELETE FROM schema_version");
    exec(("INSERT INTO schema_version VALUES (" + std::to_string(kSchemaVersion) + ")").c_str());
    exec("COMMIT");
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
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
