#pragma once
// The progress lines of `hulhe match` and `hulhe tournament` (hands/s, ETA) on stderr.
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace hulhe::cli {

// Prints "label: done/total hands (pct), rate hands/s, ETA" at most every two seconds.
class MatchProgress {
 public:
  explicit MatchProgress(std::string label) : label_(std::move(label)) {}
  void operator()(std::int64_t done, std::int64_t total, double seconds) {
    if (done < total && seconds - last_ < 2.0) return;
    last_ = seconds;
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
    const double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0.0;
    fmt::print(stderr, "{}{}/{} hands ({:.1f}%), {:.0f} hands/s, ETA {:.0f}s\n", label_, done,
               total, 100.0 * static_cast<double>(done) / static_cast<double>(total), rate, eta);
  }

 private:
  std::string label_;
  double last_ = 0;
};

}  // namespace hulhe::cli
