#include "game/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "game/input_error.h"

namespace hulhe {
namespace {

std::string quoted(std::string_view what, const std::string& path) {
  return std::string(what) + " '" + path + "'";
}

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

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

mode_t new_file_mode() {
  // umask() can only be read by setting it; no other thread creates files at this point.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void check_output_path(const std::string& path, std::string_view what,
                       const std::vector<std::string>& inputs) {
  if (path.empty()) throw InputError("no " + std::string(what) + " path given (empty path)");
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    throw InputError("cannot write " + quoted(what, path) + ": it is a directory");
  if (exists && !S_ISREG(st.st_mode))
    throw InputError("cannot write " + quoted(what, path) +
                     ": it exists and is not a regular file (a device, fifo or socket); hulhe "
                     "replaces regular files only");
  for (const std::string& input : inputs)
    if (!input.empty() && same_file(path, exists ? &st : nullptr, input))
      throw InputError("cannot write " + quoted(what, path) + ": it is the input '" + input +
                       "' of this command; choose another output path");
  // Prove that a file can be created beside it (permissions, read-only file system, missing
  // folder) by creating and removing a uniquely named one.
  std::string tmp;
  const int fd = make_temporary(path, tmp);
  if (fd < 0) {
    const std::string folder = folder_of(path);
    throw InputError("cannot write " + quoted(what, path) + ": cannot create files in folder '" +
                     folder + "': " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(tmp.c_str());
}

void write_output_file(const std::string& path, std::string_view what,
                       std::initializer_list<std::string_view> parts) {
  if (path.empty()) throw InputError("no " + std::string(what) + " path given (empty path)");
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) check_output_path(path, what);  // throws the reason
  std::string tmp;
  const int fd = make_temporary(path, tmp);
  if (fd < 0)
    throw InputError("cannot write " + quoted(what, path) + ": cannot create a file in '" +
                     folder_of(path) + "': " + std::strerror(errno));
  auto fail = [&](const char* step, int fd_to_close) {
    const int saved = errno;
    if (fd_to_close >= 0) ::close(fd_to_close);
    ::unlink(tmp.c_str());
    throw InputError("cannot write " + quoted(what, path) + ": " + step + ": " +
                     std::strerror(saved));
  };
  for (std::string_view part : parts)
    if (!write_all(fd, part)) fail("write failed (disk full?)", fd);
  if (::fchmod(fd, exists ? (st.st_mode & 07777) : new_file_mode()) != 0) fail("chmod failed", fd);
  if (::fsync(fd) != 0) fail("fsync failed", fd);
  if (::close(fd) != 0) fail("close failed", -1);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("rename failed", -1);
  // The rename itself is durable once the folder is synced. Some file systems cannot sync
  // a folder (EINVAL); the data is safe there anyway.
  const int dir = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    const int rc = ::fsync(dir);
    const int saved = errno;
    ::close(dir);
    if (rc != 0 && saved != EINVAL)
      throw InputError("wrote " + quoted(what, path) +
                       " but could not sync its folder: " + std::strerror(saved));
  }
}

}  // namespace hulhe
