#include "solver/linear_discounting.h"

namespace hulhe {

void scale_tables(StrategyTables& tables, double factor, int threads) {
  float* regrets = tables.regrets().data();
  float* sums = tables.average_sums().data();
  const std::int64_t size = tables.size();
  const auto f = static_cast<float>(factor);
#pragma omp parallel for num_threads(threads) schedule(static) if (size > (1 << 20))
  for (std::int64_t i = 0; i < size; ++i) {
    regrets[i] *= f;
    sums[i] *= f;
  }
}

}  // namespace hulhe
