#include "best_response/holdem/deal_journal.h"

#include <algorithm>

#include "util/checksums.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

// The journal's key: the run's, so that a journal of another run is refused like its resume
// file, with a word of its own so that the two files are never taken for each other.
std::uint64_t journal_key(std::uint64_t run_key, std::int64_t deals_per_unit) {
  const std::uint64_t words[2] = {run_key, static_cast<std::uint64_t>(deals_per_unit)};
  return checksum64(words, sizeof words, 0x6465616c73ULL);  // "deals"
}

}  // namespace

DealJournal::DealJournal(const std::string& path, std::uint64_t run_key, std::int32_t flop_classes,
                         std::int64_t deals_per_unit, std::size_t payload)
    : deals_per_unit_(deals_per_unit),
      payload_(payload),
      log_(path, journal_key(run_key, deals_per_unit), flop_classes * deals_per_unit, payload) {
  for (ResumeRecord& r : log_.take_records()) saved_[r.unit] = std::move(r.values);
}

bool DealJournal::restore(std::int32_t flop, std::int64_t deal, double* out) const {
  const auto it = saved_.find(id(flop, deal));
  if (it == saved_.end()) return false;
  std::copy(it->second.begin(), it->second.end(), out);
  ++restored_;
  return true;
}

void DealJournal::save(std::int32_t flop, std::int64_t deal, const double* values) {
  if (!log_.append(id(flop, deal), values))
    throw InputError("cannot append to deal journal " + log_.path());
}

void DealJournal::unit_recorded() {
  saved_.clear();
  if (!log_.clear_records()) throw InputError("cannot empty deal journal " + log_.path());
}

}  // namespace hulhe
