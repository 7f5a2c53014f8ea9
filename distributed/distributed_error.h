#pragma once
// A failure of the job rather than of this process's input: another rank died, stopped
// answering within the timeout, or MPI reported an error. The command prints it and ends
// every rank (process_group.h: abort_process_group), exit status 1.
#include <stdexcept>
#include <string>

namespace hulhe {

class DistributedError : public std::runtime_error {
 public:
  explicit DistributedError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace hulhe
