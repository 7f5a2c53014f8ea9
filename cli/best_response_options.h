#pragma once
// The real-game best response's options that `exploit` and `compare` share, and
// `--precision auto|single|double`: the arithmetic of the last round's walk
// (best_response/holdem/holdem_best_response.h states the bounds).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "best_response/holdem/holdem_best_response.h"
#include "cli/progress_lines.h"
#include "util/output_file.h"

namespace hulhe::cli {

inline void add_precision_option(CLI::App* cmd, std::string& precision) {
  cmd->add_option("--precision", precision,
                  "hold'em: last-round arithmetic: auto (single for the 52-card deck, double "
                  "for reduced decks), single (~1e-6 relative, faster) or double")
      ->check(CLI::IsMember({"auto", "single", "double"}));
}

inline HoldemBestResponseOptions::Precision parse_precision(const std::string& precision) {
  if (precision == "single") return HoldemBestResponseOptions::Precision::kSingle;
  if (precision == "double") return HoldemBestResponseOptions::Precision::kDouble;
  return HoldemBestResponseOptions::Precision::kAuto;
}

// `--unit-timeout SECONDS` (runs over MPI ranks, docs/distributed.md): how long rank 0 waits
// for a rank that holds work units to return one before the job fails. Generous by default:
// one exact unit of a large HULHE strategy can take minutes of one core.
inline constexpr double kDefaultUnitTimeoutSeconds = 3600.0;

inline void add_unit_timeout_option(CLI::App* cmd, double& seconds) {
  cmd->add_option("--unit-timeout", seconds,
                  "under mpirun: fail when a rank returns none of its units for this many "
                  "seconds (a hung rank or lost node; rerun to resume)")
      ->check(CLI::Range(0.001, 1e9));
}

struct BestResponseSettings {
  int threads = 1;
  std::int64_t flops = 0;  // 0: exact; K: an estimate from K sampled flops
  std::uint64_t seed = 1;
  bool all_flops = false;
  std::string precision = "auto";
  std::string resume_file;
  bool quiet = false;  // no progress lines
  double unit_timeout = kDefaultUnitTimeoutSeconds;

  // The resume file is appended to as units finish (a journal, not replaced at the end), so
  // it must be a regular file that is none of the inputs (util/output_file.h): a fifo would
  // block the reader forever, a device lose the work, a link overwrite an input.
  void check_resume_file(const std::vector<std::string>& inputs) const {
    if (!resume_file.empty()) check_output_path(resume_file, "resume file", inputs);
  }

  HoldemBestResponseOptions options() const {
    HoldemBestResponseOptions o;
    o.threads = threads;
    o.sample_flops = flops;
    o.seed = seed;
    o.flops = all_flops ? HoldemBestResponseOptions::Flops::kAll
                        : HoldemBestResponseOptions::Flops::kAuto;
    o.precision = parse_precision(precision);
    o.resume_file = resume_file;
    if (!quiet) o.on_progress = print_best_response_progress();
    return o;
  }
};

}  // namespace hulhe::cli
