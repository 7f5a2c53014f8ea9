#pragma once
// How every progress line and summary writes a span of time: "4.5s", "12m05s", "3h07m";
// "?" for an unknown one (a negative or infinite ETA).
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

}  // namespace hulhe
