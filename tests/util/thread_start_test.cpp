// require_thread_start: a count the process can start passes; the stack size follows
// libgomp's OMP_STACKSIZE / GOMP_STACKSIZE. (The refusal itself is tested end to end under an
// address-space limit: tests/cli/thread_seed_options_cli_test.cpp.)
#include "util/thread_start.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "util/input_error.h"

namespace hulhe {
namespace {

TEST(ThreadStart, CountsThisMachineCanStartPass) {
  EXPECT_NO_THROW(require_thread_start(-1));
  EXPECT_NO_THROW(require_thread_start(0));
  EXPECT_NO_THROW(require_thread_start(1));
  EXPECT_NO_THROW(require_thread_start(64));
}

TEST(ThreadStart, StackSizeIsLibgompsReading) {
  auto with = [](const char* omp, const char* gomp) {
    omp ? ::setenv("OMP_STACKSIZE", omp, 1) : ::unsetenv("OMP_STACKSIZE");
    gomp ? ::setenv("GOMP_STACKSIZE", gomp, 1) : ::unsetenv("GOMP_STACKSIZE");
    return openmp_stack_size();
  };
  EXPECT_EQ(with(nullptr, nullptr), 0u);
  EXPECT_EQ(with("512", nullptr), 512u << 10);  // kilobytes when no unit
  EXPECT_EQ(with(" 4 M ", nullptr), 4u << 20);
  EXPECT_EQ(with("1g", nullptr), std::size_t{1} << 30);
  EXPECT_EQ(with("100B", nullptr), 100u);
  EXPECT_EQ(with("x", "2M"), 2u << 20);  // OMP_STACKSIZE unreadable: GOMP_STACKSIZE
  EXPECT_EQ(with("-1", nullptr), 0u);
  EXPECT_EQ(with("99999999999999999999G", nullptr), 0u);
  // A stack size the probe can use still lets a few threads start.
  with("256K", nullptr);
  EXPECT_NO_THROW(require_thread_start(8));
  with(nullptr, nullptr);
}

}  // namespace
}  // namespace hulhe
