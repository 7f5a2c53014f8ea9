#pragma once
// What a piece of library code printed on stdout and stderr (tests that it prints nothing:
// progress goes to callbacks, and only the CLI writes to the terminal).
#include <gtest/gtest.h>

#include <string>

namespace hulhe::testing {

template <class F>
std::string printed_by(F&& f) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  f();
  std::string out = ::testing::internal::GetCapturedStdout();
  return out + ::testing::internal::GetCapturedStderr();
}

}  // namespace hulhe::testing
