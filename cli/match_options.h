#pragma once
// The options `hulhe match` and `hulhe tournament` share, and the match settings they give.
#include <cstdint>
#include <string>

#include "agents/match.h"
#include "util/thread_start.h"

namespace hulhe::cli {

struct MatchOptions {
  std::string game_path;
  std::int64_t hands = 0;
  bool duplicate = false;
  std::uint64_t seed = 1;
  int threads = 0;  // 0: all cores
  bool json = false;
  bool quiet = false;

  // Each match's settings, without log or progress (which differ between the commands).
  MatchConfig config() const {
    MatchConfig c;
    c.hands = hands;
    c.duplicate = duplicate;
    c.seed = seed;
    c.threads = thread_count_or_default(threads);
    return c;
  }
};

}  // namespace hulhe::cli
