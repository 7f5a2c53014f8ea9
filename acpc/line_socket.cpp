#include "acpc/line_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "util/input_error.h"

namespace hulhe {
namespace {

// Milliseconds left until `deadline`, for poll(); -1 for no deadline.
int remaining_ms(std::chrono::steady_clock::time_point deadline, bool forever) {
  if (forever) return -1;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - std::chrono::steady_clock::now())
                        .count();
  return left > 0 ? static_cast<int>(left) : 0;
}

void set_no_delay(int fd) {
  // Each protocol message is one small write answered by the other side: Nagle's algorithm
  // would hold it back waiting for an ACK (40 ms stalls on Linux).
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace

LineConnection::LineConnection(LineConnection&& o) noexcept
    : fd_(o.fd_), buffer_(std::move(o.buffer_)), start_(o.start_) {
  o.fd_ = -1;
}

LineConnection& LineConnection::operator=(LineConnection&& o) noexcept {
  if (this != &o) {
    close();
    fd_ = o.fd_;
    buffer_ = std::move(o.buffer_);
    start_ = o.start_;
    o.fd_ = -1;
  }
  return *this;
}

LineConnection::~LineConnection() {
  close();
}

void LineConnection::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

LineConnection LineConnection::connect(const std::string& host, int port, int timeout_ms) {
  const std::string where = host + ":" + std::to_string(port);
  if (port <= 0 || port > 65535) throw InputError("cannot connect to " + where + ": bad port");
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0) throw InputError("cannot connect to " + where + ": " + ::gai_strerror(rc));
  std::string reason = "no address";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
      reason = std::strerror(errno);
      continue;
    }
    int err = 0;
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      err = errno;
      if (err == EINPROGRESS) {
        pollfd p{fd, POLLOUT, 0};
        const int ready = ::poll(&p, 1, timeout_ms);
        socklen_t len = sizeof err;
        if (ready == 0)
          err = ETIMEDOUT;
        else if (ready < 0 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
          err = errno;
      }
    }
    if (err == 0) {
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      set_no_delay(fd);
      ::freeaddrinfo(found);
      return LineConnection(fd);
    }
    reason = std::strerror(err);
    ::close(fd);
  }
  ::freeaddrinfo(found);
  throw InputError("cannot connect to " + where + ": " + reason);
}

LineConnection::Read LineConnection::read_line(std::string& line, int timeout_ms) {
  const bool forever = timeout_ms < 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const std::size_t end = buffer_.find('\n', start_);
    if (end != std::string::npos || buffer_.size() - start_ >= kMaxLineLength) {
      const std::size_t stop = end != std::string::npos ? end : start_ + kMaxLineLength;
      line.assign(buffer_, start_, stop - start_);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      start_ = end != std::string::npos ? stop + 1 : stop;
      if (start_ > 4096 && start_ * 2 > buffer_.size()) {  // drop what has been read
        buffer_.erase(0, start_);
        start_ = 0;
      }
      return Read::kLine;
    }
    if (fd_ < 0) return Read::kClosed;
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, remaining_ms(deadline, forever));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return Read::kClosed;
    }
    if (ready == 0) return Read::kTimeout;
    char chunk[4096];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // A last line without its newline still counts.
      if (start_ < buffer_.size()) {
        line.assign(buffer_, start_, std::string::npos);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        buffer_.clear();
        start_ = 0;
        close();
        return Read::kLine;
      }
      close();
      return Read::kClosed;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

bool LineConnection::write_line(const std::string& line) {
  if (fd_ < 0) return false;
  const std::string data = line + "\r\n";
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

LoopbackListener::LoopbackListener(int port) {
  if (port < 0 || port > 65535)
    throw InputError("cannot listen on port " + std::to_string(port) + ": bad port");
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd_ < 0) throw InputError(std::string("cannot open a socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 4) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd_);
    fd_ = -1;
    throw InputError("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + reason);
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
}

LoopbackListener::LoopbackListener(LoopbackListener&& o) noexcept : fd_(o.fd_), port_(o.port_) {
  o.fd_ = -1;
}

LoopbackListener::~LoopbackListener() {
  if (fd_ >= 0) ::close(fd_);
}

LineConnection LoopbackListener::accept(int timeout_ms) {
  for (;;) {
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return LineConnection();
    const int fd = ::accept(fd_, nullptr, nullptr);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return LineConnection();
    }
    set_no_delay(fd);
    return LineConnection(fd);
  }
}

}  // namespace hulhe
