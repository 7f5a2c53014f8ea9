#include "util/streamed_output_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <streambuf>

#include "util/input_error.h"
#include "util/output_file.h"

namespace hulhe {
namespace {

constexpr std::size_t kBufferBytes = 1 << 16;
constexpr std::string_view kTemporarySuffix = ".tmp-";

std::string folder_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

mode_t new_file_mode() {
  // umask() can only be read by setting it; outputs are opened before worker threads start.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// The rename (or link) itself is durable once the folder is synced. Some file systems cannot
// sync a folder (EINVAL); the data is safe there anyway. Returns 0 or the errno.
int sync_folder(const std::string& path) {
  const int dir = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  const int rc = ::fsync(dir);
  const int saved = errno;
  ::close(dir);
  return rc != 0 && saved != EINVAL ? saved : 0;
}

// mkstemp's six characters are ASCII letters and digits (glibc and musl alike).
bool is_mkstemp_suffix(std::string_view s) {
  if (s.size() != 6) return false;
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

}  // namespace

// An ostream buffer over a file descriptor that remembers the first write error (errno), so
// that commit() can say why ("No space left on device") instead of a bare stream failure.
class StreamedOutputFile::Buffer : public std::streambuf {
 public:
  Buffer(int fd, bool owned)
      : fd_(fd), owned_(owned), data_(std::make_unique<char[]>(kBufferBytes)) {
    setp(data_.get(), data_.get() + kBufferBytes);
  }
  ~Buffer() override { close(); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  int fd() const { return fd_; }
  int error() const { return error_; }
  std::uint64_t bytes() const { return written_ + static_cast<std::uint64_t>(pptr() - pbase()); }
  // Writes what is buffered; false (and error() set) on failure.
  bool drain() {
    if (!write_out(pbase(), static_cast<std::size_t>(pptr() - pbase()))) return false;
    setp(data_.get(), data_.get() + kBufferBytes);
    return true;
  }
  // Closes an owned descriptor; returns 0 or the errno of close().
  int close() {
    if (!owned_ || fd_ < 0) return 0;
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0 ? 0 : errno;
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
    return ch;
  }
  // Large blocks (checkpoint tables of gigabytes) go straight to the file, not through the
  // buffer: one copy fewer.
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto size = static_cast<std::size_t>(n);
    if (size < kBufferBytes) return std::streambuf::xsputn(s, n);
    if (!drain() || !write_out(s, size)) return 0;
    return n;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool write_out(const char* bytes, std::size_t size) {
    if (error_ != 0) return false;
    while (size > 0) {
      const ssize_t n = ::write(fd_, bytes, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        return false;
      }
      bytes += n;
      size -= static_cast<std::size_t>(n);
      written_ += static_cast<std::uint64_t>(n);
    }
    return true;
  }

  int fd_;
  bool owned_;
  std::unique_ptr<char[]> data_;
  int error_ = 0;
  std::uint64_t written_ = 0;
};

StreamedOutputFile::StreamedOutputFile(const std::string& path, std::string_view what,
                                       const std::vector<std::string>& inputs, DashMeans dash)
    : path_(path), what_(what) {
  if (dash == DashMeans::kStandardOutput && path == "-") {
    buffer_ = std::make_unique<Buffer>(STDOUT_FILENO, false);
  } else {
    try {
      check_output_path(path, what, inputs);
    } catch (const InputError& e) {
      struct stat st {};
      if (dash == DashMeans::kStandardOutput && ::stat(path.c_str(), &st) == 0 &&
          !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        throw InputError(std::string(e.what()) + "; '-' writes to the standard output");
      throw;
    }
    struct stat st {};
    mode_ = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : new_file_mode();
    tmp_ = path + std::string(kTemporarySuffix) + "XXXXXX";
    const int fd = ::mkostemp(tmp_.data(), O_CLOEXEC);
    if (fd < 0) {
      const int saved = errno;
      tmp_.clear();
      throw InputError("cannot write " + what_ + " '" + path +
                       "': cannot create files in folder '" + folder_of(path) +
                       "': " + std::strerror(saved));
    }
    buffer_ = std::make_unique<Buffer>(fd, true);
  }
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

StreamedOutputFile::~StreamedOutputFile() {
  // What a failing run wrote to the standard output stays there: it destroys nothing.
  if (is_standard_output()) buffer_->drain();
  abandon();
}

std::ostream& StreamedOutputFile::stream() {
  return *stream_;
}

bool StreamedOutputFile::is_standard_output() const {
  return buffer_ != nullptr && buffer_->fd() == STDOUT_FILENO && tmp_.empty();
}

bool StreamedOutputFile::failed() const {
  return buffer_->error() != 0 || !*stream_;
}

void StreamedOutputFile::abandon() noexcept {
  if (tmp_.empty()) return;
  buffer_->close();
  ::unlink(tmp_.c_str());
  tmp_.clear();
}

void StreamedOutputFile::finish_writing() {
  auto fail = [&](const char* step, int error) {
    abandon();
    throw InputError("cannot write " + what_ + " '" + path_ + "': " + step + ": " +
                     std::strerror(error));
  };
  if (!buffer_->drain()) fail("write failed (disk full?)", buffer_->error());
  if (!*stream_) fail("write failed", EIO);
  if (is_standard_output()) return;
  if (::fchmod(buffer_->fd(), mode_) != 0) fail("chmod failed", errno);
  if (::fsync(buffer_->fd()) != 0) fail("fsync failed", errno);
  if (const int e = buffer_->close(); e != 0) fail("close failed", e);
}

void StreamedOutputFile::commit() {
  if (is_standard_output()) {
    finish_writing();
    return;
  }
  if (tmp_.empty()) return;  // committed already
  finish_writing();
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int saved = errno;
    abandon();
    throw InputError("cannot write " + what_ + " '" + path_ +
                     "': rename failed: " + std::strerror(saved));
  }
  tmp_.clear();
  if (const int e = sync_folder(path_); e != 0)
    throw InputError("wrote " + what_ + " '" + path_ +
                     "' but could not sync its folder: " + std::strerror(e));
  remove_stale_temporaries(path_);
}

bool StreamedOutputFile::keep_if_new() {
  if (is_standard_output()) return buffer_->drain();
  if (tmp_.empty() || buffer_->bytes() == 0) {
    abandon();
    return false;
  }
  try {
    finish_writing();
  } catch (const InputError&) {
    return false;  // finish_writing removed the temporary file
  }
  const bool kept = ::link(tmp_.c_str(), path_.c_str()) == 0;
  abandon();  // the temporary name goes either way; a kept file lives on under `path_`
  if (kept) sync_folder(path_);
  return kept;
}

int remove_stale_temporaries(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  if (name.empty() || name == "." || name == "..") return 0;
  const std::string prefix = name + std::string(kTemporarySuffix);
  DIR* dir = ::opendir(folder_of(path).c_str());
  if (dir == nullptr) return 0;
  int removed = 0;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view entry(e->d_name);
    if (entry.size() != prefix.size() + 6 || entry.substr(0, prefix.size()) != prefix ||
        !is_mkstemp_suffix(entry.substr(prefix.size())))
      continue;
    // Only regular files: never a folder, fifo or a symbolic link (which may point anywhere).
    struct stat st {};
    if (::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (::unlinkat(::dirfd(dir), e->d_name, 0) == 0) ++removed;
  }
  ::closedir(dir);
  return removed;
}

}  // namespace hulhe
