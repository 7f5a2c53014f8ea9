#pragma once
// A solve run's configuration (`configs/*.toml`, read with toml11). Keys, all optional but
// `game`:
//   game = "games/leduc.game"   # ACPC .game file, relative to the config file
//   abstraction = "lossless"    # the card abstraction (bucket maps come later)
//   algorithm = "cfr+"          # cfr, cfr+, dcfr, external, outcome, pcs
//   iterations = 20000          # total, counting a resumed run's earlier iterations
//   seconds = 0                 # wall-clock budget of this invocation, 0 = none
//   threads = 1
//   seed = 1
//   checkpoint = "leduc.ckpt"   # relative to the working directory; "" = none
//   checkpoint_every_iterations = 0   # 0 = only at the end (and on SIGINT/SIGTERM)
//   checkpoint_every_seconds = 0
//   progress_every_seconds = 2
//   [parameters] dcfr_alpha, dcfr_beta, dcfr_gamma, cfr_plus_delay, outcome_epsilon
// Unknown keys and wrong types are InputErrors naming the file and key.
#include <cstdint>
#include <string>

#include "solver/cfr_algorithm.h"

namespace hulhe {

struct SolveConfig {
  std::string game_path;
  std::string abstraction = "lossless";
  CfrParameters params;
  std::int64_t iterations = 1000;
  double seconds = 0.0;
  int threads = 1;
  std::string checkpoint;
  std::int64_t checkpoint_every_iterations = 0;
  double checkpoint_every_seconds = 0.0;
  double progress_every_seconds = 2.0;

  static SolveConfig from_file(const std::string& path);
};

}  // namespace hulhe
