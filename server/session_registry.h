#pragma once
// The sessions a server holds, keyed by ids from the OS's entropy (util/os_entropy.h: an id
// is the only credential of a session, so it must be unguessable and never come back after a
// restart), with bounded memory: at most `max_sessions` at a time, a session idle for longer
// than `idle_seconds` expires, and when the registry is full a new session replaces the least
// recently used one. A session leaving the registry (expired, evicted, or cleared when the
// server stops) is handed to the `on_remove` callback first, outside the registry's lock, so
// that its running hand can be finished and stored (server/table_server.cpp): clients send
// hundreds of sessions or none; either way the memory stays bounded by max_sessions and no
// started hand escapes the store.
//
// Times are passed in (seconds on a steady clock) so that expiry is tested without sleeping.
// Thread-safe: the registry's own lock guards only the map; each session carries its own
// mutex (Entry::mutex) that a request holds while it uses the session.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "util/os_entropy.h"
#include "util/printable_text.h"

namespace hulhe::server {

template <typename Session>
class SessionRegistry {
 public:
  struct Entry {
    std::mutex mutex;  // held by the request that uses `session`
    std::unique_ptr<Session> session;
  };
  // Called with a session's id and entry when it leaves the registry; takes the entry's
  // mutex itself if it needs the session.
  using RemoveCallback = std::function<void(const std::string& id, Entry& entry)>;

  SessionRegistry(std::size_t max_sessions, double idle_seconds, RemoveCallback on_remove = {})
      : max_sessions_(max_sessions < 1 ? 1 : max_sessions),
        idle_seconds_(idle_seconds),
        on_remove_(std::move(on_remove)) {}

  // Registers `session` at time `now`; returns its new id: 128 bits of the OS's entropy, so
  // an id comes back (in this run or another) only by a 2^-64 chance after 2^32 sessions.
  std::string add(std::unique_ptr<Session> session, double now) {
    Removed removed;
    std::string id;
    {
      std::lock_guard lock(mutex_);
      expire_locked(now, removed);
      while (slots_.size() >= max_sessions_) evict_least_recent_locked(removed);
      do {
        id = hex64(os_entropy64()) + hex64(os_entropy64());  // 128 bits, 32 hex digits
      } while (slots_.contains(id));
      auto entry = std::make_shared<Entry>();
      entry->session = std::move(session);
      slots_.emplace(id, Slot{std::move(entry), now});
    }
    notify(removed);
    return id;
  }

  // The session `id` if it is live at `now` (which then counts as its last use); null when it
  // is unknown or expired.
  std::shared_ptr<Entry> find(const std::string& id, double now) {
    Removed removed;
    std::shared_ptr<Entry> found;
    {
      std::lock_guard lock(mutex_);
      expire_locked(now, removed);
      const auto it = slots_.find(id);
      if (it != slots_.end()) {
        it->second.last_used = now;
        found = it->second.entry;
      }
    }
    notify(removed);
    return found;
  }

  std::size_t size(double now) {
    Removed removed;
    std::size_t n = 0;
    {
      std::lock_guard lock(mutex_);
      expire_locked(now, removed);
      n = slots_.size();
    }
    notify(removed);
    return n;
  }

  // Removes every session (the server stops), each through on_remove.
  void clear() {
    Removed removed;
    {
      std::lock_guard lock(mutex_);
      for (auto& [id, slot] : slots_) removed.emplace_back(id, slot.entry);
      slots_.clear();
    }
    notify(removed);
  }

  std::size_t max_sessions() const { return max_sessions_; }
  double idle_seconds() const { return idle_seconds_; }

 private:
  struct Slot {
    std::shared_ptr<Entry> entry;  // a request in flight keeps it alive past its removal
    double last_used = 0;
  };
  using Removed = std::vector<std::pair<std::string, std::shared_ptr<Entry>>>;

  void notify(Removed& removed) {
    if (!on_remove_) return;
    for (auto& [id, entry] : removed) on_remove_(id, *entry);
  }

  void expire_locked(double now, Removed& removed) {
    for (auto it = slots_.begin(); it != slots_.end();) {
      if (now - it->second.last_used > idle_seconds_) {
        removed.emplace_back(it->first, it->second.entry);
        it = slots_.erase(it);
      } else {
        ++it;
      }
    }
  }

  void evict_least_recent_locked(Removed& removed) {
    auto oldest = slots_.begin();
    for (auto it = slots_.begin(); it != slots_.end(); ++it)
      if (it->second.last_used < oldest->second.last_used) oldest = it;
    if (oldest == slots_.end()) return;
    removed.emplace_back(oldest->first, oldest->second.entry);
    slots_.erase(oldest);
  }

  std::size_t max_sessions_;
  double idle_seconds_;
  RemoveCallback on_remove_;
  std::mutex mutex_;
  std::map<std::string, Slot> slots_;
};

}  // namespace hulhe::server
