#pragma once
// The resume file of a hold'em best response (holdem_best_response.h): a journal of finished
// work units, so that a stopped run goes on where it was.
//
// Layout (native byte order; the file never leaves the machine that wrote it):
//   header  "HULHEBRR" · u32 version (1) · u32 units · u64 run key · u64 doubles per unit
//   record  u32 unit · u32 0 · u64 checksum64(payload, seed unit) · payload (doubles)
// Each record is fsync'd as it is appended, so a kill loses at most the unit being written;
// a record cut short (or failing its checksum) ends the good part of the file and is dropped
// when the file is opened again. The run key (game, both strategies, flop sample, precision)
// keeps one run's records out of another's.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hulhe {

struct ResumeRecord {
  std::int64_t unit = 0;
  std::vector<double> values;
};

class ResumeLog {
 public:
  // Opens `path`, creating it (with its header) when missing or empty. An existing file must
  // be a resume file of the same run (key, units, doubles per unit); its good records are
  // kept for records() and anything after them is cut off. Throws InputError.
  ResumeLog(std::string path, std::uint64_t key, std::int64_t units, std::size_t payload);
  ~ResumeLog();
  ResumeLog(const ResumeLog&) = delete;
  ResumeLog& operator=(const ResumeLog&) = delete;

  // The records read back when the file was opened, in file order (moved out).
  std::vector<ResumeRecord> take_records() { return std::move(records_); }
  // Appends unit `unit`'s `payload` doubles and fsyncs; false when the write failed. Not
  // thread-safe: callers serialise.
  bool append(std::int64_t unit, const double* values);
  // Drops every record (the file keeps its header) and fsyncs; false when that failed. For a
  // journal whose records are all superseded at once (deal_journal.h).
  bool clear_records();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::size_t payload_ = 0;
  int fd_ = -1;
  std::vector<ResumeRecord> records_;
};

}  // namespace hulhe
