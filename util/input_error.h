#pragma once
// The one exception type for bad user input (malformed card, .game file, config, a file of
// the wrong game or version, ...). The `hulhe` command turns it into one message and exit
// status 2; anything else escaping is a bug.
#include <stdexcept>
#include <string>

namespace hulhe {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hulhe
