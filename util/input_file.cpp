#include "util/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/input_error.h"
#include "util/printable_text.h"

namespace hulhe {
namespace {

// The problem with a file of this type, or "" for a regular file.
std::string type_problem(const struct stat& st) {
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISDIR(st.st_mode)) return "is a directory";
  return "is not a regular file (a device, fifo or socket)";
}

std::string size_problem(std::uint64_t size, std::string_view what, std::uint64_t max_bytes) {
  return "is " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
         " a " + std::string(what) + " may have";
}

}  // namespace

void check_input_size(const std::string& path, std::string_view what, std::uint64_t size,
                      std::uint64_t max_bytes) {
  if (size > max_bytes)
    throw InputError(quoted_path(what, path) + " " + size_problem(size, what, max_bytes));
}

void require_input_file(const std::string& path, std::string_view what) {
  if (path.empty()) throw InputError("no " + std::string(what) + " given (empty path)");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError("cannot read " + quoted_path(what, path) + ": " + std::strerror(errno));
  if (const std::string p = type_problem(st); !p.empty())
    throw InputError(quoted_path(what, path) + " " + p);
}

std::string read_input_file(const std::string& path, std::string_view what,
                            std::uint64_t max_bytes) {
  require_input_file(path, what);
  // O_NONBLOCK: should the path be swapped for a fifo after the check, open() must not wait
  // for a writer; fstat() below refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    throw InputError("cannot read " + quoted_path(what, path) + ": " + std::strerror(errno));
  struct stat st {};
  std::string problem;
  if (::fstat(fd, &st) != 0)
    problem = std::strerror(errno);
  else if (problem = type_problem(st);
           problem.empty() && static_cast<std::uint64_t>(st.st_size) > max_bytes)
    problem = size_problem(static_cast<std::uint64_t>(st.st_size), what, max_bytes);
  std::string text;
  if (problem.empty()) {
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        problem = std::string("could not be read: ") + std::strerror(errno);
        break;
      }
      if (n == 0) break;  // shrank while we read
      done += static_cast<std::size_t>(n);
    }
    text.resize(done);
  }
  ::close(fd);
  if (!problem.empty()) throw InputError(quoted_path(what, path) + " " + problem);
  return text;
}

}  // namespace hulhe
