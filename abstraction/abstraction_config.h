#pragma once
// The configuration of `hulhe abstract` (TOML, read with toml11): the game, the seed, the
// output path, and per round the bucketing method and its parameters. Unknown keys, wrong
// types and impossible combinations are InputErrors naming the file and the key.
//
//   game = "games/holdem.limit.2p.reverse_blinds.game"   # relative to the config file
//   seed = 1
//   output = "hulhe-quick.buckets"                        # relative to the working directory
//   [preflop] method = "lossless"
//   [flop]    method = "potential"; buckets = 64; sample = 20000; iterations = 20
//   [turn]    method = "potential"; buckets = 64
//   [river]   method = "ochs"; buckets = 64; opponent_clusters = 8
#include <array>
#include <cstdint>
#include <string>
#include <toml.hpp>

namespace hulhe {

enum class BucketingMethod { kLossless, kEhs, kDistribution, kPotential, kOchs };

const char* method_name(BucketingMethod m);

struct RoundConfig {
  BucketingMethod method = BucketingMethod::kLossless;
  std::int32_t buckets = 0;   // ignored by lossless (canonical index = bucket)
  int bins = 50;              // distribution: strength-histogram bins
  std::int64_t sample = 0;    // k-means fits on this many random hands (0: all)
  int restarts = 1;           // k-means restarts, the lowest cost kept
  int iterations = 30;        // Lloyd iterations at most
  int candidates = 0;         // potential: EMDs per hand at most (0: exact argmin)
  int opponent_clusters = 8;  // ochs: clusters of preflop hands (Johanson et al. 2013)
  int opponent_bins = 50;     // ochs: bins of the preflop E[HS] histograms clustered
  // k-means kernels (abstraction/clustering/kmeans.h): false = "exact", the original ones, so a
  // config without the key builds (and hashes to) the same map as before the key existed; true =
  // "bounded", the same algorithm with work-skipping bounds (docs/abstraction.md).
  bool bounded_kmeans = false;
  // potential: Lloyd steps move centres to medoids (KMeansOptions::medoid_centres), config
  // `centres = "medoid"`; false = "mean", the histogram mean (Ganzfried & Sandholm 2014).
  bool medoid_centres = false;
};

struct AbstractionConfig {
  std::string path;       // the config file ("<string>" when parsed from text)
  std::string game_path;  // resolved against the config file's folder
  std::string output = "hulhe.buckets";
  std::uint64_t seed = 1;
  int threads = 0;  // 0: OpenMP's default
  std::array<RoundConfig, 4> rounds{};

  // Reads and parses the file once (util/toml_input.h), then from_table.
  static AbstractionConfig from_file(const std::string& path);
  // base_dir: folder that relative `game` paths are resolved against.
  static AbstractionConfig from_string(const std::string& text, const std::string& source,
                                       const std::string& base_dir);
  // From an already parsed file (a pipeline config's other stages read the same table);
  // `source` names it in messages.
  static AbstractionConfig from_table(const toml::value& root, const std::string& source,
                                      const std::string& base_dir);
  // The folder relative paths in the config file `path` are resolved against ("." for none).
  static std::string base_dir_of(const std::string& path);

  // The effective configuration as TOML (every key, defaults filled in); its hash goes in
  // the bucket map's header.
  std::string to_toml() const;
  std::uint64_t hash() const;
  // One line for a round, e.g. "potential buckets=1000 sample=50000 restarts=1 ...".
  std::string describe(int round) const;
};

inline constexpr std::array<const char*, 4> kRoundNames = {"preflop", "flop", "turn", "river"};

}  // namespace hulhe
