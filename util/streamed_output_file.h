#pragma once
// An output written while a command runs (a match or dealer log, a player's log) and, through
// write_output_file, every other output: it goes to a temporary file `PATH.tmp-XXXXXX` beside
// the target, which replaces the target only when the job ends well (commit: flush, fsync,
// rename, fsync of the folder). A run that fails, throws or is killed never touches the old
// file: the destructor of an uncommitted output removes its temporary file, and the next
// commit to the same target removes temporary files that a kill -9 left behind.
//
// The path is checked when the output is opened, before any work, as check_output_path does:
// no directory, device, fifo or socket (a fifo would block the writer forever, /dev/full
// would lose the log silently), no input of the command. Only the standard output may be
// written without a file, and only by the explicit name "-" where the caller allows it.
//
// Write errors (full disk, file-size limit) are remembered and reported by commit() as an
// InputError naming the file and the system's reason; the temporary file is then removed.
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace hulhe {

// Whether the path "-" names the standard output (logs) or a file called "-" (binary files).
enum class DashMeans { kStandardOutput, kFileNamedDash };

class StreamedOutputFile {
 public:
  // `what` names the output's role in messages ("log"); `inputs` are the paths the command
  // reads (empty strings are skipped). InputError if the path is refused.
  StreamedOutputFile(const std::string& path, std::string_view what,
                     const std::vector<std::string>& inputs = {},
                     DashMeans dash = DashMeans::kFileNamedDash);
  ~StreamedOutputFile();  // without commit: the temporary file is removed, the target kept
  StreamedOutputFile(const StreamedOutputFile&) = delete;
  StreamedOutputFile& operator=(const StreamedOutputFile&) = delete;

  std::ostream& stream();
  const std::string& path() const { return path_; }
  bool is_standard_output() const;
  // True once a write failed (the stream is then bad and commit() will throw).
  bool failed() const;

  // Makes the output final: the temporary file (a file already at the target keeps its
  // permission bits; a new one gets 0666 less the umask) replaces the target, and stale
  // temporary files of this target are removed. On the standard output: flushes. InputError
  // on any failure, after which the target is as it was.
  void commit();

  // For a run that fails after writing something worth keeping (the hands a dealer played
  // before a player vanished): the temporary file becomes the target only if something was
  // written, no write failed and no file is at the target (link(2) never replaces one);
  // otherwise it is removed.
  // Returns whether the output was kept. Never throws.
  bool keep_if_new();

 private:
  class Buffer;
  void finish_writing();  // flush, fsync, close; InputError on failure
  void abandon() noexcept;

  std::string path_;
  std::string what_;
  std::string tmp_;  // empty for the standard output and once committed or abandoned
  unsigned mode_ = 0;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

// Removes `PATH.tmp-XXXXXX` files (exactly six mkstemp characters, regular files only) that
// writers of `path` killed before their rename left in its folder. Other files, including
// temporary files of other targets, are never touched. Returns how many were removed.
int remove_stale_temporaries(const std::string& path);

}  // namespace hulhe
