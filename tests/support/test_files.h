#pragma once
// Small helpers the file-handling tests share: a file's bytes, writing bytes to a file, the
// message of the InputError a call throws, and a file-size limit that makes writes fail.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <fstream>
#include <sstream>
#include <string>

#include "util/input_error.h"

namespace hulhe::testing {

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void spit(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The InputError's message, or "" when none was thrown.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// While alive, writes past `bytes` fail with EFBIG part way, like on a full disk (SIGXFSZ
// ignored so the write returns the error instead of killing the test).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ok_ = ::getrlimit(RLIMIT_FSIZE, &saved_) == 0;
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = saved_;
    small.rlim_cur = bytes;
    ok_ = ok_ && ::setrlimit(RLIMIT_FSIZE, &small) == 0;
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  bool ok() const { return ok_; }

 private:
  struct rlimit saved_ {};
  void (*old_handler_)(int) = nullptr;
  bool ok_ = false;
};

// The InputError's message of `f` run while files may grow to `bytes` at most (FileSizeLimit):
// its writes fail part way, as on a full disk. "" when none was thrown.
template <typename F>
std::string error_on_a_full_disk(F&& f, rlim_t bytes = 4096) {
  const FileSizeLimit limit(bytes);
  EXPECT_TRUE(limit.ok()) << "setrlimit(RLIMIT_FSIZE) refused";
  return error_of(f);
}

}  // namespace hulhe::testing
