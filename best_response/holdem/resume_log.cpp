#include "best_response/holdem/resume_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "abstraction/bucket_map.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

constexpr char kResumeMagic[9] = "HULHEBRR";
constexpr std::uint32_t kResumeVersion = 1;

struct ResumeHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t units;
  std::uint64_t key;
  std::uint64_t payload_doubles;
};

struct RecordHeader {
  std::uint32_t unit;
  std::uint32_t reserved;
  std::uint64_t checksum;
};

}  // namespace

ResumeLog::ResumeLog(std::string path, std::uint64_t key, std::int64_t units, std::size_t payload)
    : path_(std::move(path)), payload_(payload) {
  ResumeHeader hdr{};
  std::memcpy(hdr.magic, kResumeMagic, 8);
  hdr.version = kResumeVersion;
  hdr.units = static_cast<std::uint32_t>(units);
  hdr.key = key;
  hdr.payload_doubles = payload;
  // Opened without blocking and checked to be a regular file before any read: a fifo or a
  // device at the path would block the run forever or swallow the work (`hulhe exploit`
  // refuses them earlier too, through check_output_path).
  // A file this run creates is removed again when its header cannot be written (a full
  // disk): an empty file left behind would be refused as "not a resume file" by the rerun.
  constexpr int kFlags = O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  bool created = false;
  fd_ = ::open(path_.c_str(), kFlags);
  if (fd_ < 0 && errno == ENOENT) {
    fd_ = ::open(path_.c_str(), kFlags | O_CREAT | O_EXCL, 0644);
    created = fd_ >= 0;
  }
  if (fd_ < 0) throw InputError("cannot open resume file " + path_ + ": " + std::strerror(errno));
  // From here on the destructor would not run: every throw closes the file first.
  auto fail = [&](const std::string& message) {
    ::close(fd_);
    fd_ = -1;
    if (created) ::unlink(path_.c_str());
    throw InputError(message);
  };
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))
    fail("resume file " + path_ + " is not a regular file (a directory, device, fifo or socket)");
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
  if (st.st_size == 0) {
    errno = 0;
    if (::write(fd_, &hdr, sizeof hdr) != static_cast<ssize_t>(sizeof hdr) || ::fsync(fd_) != 0)
      fail("cannot write resume file " + path_ + ": " +
           (errno != 0 ? std::strerror(errno) : "short write"));
    return;
  }
  ResumeHeader got{};
  if (::read(fd_, &got, sizeof got) != static_cast<ssize_t>(sizeof got) ||
      std::memcmp(got.magic, kResumeMagic, 8) != 0 || got.version != kResumeVersion)
    fail(path_ + " is not a best-response resume file");
  if (got.key != key || got.units != hdr.units || got.payload_doubles != payload)
    fail(path_ +
         " belongs to another run (other strategy, game, flops or seed); give a new "
         "--resume-file");
  off_t good = sizeof got;
  std::vector<double> buf(payload);
  while (true) {
    RecordHeader rh{};
    if (::read(fd_, &rh, sizeof rh) != static_cast<ssize_t>(sizeof rh)) break;
    const auto bytes = static_cast<ssize_t>(payload * sizeof(double));
    if (::read(fd_, buf.data(), bytes) != bytes) break;
    if (rh.unit >= units || checksum64(buf.data(), bytes, rh.unit) != rh.checksum) break;
    records_.push_back({static_cast<std::int64_t>(rh.unit), buf});
    good += static_cast<off_t>(sizeof rh) + bytes;
  }
  // A record cut short by a kill is dropped; appending goes on after the last good one.
  if (::ftruncate(fd_, good) != 0 || ::lseek(fd_, good, SEEK_SET) != good)
    fail("cannot truncate resume file " + path_);
}

bool ResumeLog::clear_records() {
  records_.clear();
  const auto header = static_cast<off_t>(sizeof(ResumeHeader));
  return ::ftruncate(fd_, header) == 0 && ::lseek(fd_, header, SEEK_SET) == header &&
         ::fsync(fd_) == 0;
}

ResumeLog::~ResumeLog() {
  if (fd_ >= 0) ::close(fd_);
}

bool ResumeLog::append(std::int64_t unit, const double* values) {
  const std::size_t bytes = payload_ * sizeof(double);
  const RecordHeader rh{static_cast<std::uint32_t>(unit), 0,
                        checksum64(values, bytes, static_cast<std::uint64_t>(unit))};
  return ::write(fd_, &rh, sizeof rh) == static_cast<ssize_t>(sizeof rh) &&
         ::write(fd_, values, bytes) == static_cast<ssize_t>(bytes) && ::fsync(fd_) == 0;
}

}  // namespace hulhe
