#pragma once
// The check that two solver runs (a resumed and a straight one, one and several threads) left
// the same tables to the bit: regrets and average sums.
#include <gtest/gtest.h>

#include "public_tree/strategy_tables.h"

namespace hulhe::testing {

inline void expect_same_tables(const StrategyTables& a, const StrategyTables& b) {
  EXPECT_EQ(a.regret_values(), b.regret_values());
  EXPECT_EQ(a.average_sum_values(), b.average_sum_values());
}

}  // namespace hulhe::testing
