#pragma once
// What every progress report of a long loop carries besides its counts (elapsed time, rate,
// ETA), and when such a loop is due to report: one definition for the evaluation kernels and
// the abstraction builder. They hand the numbers to a callback; only the CLI prints them.
#include <algorithm>
#include <chrono>
#include <cstdint>

namespace hulhe {

struct Pace {
  double elapsed_seconds = 0.0;
  double per_second = 0.0;   // units done per second of elapsed time
  double eta_seconds = 0.0;  // the remaining units at that rate (infinite before the first)
};

inline Pace pace(std::int64_t done, std::int64_t remaining, double elapsed_seconds) {
  Pace p;
  p.elapsed_seconds = elapsed_seconds;
  p.per_second = static_cast<double>(done) / std::max(elapsed_seconds, 1e-9);
  p.eta_seconds = static_cast<double>(remaining) / p.per_second;
  return p;
}

// A steady clock started at construction; due() is true at most once per `every_seconds`
// (the first time that long after the start). Not thread-safe: one thread, or under a lock.
class ProgressTimer {
 public:
  explicit ProgressTimer(double every_seconds)
      : every_(every_seconds), start_(Clock::now()), last_(start_) {}
  double elapsed_seconds() const { return seconds(Clock::now() - start_); }
  bool due() {
    const auto now = Clock::now();
    if (seconds(now - last_) < every_) return false;
    last_ = now;
    return true;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
  double every_;
  Clock::time_point start_, last_;
};

}  // namespace hulhe
