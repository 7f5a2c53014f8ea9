#pragma once
// Small helpers the file-handling tests share: a file's bytes, writing bytes to a file, and
// the message of the InputError a call throws.
#include <fstream>
#include <sstream>
#include <string>

#include "util/input_error.h"

namespace hulhe::test {

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

}  // namespace hulhe::test
