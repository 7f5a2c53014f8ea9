#pragma once
// The sessions a server holds, keyed by ids drawn from a seeded generator (SplitMix64), with
// bounded memory: at most `max_sessions` at a time, a session idle for longer than
// `idle_seconds` expires, and when the registry is full a new session replaces the least
// recently used one (every completed hand is already in the store, server/play_store.h, so an
// evicted session loses no result). Clients send hundreds of sessions or none; either way the
// memory stays bounded by max_sessions.
//
// Times are passed in (seconds on a steady clock) so that expiry is tested without sleeping.
// Thread-safe: the registry's own lock guards only the map; each session carries its own
// mutex (Entry::mutex) that a request holds while it uses the session.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "util/split_mix64.h"

namespace hulhe::server {

template <typename Session>
class SessionRegistry {
 public:
  struct Entry {
    std::mutex mutex;  // held by the request that uses `session`
    std::unique_ptr<Session> session;
  };

  SessionRegistry(std::size_t max_sessions, double idle_seconds, std::uint64_t seed)
      : max_sessions_(max_sessions < 1 ? 1 : max_sessions),
        idle_seconds_(idle_seconds),
        ids_(seed) {}

  // Registers `session` at time `now`; returns its new id (16 hex digits of the generator: an
  // expired id comes back only by a 2^-64 chance).
  std::string add(std::unique_ptr<Session> session, double now) {
    std::lock_guard lock(mutex_);
    expire_locked(now);
    while (slots_.size() >= max_sessions_) evict_least_recent_locked();
    std::string id;
    do {
      id = hex_id(ids_());
    } while (slots_.contains(id));
    auto entry = std::make_shared<Entry>();
    entry->session = std::move(session);
    slots_.emplace(id, Slot{std::move(entry), now});
    return id;
  }

  // The session `id` if it is live at `now` (which then counts as its last use); null when it
  // is unknown or expired.
  std::shared_ptr<Entry> find(const std::string& id, double now) {
    std::lock_guard lock(mutex_);
    expire_locked(now);
    const auto it = slots_.find(id);
    if (it == slots_.end()) return nullptr;
    it->second.last_used = now;
    return it->second.entry;
  }

  std::size_t size(double now) {
    std::lock_guard lock(mutex_);
    expire_locked(now);
    return slots_.size();
  }
  std::size_t max_sessions() const { return max_sessions_; }
  double idle_seconds() const { return idle_seconds_; }

 private:
  struct Slot {
    std::shared_ptr<Entry> entry;  // a request in flight keeps it alive past its removal
    double last_used = 0;
  };

  static std::string hex_id(std::uint64_t v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = kDigits[v & 15];
    return s;
  }

  void expire_locked(double now) {
    for (auto it = slots_.begin(); it != slots_.end();)
      it = now - it->second.last_used > idle_seconds_ ? slots_.erase(it) : std::next(it);
  }

  void evict_least_recent_locked() {
    auto oldest = slots_.begin();
    for (auto it = slots_.begin(); it != slots_.end(); ++it)
      if (it->second.last_used < oldest->second.last_used) oldest = it;
    if (oldest != slots_.end()) slots_.erase(oldest);
  }

  std::size_t max_sessions_;
  double idle_seconds_;
  std::mutex mutex_;
  SplitMix64 ids_;
  std::map<std::string, Slot> slots_;
};

}  // namespace hulhe::server
