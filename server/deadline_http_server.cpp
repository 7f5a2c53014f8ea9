#include "server/deadline_http_server.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace hulhe::server {
namespace {

using Clock = std::chrono::steady_clock;

// Waits are cut into slices this long so that a stopping server is noticed promptly.
constexpr int kSliceMs = 100;

Clock::time_point after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// A connection's socket as an httplib::Stream whose reads end at a deadline (the request's)
// and whose every wait ends when the server stops (the listening socket is closed).
class DeadlineSocketStream final : public httplib::Stream {
 public:
  DeadlineSocketStream(socket_t sock, const std::atomic<socket_t>& listening, double write_seconds)
      : sock_(sock), listening_(listening), write_seconds_(write_seconds) {}

  void set_read_deadline(Clock::time_point deadline) { read_deadline_ = deadline; }

  // Whether a request's first byte arrived within `seconds` (keep-alive), the server running.
  bool wait_for_request(double seconds) { return buffered() > 0 || wait(POLLIN, after(seconds)); }

  bool is_readable() const override { return buffered() > 0 || wait(POLLIN, read_deadline_); }
  bool is_writable() const override { return wait(POLLOUT, after(write_seconds_)); }

  ssize_t read(char* ptr, size_t size) override {
    if (buffered() == 0) {
      if (!wait(POLLIN, read_deadline_)) return -1;
      ssize_t n;
      do {
        n = recv(sock_, buffer_, sizeof buffer_, 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      begin_ = 0;
      end_ = static_cast<std::size_t>(n);
    }
    const std::size_t n = std::min(size, buffered());
    std::memcpy(ptr, buffer_ + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!wait(POLLOUT, after(write_seconds_))) return -1;
    ssize_t n;
    do {
      n = send(sock_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address(getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address(getsockname, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  std::size_t buffered() const { return end_ - begin_; }

  // Polls for `events` until `deadline`, in slices, giving up when the server stops.
  bool wait(short events, Clock::time_point deadline) const {
    while (listening_.load() != INVALID_SOCKET) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{sock_, events, 0};
      const int r = poll(&p, 1, static_cast<int>(std::min<long long>(left, kSliceMs)));
      if (r > 0) return (p.revents & (events | POLLHUP | POLLERR)) != 0;
      if (r < 0 && errno != EINTR) return false;
    }
    return false;
  }

  template <typename Get>
  void address(Get get, std::string& ip, int& port) const {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    ip.clear();
    port = 0;
    if (get(sock_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return;
    char host[INET6_ADDRSTRLEN] = {};
    if (addr.ss_family == AF_INET) {
      const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
      inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
      port = ntohs(a->sin_port);
    } else if (addr.ss_family == AF_INET6) {
      const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
      inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
      port = ntohs(a->sin6_port);
    }
    ip = host;
  }

  socket_t sock_;
  const std::atomic<socket_t>& listening_;
  double write_seconds_;
  Clock::time_point read_deadline_ = Clock::now();
  char buffer_[4096];
  std::size_t begin_ = 0, end_ = 0;
};

// One request held in memory, the response collected: what handle() runs.
class MemoryStream final : public httplib::Stream {
 public:
  explicit MemoryStream(std::string_view request) : request_(request) {}
  const std::string& response() const { return response_; }

  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, request_.size() - offset_);
    std::memcpy(ptr, request_.data() + offset_, n);
    offset_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    response_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 0;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 0;
  }
  socket_t socket() const override { return INVALID_SOCKET; }

 private:
  std::string_view request_;
  std::size_t offset_ = 0;
  std::string response_;
};

}  // namespace

DeadlineHttpServer::DeadlineHttpServer(double request_seconds, double write_seconds)
    : request_seconds_(request_seconds), write_seconds_(write_seconds) {}

std::string DeadlineHttpServer::handle(std::string_view request) {
  MemoryStream stream(request);
  bool closed = false;
  process_request(stream, /*close_connection=*/true, closed, nullptr);
  return stream.response();
}

bool DeadlineHttpServer::process_and_close_socket(socket_t sock) {
  {
    DeadlineSocketStream stream(sock, svr_sock_, write_seconds_);
    // httplib's own keep-alive loop (process_server_socket), with the request deadline.
    for (std::size_t left = keep_alive_max_count_; left > 0; --left) {
      if (!stream.wait_for_request(static_cast<double>(keep_alive_timeout_sec_))) break;
      stream.set_read_deadline(after(request_seconds_));
      bool closed = false;
      if (!process_request(stream, /*close_connection=*/left == 1, closed, nullptr)) break;
      if (closed) break;
    }
  }
  shutdown(sock, SHUT_RDWR);
  close(sock);
  return true;
}

}  // namespace hulhe::server
