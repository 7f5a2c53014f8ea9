#pragma once
// A request the API refuses: an HTTP status (4xx) and one sentence for the client. Every
// route throws it for what the client got wrong; the server answers
// {"error": MESSAGE, "status": STATUS} and changes nothing (docs/serve-api.md#errors).
#include <stdexcept>
#include <string>

namespace hulhe::server {

class ApiError : public std::runtime_error {
 public:
  ApiError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

}  // namespace hulhe::server
