#pragma once
// Writing the files a command produces (bucket maps, checkpoints, strategy files) without
// ever damaging another file:
//  - check_output_path, called before long work starts, refuses an empty path, a directory,
//    anything but a regular file (/dev/full, devices, fifos: never replaced by a file), a
//    path that is one of the command's inputs (same device and inode, or the same path when
//    the output does not exist yet) and a folder where no file can be created;
//  - write_output_file writes to a temporary file beside the target, fsyncs it, renames it
//    over the target and fsyncs the folder, so a crash, kill -9 or full disk leaves the old
//    file or the new one, never half of one, and never a temporary file behind on an error;
//    the temporary files a kill -9 left are removed by the next write of the same target.
//    Outputs written as a command runs (logs) use the same mechanism through
//    StreamedOutputFile (util/streamed_output_file.h).
// Every refusal or failure is an InputError naming the file and the reason.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace hulhe {

// `what` names the output's role in messages ("checkpoint"); `inputs` are the paths the
// command reads (empty strings are skipped).
void check_output_path(const std::string& path, std::string_view what,
                       const std::vector<std::string>& inputs = {});

// Whether two paths name the same file: the same device and inode when both exist, else
// the same absolute normalised path (two spellings of a file not written yet).
bool is_same_file(const std::string& a, const std::string& b);

// Writes the concatenation of `parts` to `path` atomically, as described above. A file
// that already exists keeps its permission bits; a new one gets 0666 less the umask.
void write_output_file(const std::string& path, std::string_view what,
                       std::initializer_list<std::string_view> parts);

}  // namespace hulhe
