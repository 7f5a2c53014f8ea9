#pragma once
// A run's configuration (`configs/*.toml`, read with toml11). Two shapes:
//
// Small games (Kuhn, Leduc): solve keys at the top level.
//   game = "games/leduc.game"   # ACPC .game file, relative to the config file
//   abstraction = "lossless"
//   algorithm = "cfr+"          # cfr, cfr+, dcfr, cfr-br, external, outcome, pcs
//                               # (cfr-br: small games only, solver/cfr_br.h)
//   iterations = 20000          # total, counting a resumed run's earlier iterations
//   seconds = 0                 # wall-clock budget of this invocation, 0 = none
//   threads = 1
//   seed = 1
//   checkpoint = "leduc.ckpt"   # relative to the working directory; "" = none
//   checkpoint_every_iterations = 0   # 0 = only at the end (and on SIGINT/SIGTERM)
//   checkpoint_every_seconds = 0
//   progress_every_seconds = 2
//   sync_every_seconds = 30     # runs over MPI ranks (docs/distributed.md): how often the
//                               # ranks add up their tables' changes
//   sync_timeout_seconds = 600  # how long a rank waits for the others in a sync beyond the
//                               # interval (a dead or hung rank: a clear error, not a hang)
//   table_precision = "auto"    # float32, float64; auto: float64 for cfr, cfr+, dcfr, cfr-br
//                               # (exact small-game solving), float32 for the sampling ones
//   [parameters] dcfr_alpha, dcfr_beta, dcfr_gamma, cfr_plus_delay, outcome_epsilon,
//                discount_interval, discount_until, average_delay, prune_after,
//                prune_threshold, prune_probability, regret_floor
//
// Pipeline configs (HULHE, `configs/hulhe-*.toml`): game, seed and the abstraction at the top
// level (abstraction_config.h: `output` is the bucket map, [preflop] .. [river] its rounds),
// the solve keys above in a [solve] table (its [solve.parameters] as [parameters]), and the
// [export] and [evaluate] tables of `hulhe run` (pipeline_config.h). The abstraction is then
// the bucket map, which must have been built from this config's abstraction description.
// Unknown keys and wrong types are InputErrors naming the file and key.
#include <cstdint>
#include <string>
#include <toml.hpp>

#include "solver/cfr_algorithm.h"

namespace hulhe {

struct AbstractionConfig;

inline constexpr int kMaxSolveThreads = 1024;
inline constexpr std::int64_t kMaxSolveIterations = std::int64_t{1} << 50;
// DCFR weights t^a/(t^a+1) and (t/(t+1))^g stay finite for every t below 2^50 only with
// exponents of moderate size; Brown & Sandholm (2019) use 0 <= alpha, gamma <= 5 and
// beta in [-inf, 1].
inline constexpr double kMaxDcfrExponent = 10.0;

struct SolveConfig {
  std::string path;  // the config file
  std::string game_path;
  std::string abstraction = "lossless";  // or "buckets"
  std::string bucket_map;                // "buckets": the map file
  // "buckets" from a pipeline config: the hash of its abstraction description, which the map
  // must have been built from (0: not checked).
  std::uint64_t abstraction_source_hash = 0;
  CfrParameters params;
  std::int64_t iterations = 1000;
  double seconds = 0.0;
  int threads = 1;
  std::string checkpoint;
  std::int64_t checkpoint_every_iterations = 0;
  double checkpoint_every_seconds = 0.0;
  double progress_every_seconds = 2.0;
  // Over MPI ranks only (docs/distributed.md): the period between two table syncs, and the
  // longest a rank waits for the others in a sync (on top of the period).
  double sync_every_seconds = 30.0;
  double sync_timeout_seconds = 600.0;
  std::string table_precision = "auto";  // "auto", "float32" or "float64" (strategy_tables.h)

  // Reads and validates a config: regular files only, TOML syntax errors with
  // file:line:column, unknown keys, wrong types, a negative seed and every range below are
  // InputErrors naming the file and key.
  static SolveConfig from_file(const std::string& path);
  // From an already parsed file, named `path` in messages. A pipeline config's abstraction
  // (for its bucket map and hash) is `abstraction` when given, else built from `root`.
  static SolveConfig from_table(const toml::value& root, const std::string& path,
                                const AbstractionConfig* abstraction = nullptr);
  // The one place a solve configuration's values are range-checked, after the file is read
  // and again after the command line's overrides: every count, duration and parameter must
  // be finite and in its range, so that no run starts that would learn nothing (NaN or
  // negative DCFR exponents), never stop or checkpoint garbage. InputError naming `source`
  // (the config file, or "command line") and the key.
  void validate(const std::string& source) const;

 private:
  // file_bytes: the size of the file `root` was read from (0: not read here); a pipeline
  // config's abstraction refuses one of more than kMaxConfigBytes (util/toml_input.h).
  static SolveConfig from_parsed(const toml::value& root, const std::string& path,
                                 const AbstractionConfig* abstraction, std::uint64_t file_bytes);
};

}  // namespace hulhe
