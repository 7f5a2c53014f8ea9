#include "util/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "util/input_error.h"
#include "util/printable_text.h"
#include "util/streamed_output_file.h"

namespace hulhe {
namespace {

std::string folder_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

// Same file: by device and inode when both exist, else by their absolute, normalised paths
// (symbolic links in existing parent folders resolved).
bool same_file(const std::string& a, const struct stat* a_stat, const std::string& b) {
  struct stat b_stat {};
  const bool b_exists = ::stat(b.c_str(), &b_stat) == 0;
  if (a_stat != nullptr && b_exists)
    return a_stat->st_dev == b_stat.st_dev && a_stat->st_ino == b_stat.st_ino;
  if ((a_stat != nullptr) != b_exists) return false;
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a), ea);
  const auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b), eb);
  return !ea && !eb && ca == cb;
}

// A unique temporary file beside `path` (mkstemp: never an existing file). Returns its fd.
int make_temporary(const std::string& path, std::string& tmp) {
  tmp = path + ".tmp-XXXXXX";
  return ::mkstemp(tmp.data());
}

}  // namespace

void check_output_path(const std::string& path, std::string_view what,
                       const std::vector<std::string>& inputs) {
  if (path.empty()) throw InputError("no " + std::string(what) + " path given (empty path)");
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    throw InputError("cannot write " + quoted_path(what, path) + ": it is a directory");
  if (exists && !S_ISREG(st.st_mode))
    throw InputError("cannot write " + quoted_path(what, path) +
                     ": it exists and is not a regular file (a device, fifo or socket); hulhe "
                     "replaces regular files only");
  for (const std::string& input : inputs)
    if (!input.empty() && same_file(path, exists ? &st : nullptr, input))
      throw InputError("cannot write " + quoted_path(what, path) + ": it is the input '" + input +
                       "' of this command; choose another output path");
  // Prove that a file can be created beside it (permissions, read-only file system, missing
  // folder) by creating and removing a uniquely named one.
  std::string tmp;
  const int fd = make_temporary(path, tmp);
  if (fd < 0) {
    const std::string folder = folder_of(path);
    throw InputError("cannot write " + quoted_path(what, path) +
                     ": cannot create files in folder '" + folder + "': " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(tmp.c_str());
}

bool is_same_file(const std::string& a, const std::string& b) {
  struct stat st {};
  const bool exists = ::stat(a.c_str(), &st) == 0;
  return same_file(a, exists ? &st : nullptr, b);
}

void write_output_file(const std::string& path, std::string_view what,
                       std::initializer_list<std::string_view> parts) {
  // One way to write every output: the streamed file's temporary, commit and clean-up.
  StreamedOutputFile out(path, what);
  for (std::string_view part : parts) out.stream().write(part.data(), std::ssize(part));
  out.commit();
}

}  // namespace hulhe
