#pragma once
// The deal journal of a best response whose subgames are re-solved (holdem_best_response.h,
// `subgames`): one flop unit of `hulhe exploit --resolve turn` on HULHE is thousands of turn
// re-solves (hours of a core), too much to lose to a stop. So the values of each deal of the
// round after the flop (every sequence entering it, both seats: what the unit needs of that
// deal) are appended to this journal as the deal finishes, and a unit computed again takes
// its finished deals from it instead of re-solving them. Units run one at a time when their
// subgames are re-solved (their re-solves share the threads), so the journal only ever holds
// the unit under way: it is emptied once that unit is in the resume file.
//
// The file is a ResumeLog (resume_log.h: checksummed records, fsync'd, a torn record
// dropped) keyed by the run and numbering records flop class × deals per flop + deal.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "best_response/holdem/resume_log.h"

namespace hulhe {

class DealJournal {
 public:
  // `deals_per_unit`: the most deals of that round one flop has; `payload`: doubles a deal.
  // Throws InputError (a file of another run, an unreadable path).
  DealJournal(const std::string& path, std::uint64_t run_key, std::int32_t flop_classes,
              std::int64_t deals_per_unit, std::size_t payload);

  // Deal `deal` of flop class `flop` from the journal into `out`; false when not there.
  bool restore(std::int32_t flop, std::int64_t deal, double* out) const;
  // Appends a finished deal. Throws InputError when the write fails.
  void save(std::int32_t flop, std::int64_t deal, const double* values);
  // The unit is in the resume file: its deals are no longer needed.
  void unit_recorded();
  std::int64_t restored() const { return restored_; }

 private:
  std::int64_t id(std::int32_t flop, std::int64_t deal) const {
    return static_cast<std::int64_t>(flop) * deals_per_unit_ + deal;
  }
  std::int64_t deals_per_unit_;
  std::size_t payload_;
  ResumeLog log_;
  std::map<std::int64_t, std::vector<double>> saved_;
  mutable std::int64_t restored_ = 0;
};

}  // namespace hulhe
