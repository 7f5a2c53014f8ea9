#include "solver/vanilla_cfr.h"

namespace hulhe {

void VanillaCfr::run(std::int64_t first, std::int64_t count, int threads) {
  for (std::int64_t t = first; t < first + count; ++t) {
    snapshot_strategy();  // both passes read sigma^t: simultaneous updates
    full_pass(0, 1.0, threads);
    full_pass(1, 1.0, threads);
  }
}

}  // namespace hulhe
