#pragma once
// The check that a solve resumed from its checkpoint goes on bit for bit, as the solver tests
// of every algorithm make it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "pipeline/solver_run.h"
#include "solver/checkpoint.h"
#include "tests/support/same_tables.h"

namespace hulhe::testing {

// `config(iterations, checkpoint)` (a SolveConfig) solved straight to `total` iterations into
// `straight`, and to `half` into `halves`, then resumed from there to `total`: both
// checkpoints hold `total` iterations and the same tables to the bit. Returns them (straight,
// resumed).
template <typename MakeConfig>
std::pair<Checkpoint, Checkpoint> expect_resume_is_bit_for_bit(const MakeConfig& config,
                                                               std::int64_t half,
                                                               std::int64_t total,
                                                               const std::string& straight,
                                                               const std::string& halves) {
  SolverRun(config(total, straight), false).run({});
  SolverRun(config(half, halves), false).run({});
  {
    SolverRun resumed(config(total, halves), true);
    EXPECT_EQ(resumed.iterations_done(), half);
    resumed.run({});
  }
  std::pair<Checkpoint, Checkpoint> out{read_checkpoint(straight), read_checkpoint(halves)};
  EXPECT_EQ(out.first.iterations, total);
  EXPECT_EQ(out.second.iterations, total);
  expect_same_tables(out.first.tables, out.second.tables);
  return out;
}

}  // namespace hulhe::testing
