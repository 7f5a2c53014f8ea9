#include "solver/linear_discounting.h"

namespace hulhe {

void scale_tables(StrategyTables& tables, double factor, int threads) {
  tables.visit([&]<typename T>(TableArrays<T> t) {
    const auto f = static_cast<T>(factor);
#pragma omp parallel for num_threads(threads) schedule(static) if (t.size > (1 << 20))
    for (std::int64_t i = 0; i < t.size; ++i) {
      t.regrets[i] *= f;
      t.average_sums[i] *= f;
    }
  });
}

}  // namespace hulhe
