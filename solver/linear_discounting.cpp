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

std::vector<double> linear_discount_factors(const CfrParameters& params, std::int64_t first,
                                            std::int64_t last) {
  std::vector<double> factors;
  const std::int64_t interval = params.discount_interval;
  if (interval <= 0) return factors;
  for (std::int64_t k = (first + interval - 1) / interval; k * interval <= last; ++k) {
    if (k * interval > params.discount_until) break;
    if (k > 0) factors.push_back(static_cast<double>(k) / (static_cast<double>(k) + 1.0));
  }
  return factors;
}

}  // namespace hulhe
