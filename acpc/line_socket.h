#pragma once
// TCP lines for the ACPC protocol (`\r\n`-terminated text lines): a connection with
// deadline-bounded line reads, a client connect and a loopback listener. POSIX sockets and
// poll(); writes never raise SIGPIPE (MSG_NOSIGNAL), a closed peer is reported instead.
#include <cstdint>
#include <string>

namespace hulhe {

class LineConnection {
 public:
  enum class Read { kLine, kClosed, kTimeout };

  LineConnection() = default;
  explicit LineConnection(int fd) : fd_(fd) {}
  LineConnection(LineConnection&& o) noexcept;
  LineConnection& operator=(LineConnection&& o) noexcept;
  LineConnection(const LineConnection&) = delete;
  LineConnection& operator=(const LineConnection&) = delete;
  ~LineConnection();

  // Connects to host:port (a name or a numeric address); throws InputError naming both and
  // the reason (refused, unknown host, timed out after `timeout_ms`).
  static LineConnection connect(const std::string& host, int port, int timeout_ms = 10000);

  bool is_open() const { return fd_ >= 0; }
  // The next line without its "\n" or "\r\n". timeout_ms < 0 waits forever. Lines longer
  // than kMaxLineLength are cut there (the rest comes as the next line), so a peer
  // cannot make the reader grow without bound.
  Read read_line(std::string& line, int timeout_ms = -1);
  // Sends `line` + "\r\n"; false if the peer has gone.
  bool write_line(const std::string& line);
  void close();

  static constexpr std::size_t kMaxLineLength = 1 << 16;

 private:
  int fd_ = -1;
  std::string buffer_;
  std::size_t start_ = 0;  // unread bytes begin here
};

// A TCP listener on 127.0.0.1 (loopback only). Port 0 picks a free port.
class LoopbackListener {
 public:
  // Throws InputError when the port cannot be bound (in use, not allowed).
  explicit LoopbackListener(int port);
  LoopbackListener(LoopbackListener&& o) noexcept;
  LoopbackListener(const LoopbackListener&) = delete;
  LoopbackListener& operator=(const LoopbackListener&) = delete;
  ~LoopbackListener();

  int port() const { return port_; }
  // The next connection, or a closed one after `timeout_ms` (< 0: wait forever).
  LineConnection accept(int timeout_ms);

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace hulhe
