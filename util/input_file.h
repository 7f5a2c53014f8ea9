#pragma once
// Reading files named by the user. Only regular files are read: a directory, a device such
// as /dev/urandom, a fifo or a socket is an InputError naming the file (reading one would
// fail obscurely, hang or never end), and so is a file larger than the reader's bound.
#include <cstdint>
#include <string>
#include <string_view>

namespace hulhe {

// Throws InputError unless `path` names an existing regular file (symbolic links followed).
// `what` names the file's role in messages, e.g. "game definition".
void require_input_file(const std::string& path, std::string_view what);

// The InputError read_input_file throws for a file of `size` bytes, more than `max_bytes`
// (nothing when it is not more): for a reader whose bound is smaller than that of the one
// that read the file.
void check_input_size(const std::string& path, std::string_view what, std::uint64_t size,
                      std::uint64_t max_bytes);

// The whole content of the regular file `path`, at most `max_bytes` long.
std::string read_input_file(const std::string& path, std::string_view what,
                            std::uint64_t max_bytes);

}  // namespace hulhe
