#include "abstraction/abstraction_config.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "abstraction/bucket_map.h"
#include "util/input_error.h"
#include "util/toml_input.h"

namespace hulhe {
namespace {

constexpr std::int64_t kMaxThreads = 1024;

// More buckets than canonical hands (Waugh's indexer: 169; 1,286,792; 13,960,050;
// 123,156,254) is no abstraction; above 2^24 the k-means centres alone need gigabytes.
std::int64_t max_buckets(int round) {
  constexpr std::int64_t kCanonicalHands[4] = {169, 1286792, 13960050, 123156254};
  return std::min<std::int64_t>(kCanonicalHands[round], std::int64_t{1} << 24);
}

// Messages read "config '<file>': <what>".
std::string context(const std::string& source) {
  return "config '" + source + "': ";
}

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw InputError(context(source) + what);
}

std::int64_t get_int(const toml::value& v, const std::string& source, const std::string& key,
                     std::int64_t lo, std::int64_t hi) {
  return toml_integer_in(v, key, lo, hi, context(source));
}

std::string get_string(const toml::value& v, const std::string& source, const std::string& key) {
  return toml_string(v, key, context(source));
}

BucketingMethod parse_method(const std::string& s, const std::string& source,
                             const std::string& key) {
  for (BucketingMethod m :
       {BucketingMethod::kLossless, BucketingMethod::kEhs, BucketingMethod::kDistribution,
        BucketingMethod::kPotential, BucketingMethod::kOchs})
    if (s == method_name(m)) return m;
  fail(source,
       "'" + key + "' = \"" + s + "\" is not one of lossless, ehs, distribution, potential, ochs");
}

void parse_round(const toml::value& t, int round, const std::string& source, RoundConfig& rc) {
  const std::string name = kRoundNames[round];
  if (!t.is_table()) fail(source, "[" + name + "] must be a table");
  bool has_method = false, has_buckets = false;
  for (const auto& [key, v] : t.as_table()) {
    const std::string k = name + "." + key;
    if (key == "method") {
      rc.method = parse_method(get_string(v, source, k), source, k);
      has_method = true;
    } else if (key == "buckets") {
      rc.buckets = static_cast<std::int32_t>(get_int(v, source, k, 1, max_buckets(round)));
      has_buckets = true;
    } else if (key == "bins") {
      rc.bins = static_cast<int>(get_int(v, source, k, 2, 10000));
    } else if (key == "sample") {
      rc.sample = get_int(v, source, k, 0, std::int64_t{1} << 40);
    } else if (key == "restarts") {
      rc.restarts = static_cast<int>(get_int(v, source, k, 1, 1000));
    } else if (key == "iterations") {
      rc.iterations = static_cast<int>(get_int(v, source, k, 1, 100000));
    } else if (key == "candidates") {
      rc.candidates = static_cast<int>(get_int(v, source, k, 0, 1 << 30));
    } else if (key == "kmeans") {
      const std::string a = get_string(v, source, k);
      if (a != "exact" && a != "bounded")
        fail(source, "'" + k + "' = \"" + a + "\" is not one of exact, bounded");
      rc.bounded_kmeans = a == "bounded";
    } else if (key == "centres") {
      const std::string a = get_string(v, source, k);
      if (a != "mean" && a != "medoid")
        fail(source, "'" + k + "' = \"" + a + "\" is not one of mean, medoid");
      rc.medoid_centres = a == "medoid";
    } else if (key == "opponent_clusters") {
      rc.opponent_clusters = static_cast<int>(get_int(v, source, k, 1, 169));
    } else if (key == "opponent_bins") {
      rc.opponent_bins = static_cast<int>(get_int(v, source, k, 2, 10000));
    } else {
      fail(source, "unknown key '" + k +
                       "' (known: method, buckets, bins, sample, restarts, iterations, "
                       "candidates, kmeans, centres, opponent_clusters, opponent_bins)");
    }
  }
  if (!has_method) fail(source, "[" + name + "] needs a 'method'");
  if (rc.medoid_centres && rc.method != BucketingMethod::kPotential)
    fail(source, "'" + name + ".centres' = \"medoid\" is for method potential, not " +
                     method_name(rc.method));
  if (rc.method != BucketingMethod::kLossless && !has_buckets)
    fail(source, "[" + name + "] needs 'buckets' for method " + method_name(rc.method));
}

void validate(const AbstractionConfig& c, const std::string& source) {
  for (int r = 0; r < 4; ++r) {
    const RoundConfig& rc = c.rounds[r];
    const std::string name = kRoundNames[r];
    if (rc.method == BucketingMethod::kOchs && r != 3)
      fail(source, "[" + name +
                       "] method ochs is the river's feature (hand strength on a "
                       "complete board); use it on [river] only");
    if (r == 3 &&
        (rc.method == BucketingMethod::kDistribution || rc.method == BucketingMethod::kPotential))
      fail(source, "[river] method " + std::string(method_name(rc.method)) +
                       " needs cards still to come; the river has none");
    if (rc.method == BucketingMethod::kPotential &&
        c.rounds[r + 1].method == BucketingMethod::kLossless)
      fail(source, "[" + name +
                       "] method potential clusters over the next round's buckets, "
                       "so [" +
                       kRoundNames[r + 1] + "] cannot be lossless");
  }
}

}  // namespace

const char* method_name(BucketingMethod m) {
  switch (m) {
    case BucketingMethod::kLossless:
      return "lossless";
    case BucketingMethod::kEhs:
      return "ehs";
    case BucketingMethod::kDistribution:
      return "distribution";
    case BucketingMethod::kPotential:
      return "potential";
    case BucketingMethod::kOchs:
      return "ochs";
  }
  return "?";
}

std::string AbstractionConfig::base_dir_of(const std::string& path) {
  const std::string base = std::filesystem::path(path).parent_path().string();
  return base.empty() ? "." : base;
}

AbstractionConfig AbstractionConfig::from_file(const std::string& path) {
  return from_table(parse_toml_file(path, "config", kMaxConfigBytes), path, base_dir_of(path));
}

AbstractionConfig AbstractionConfig::from_string(const std::string& text, const std::string& source,
                                                 const std::string& base_dir) {
  return from_table(parse_toml(text, source), source, base_dir);
}

AbstractionConfig AbstractionConfig::from_table(const toml::value& root, const std::string& source,
                                                const std::string& base_dir) {
  if (!root.is_table()) fail(source, "not a TOML table");
  AbstractionConfig c;
  c.path = source;
  bool has_game = false;
  std::set<int> seen;
  for (const auto& [key, v] : root.as_table()) {
    if (key == "game") {
      std::filesystem::path p(get_string(v, source, key));
      c.game_path =
          (p.is_absolute() ? p : std::filesystem::path(base_dir) / p).lexically_normal().string();
      has_game = true;
    } else if (key == "seed") {
      c.seed = static_cast<std::uint64_t>(get_int(v, source, key, 0, INT64_MAX));
    } else if (key == "threads") {
      c.threads = static_cast<int>(get_int(v, source, key, 0, kMaxThreads));
    } else if (key == "output") {
      c.output = get_string(v, source, key);
    } else if (key == "solve" || key == "export" || key == "evaluate") {
      // The other stages of a pipeline config (pipeline/pipeline_config.h) read these.
      if (!v.is_table()) fail(source, "[" + key + "] must be a table");
    } else {
      int r = -1;
      for (int i = 0; i < 4; ++i)
        if (key == kRoundNames[i]) r = i;
      if (r < 0)
        fail(source,
             "unknown key '" + key +
                 "' (known: game, seed, threads, output, preflop, flop, turn, river, solve, "
                 "export, evaluate)");
      parse_round(v, r, source, c.rounds[r]);
      seen.insert(r);
    }
  }
  if (!has_game) fail(source, "needs 'game' (path of an ACPC .game file)");
  for (int r = 0; r < 4; ++r)
    if (!seen.count(r)) fail(source, std::string("needs a [") + kRoundNames[r] + "] table");
  validate(c, source);
  return c;
}

std::string AbstractionConfig::describe(int round) const {
  const RoundConfig& rc = rounds[round];
  std::ostringstream os;
  os << method_name(rc.method);
  if (rc.method == BucketingMethod::kLossless) return os.str();
  os << " buckets=" << rc.buckets;
  if (rc.method == BucketingMethod::kEhs) return os.str();
  if (rc.method == BucketingMethod::kDistribution) os << " bins=" << rc.bins;
  os << " sample=" << rc.sample << " restarts=" << rc.restarts << " iterations=" << rc.iterations;
  if (rc.method == BucketingMethod::kPotential) os << " candidates=" << rc.candidates;
  if (rc.method == BucketingMethod::kOchs)
    os << " opponent_clusters=" << rc.opponent_clusters << " opponent_bins=" << rc.opponent_bins;
  if (rc.bounded_kmeans) os << " kmeans=bounded";
  if (rc.medoid_centres) os << " centres=medoid";
  return os.str();
}

std::string AbstractionConfig::to_toml() const {
  std::ostringstream os;
  os << "game = \"" << std::filesystem::path(game_path).filename().string() << "\"\n"
     << "seed = " << seed << "\n";
  for (int r = 0; r < 4; ++r) {
    const RoundConfig& rc = rounds[r];
    os << "[" << kRoundNames[r] << "]\nmethod = \"" << method_name(rc.method) << "\"\n";
    if (rc.method == BucketingMethod::kLossless) continue;
    os << "buckets = " << rc.buckets << "\nbins = " << rc.bins << "\nsample = " << rc.sample
       << "\nrestarts = " << rc.restarts << "\niterations = " << rc.iterations
       << "\ncandidates = " << rc.candidates << "\nopponent_clusters = " << rc.opponent_clusters
       << "\nopponent_bins = " << rc.opponent_bins << "\n";
    // Only when not the default, so configs without the key keep their old hash.
    if (rc.bounded_kmeans) os << "kmeans = \"bounded\"\n";
    if (rc.medoid_centres) os << "centres = \"medoid\"\n";
  }
  return os.str();
}

std::uint64_t AbstractionConfig::hash() const {
  // Output path and thread count do not change the result (k-means is thread-count
  // independent), so they are not part of to_toml() and not hashed.
  std::string t = to_toml();
  return checksum64(t.data(), t.size());
}

}  // namespace hulhe
