#include "abstraction/strategy_thinning.h"

#include <algorithm>
#include <cstdio>

namespace hulhe {

std::string StrategyThinning::describe() const {
  switch (kind) {
    case Kind::kNone:
      return "";
    case Kind::kThreshold: {
      char text[32];
      std::snprintf(text, sizeof text, "threshold %g", threshold);
      return text;
    }
    case Kind::kPurify:
      return "purified";
  }
  return "";
}

std::size_t most_probable_action(std::span<const double> p) {
  std::size_t best = 0;
  for (std::size_t a = 1; a < p.size(); ++a)
    if (p[a] > p[best]) best = a;  // strictly: a tie keeps the lower index
  return best;
}

namespace {

void play_only(std::span<double> p, std::size_t action) {
  std::fill(p.begin(), p.end(), 0.0);
  p[action] = 1.0;
}

}  // namespace

void thin_probabilities(std::span<double> p, const StrategyThinning& thinning) {
  if (p.empty()) return;
  switch (thinning.kind) {
    case StrategyThinning::Kind::kNone:
      return;
    case StrategyThinning::Kind::kPurify:
      play_only(p, most_probable_action(p));
      return;
    case StrategyThinning::Kind::kThreshold: {
      double kept = 0.0;
      bool dropped = false;
      for (const double v : p) {
        if (v >= thinning.threshold)
          kept += v;
        else if (v > 0.0)
          dropped = true;
      }
      // Nothing played below the threshold: the distribution as it was, bit for bit.
      if (!dropped) return;
      if (kept <= 0.0) {
        play_only(p, most_probable_action(p));
        return;
      }
      for (double& v : p) v = v < thinning.threshold ? 0.0 : v / kept;
      return;
    }
  }
}

void ThinnedPolicy::action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                                         std::span<double> out) const {
  policy_.action_probabilities(round, node, bucket, out);
  thin_probabilities(out, thinning_);
}

}  // namespace hulhe
