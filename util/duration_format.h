#pragma once
// How every progress line and summary writes a span of time: "4.5s", "12m05s", "3h07m";
// "?" for an unknown one (a negative or infinite ETA). And a rate: "35903", "12", "0.19"
// (slow algorithms such as sampled CFR-BR on HULHE make a few iterations a second or fewer).
// And a number as a person would type it, in messages: "600", "0.5", "1e+06" (printf's %g).
#include <cmath>
#include <cstdio>
#include <string>

namespace hulhe {

inline std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  char buf[64];
  if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  } else {
    const auto t = static_cast<long long>(seconds);
    if (t < 3600)
      std::snprintf(buf, sizeof buf, "%lldm%02llds", t / 60, t % 60);
    else
      std::snprintf(buf, sizeof buf, "%lldh%02lldm", t / 3600, t % 3600 / 60);
  }
  return buf;
}

inline std::string format_rate(double per_second) {
  if (!std::isfinite(per_second) || per_second < 0) return "?";
  char buf[64];
  std::snprintf(buf, sizeof buf, per_second < 10 ? "%.2f" : "%.0f", per_second);
  return buf;
}

inline std::string format_short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

}  // namespace hulhe
