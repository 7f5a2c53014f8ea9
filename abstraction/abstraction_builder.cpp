#include "abstraction/abstraction_builder.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <parallel/algorithm>
#include <sstream>
#include <stdexcept>

#include "abstraction/clustering/kmeans.h"
#include "abstraction/features/next_round_buckets.h"
#include "game/hand_indexer.h"
#include "util/input_error.h"
#include "util/process_facts.h"
#include "util/progress.h"

namespace hulhe {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// What the previous round (in build order: the next round of the game) leaves for a
// potential-aware round: its buckets and the distances between them.
struct NextRound {
  std::vector<std::int32_t> bucket;  // per canonical hand
  GroundDistance ground;
};

// The builder's reports (Progress, with times) from (stage, done, total) events: each stage's
// clock starts at its first event and stops at done == total; in between a stage reports
// at most every kAbstractionProgressSeconds. Events come from one thread (k-means reports
// from OpenMP's thread 0, the caller's).
class StageProgress {
 public:
  explicit StageProgress(const ProgressCallback& on_progress) : on_progress_(on_progress) {}
  void operator()(const std::string& stage, std::int64_t done, std::int64_t total) {
    if (!on_progress_) return;
    const auto now = Clock::now();
    auto [it, fresh] = stages_.try_emplace(stage, Stage{now, now});
    const bool end = done >= total;
    // A stage first seen part-way (k-means' steps report after their first unit of work)
    // starts its clock there, to report kAbstractionProgressSeconds later.
    if (fresh && !end && done > 0) return;
    if (!fresh && !end) {
      if (std::chrono::duration<double>(now - it->second.last).count() <
          kAbstractionProgressSeconds)
        return;
      it->second.last = now;
    }
    const double elapsed = std::chrono::duration<double>(now - it->second.start).count();
    const Progress r = progress_at(stage, done, total, done, elapsed);
    if (end) stages_.erase(it);
    on_progress_(r);
  }

 private:
  struct Stage {
    Clock::time_point start, last;
  };
  const ProgressCallback& on_progress_;
  std::map<std::string, Stage> stages_;
};

// fn(i, row) for each row i of `lists` (rows x per_row), in parallel on `threads` threads,
// with `row` its buckets in ascending order (the thread's own copy, fn may change it).
template <typename Fn>
void for_each_sorted_row(const std::int32_t* lists, std::int64_t rows, int per_row, int threads,
                         Fn fn) {
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::int32_t> row(per_row);
#pragma omp for schedule(dynamic, 4096)
    for (std::int64_t i = 0; i < rows; ++i) {
      std::copy(lists + i * per_row, lists + (i + 1) * per_row, row.begin());
      std::sort(row.begin(), row.end());
      fn(i, row);
    }
  }
}

}  // namespace

std::vector<std::int32_t> percentile_buckets(const std::vector<float>& values, int buckets,
                                             std::vector<float>& centres) {
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  if (n >= (std::int64_t{1} << 32))
    throw std::invalid_argument("percentile_buckets: at most 2^32 values");
  // Sort packed keys (order-preserving float bits << 32 | row) instead of row indices with
  // an indirect comparator: no random reads of `values` while sorting 123M rows, and the
  // parallel sort of libstdc++ applies. The result does not depend on the order of equal
  // values (a run of ties takes the bucket of its first position), so neither does it on
  // the sort.
  std::vector<std::uint64_t> key(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint32_t u = std::bit_cast<std::uint32_t>(values[i] + 0.0f);  // -0 -> +0
    u = (u & 0x80000000U) != 0 ? ~u : (u | 0x80000000U);
    key[i] = static_cast<std::uint64_t>(u) << 32 | static_cast<std::uint64_t>(i);
  }
  __gnu_parallel::sort(key.begin(), key.end());
  std::vector<std::int32_t> out(n);
  std::vector<double> sum(buckets, 0.0);
  std::vector<std::int64_t> count(buckets, 0);
  std::int32_t b = 0;
  for (std::int64_t p = 0; p < n; ++p) {
    const std::int64_t row = static_cast<std::int64_t>(key[p] & 0xFFFFFFFFU);
    // A new bucket starts at its percentile, unless the value ties with the previous hand.
    std::int32_t want = static_cast<std::int32_t>(p * buckets / n);  // p * buckets < 2^63
    if (p > 0 && (key[p] >> 32) != (key[p - 1] >> 32)) b = std::max(b, want);
    out[row] = b;
    const std::uint32_t u = static_cast<std::uint32_t>(key[p] >> 32);
    sum[b] += std::bit_cast<float>((u & 0x80000000U) != 0 ? (u & 0x7FFFFFFFU) : ~u);
    ++count[b];
  }
  centres.assign(buckets, 0.0f);
  for (int c = 0; c < buckets; ++c)
    if (count[c]) centres[c] = static_cast<float>(sum[c] / count[c]);
  return out;
}

SparseHistograms histograms_from_lists(const std::int32_t* lists, std::int64_t rows, int per_row,
                                       int dims, int threads) {
  SparseHistograms h;
  h.rows = rows;
  h.dims = dims;
  h.offset.assign(rows + 1, 0);
  const int t = threads > 0 ? threads : omp_get_max_threads();
  // Pass 1: distinct buckets per row; pass 2: fill (cluster ascending, mass = share).
  for_each_sorted_row(lists, rows, per_row, t, [&](std::int64_t i, std::vector<std::int32_t>& row) {
    h.offset[i + 1] = std::unique(row.begin(), row.end()) - row.begin();
  });
  for (std::int64_t i = 0; i < rows; ++i) h.offset[i + 1] += h.offset[i];
  h.cluster.resize(h.offset[rows]);
  h.mass.resize(h.offset[rows]);
  for_each_sorted_row(lists, rows, per_row, t, [&](std::int64_t i, std::vector<std::int32_t>& row) {
    std::int64_t out = h.offset[i];
    for (int a = 0; a < per_row;) {
      int b = a;
      while (b < per_row && row[b] == row[a]) ++b;
      h.cluster[out] = static_cast<std::uint32_t>(row[a]);
      h.mass[out] = static_cast<float>(b - a) / per_row;
      ++out;
      a = b;
    }
  });
  return h;
}

SparseHistograms next_round_histograms(int round, const std::vector<std::int32_t>& next_bucket,
                                       int dims, int threads) {
  const HandIndexer& indexer = HandIndexer::holdem(round);
  if (next_bucket.size() != HandIndexer::holdem(round + 1).size())
    throw std::invalid_argument("next_round_histograms: wrong next-round bucket count");
  const int per_row = next_round_successors(round);
  const int t = threads > 0 ? threads : omp_get_max_threads();
  SparseHistograms h;
  h.rows = static_cast<std::int64_t>(indexer.size());
  h.dims = dims;
  h.offset.assign(h.rows + 1, 0);
  // Blocks of rows: each row's bucket list is sorted while it is in cache, then run-length
  // coded into the CSR arrays, so the whole rows x per_row list (2.6 GB on the turn) never
  // exists at once.
  const std::int64_t block = std::max<std::int64_t>(1, (std::int64_t{1} << 22) / per_row);
  std::vector<std::int32_t> lists(static_cast<std::size_t>(std::min(block, h.rows)) * per_row);
  for (std::int64_t begin = 0; begin < h.rows; begin += block) {
    const std::int64_t end = std::min(h.rows, begin + block);
#pragma omp parallel for schedule(dynamic, round == 0 ? 1 : 256) num_threads(t)
    for (std::int64_t i = begin; i < end; ++i) {
      Card cards[7];
      indexer.unindex(static_cast<std::uint64_t>(i), cards);
      std::int32_t* row = lists.data() + (i - begin) * per_row;
      next_round_buckets_of(
          round, cards, [&](std::uint64_t next) { return next_bucket[next]; }, row);
      std::sort(row, row + per_row);
      std::int64_t distinct = 1;
      for (int j = 1; j < per_row; ++j) distinct += row[j] != row[j - 1] ? 1 : 0;
      h.offset[i + 1] = distinct;
    }
    for (std::int64_t i = begin; i < end; ++i) h.offset[i + 1] += h.offset[i];
    h.cluster.resize(h.offset[end]);
    h.mass.resize(h.offset[end]);
#pragma omp parallel for schedule(static) num_threads(t)
    for (std::int64_t i = begin; i < end; ++i) {
      const std::int32_t* row = lists.data() + (i - begin) * per_row;
      std::int64_t out = h.offset[i];
      for (int a = 0; a < per_row;) {
        int z = a;
        while (z < per_row && row[z] == row[a]) ++z;
        h.cluster[out] = static_cast<std::uint32_t>(row[a]);
        h.mass[out] = static_cast<float>(z - a) / static_cast<float>(per_row);
        ++out;
        a = z;
      }
    }
  }
  return h;
}

void histograms_to_cdfs(FeatureMatrix& h, int threads) {
  const float width = 1.0f / h.cols;
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads())
  for (std::int64_t i = 0; i < h.rows; ++i) {
    float* r = h.row(i);
    float run = 0.0f;
    for (int j = 0; j < h.cols; ++j) {
      run += r[j];
      r[j] = run * width;
    }
  }
}

AbstractionBuilder::AbstractionBuilder(AbstractionConfig config, std::uint64_t game_hash,
                                       int threads, ProgressCallback on_progress)
    : config_(std::move(config)),
      game_hash_(game_hash),
      threads_(threads),
      on_progress_(std::move(on_progress)) {}

BucketMap AbstractionBuilder::build() {
  BucketMap map;
  map.game_hash = game_hash_;
  map.source = config_.to_toml();
  map.source_hash = config_.hash();
  map.rounds.resize(4);
  rounds_.clear();
  stages_.clear();

  StageProgress progress(on_progress_);
  // Every stage records its wall time and its own peak memory.
  auto run_stage = [&](const std::string& name, auto&& body) {
    reset_peak_rss();
    auto start = Clock::now();
    progress(name, 0, 1);
    body();
    stages_.push_back({name, seconds_since(start), peak_rss_mib()});
    progress(name, 1, 1);
  };
  auto kmeans_progress = [&](const std::string& round_name) -> ProgressCallback {
    if (!on_progress_) return {};
    return [&progress, round_name](const Progress& step) {
      progress(round_name + ": " + step.stage, step.done, step.total);
    };
  };
  // A k-means stage over `x` (a round's features) whose clusters become the round's buckets,
  // centres and the distances between them.
  auto cluster = [&](const std::string& stage, const std::string& round_name,
                     const FeatureMatrix& x, KMeansMetric metric, bool cdf, const KMeansOptions& o,
                     RoundBuckets& out, std::vector<std::int32_t>& bucket,
                     std::optional<GroundDistance>& ground) {
    KMeansResult r;
    run_stage(stage, [&] { r = kmeans(x, metric, o, kmeans_progress(round_name)); });
    bucket = std::move(r.assignment);
    out.cost = r.cost;
    out.centres = std::move(r.centres);
    ground.emplace(static_cast<int>(out.centres.rows), centre_distances(out.centres, metric));
    ground->set_embedding(out.centres.data, out.centres.cols, cdf);
  };
  auto options = [&](const RoundConfig& rc, int round) {
    KMeansOptions o;
    o.clusters = rc.buckets;
    o.restarts = rc.restarts;
    o.max_iterations = rc.iterations;
    o.sample_size = rc.sample;
    o.seed = config_.seed * 1000003ULL + static_cast<std::uint64_t>(round);
    o.threads = threads_;
    o.candidates = rc.candidates;
    o.algorithm = rc.bounded_kmeans ? KMeansAlgorithm::kBounded : KMeansAlgorithm::kExact;
    o.medoid_centres = rc.medoid_centres;
    return o;
  };

  std::optional<std::vector<float>> river_hs;
  auto need_river_hs = [&]() -> const std::vector<float>& {
    if (!river_hs)
      run_stage("river hand strength (123,156,254 hands)",
                [&] { river_hs = river_hand_strength(threads_); });
    return *river_hs;
  };

  std::optional<NextRound> next;  // the round after the one being built
  for (int round = 3; round >= 0; --round) {
    const RoundConfig& rc = config_.rounds[round];
    const std::string name = kRoundNames[round];
    const std::int64_t hands = static_cast<std::int64_t>(HandIndexer::holdem(round).size());
    RoundBuckets& out = map.rounds[round];
    out.round = round;
    out.method = method_name(rc.method);
    out.feature = config_.describe(round);
    auto round_start = Clock::now();
    std::vector<std::int32_t> bucket;
    std::optional<GroundDistance> ground;  // distances between this round's buckets

    switch (rc.method) {
      case BucketingMethod::kLossless: {
        out.num_buckets = static_cast<std::int32_t>(hands);
        bucket.resize(hands);
        std::iota(bucket.begin(), bucket.end(), 0);
        break;
      }
      case BucketingMethod::kEhs: {
        out.num_buckets = rc.buckets;
        std::vector<float> ehs;
        const auto& hs = need_river_hs();
        run_stage(name + ": E[HS]",
                  [&] { ehs = round == 3 ? hs : expected_hand_strength(round, hs, threads_); });
        std::vector<float> centres;
        run_stage(name + ": percentile buckets", [&] {
          bucket = percentile_buckets(ehs, rc.buckets, centres);
          for (std::int64_t i = 0; i < hands; ++i) {
            double d = ehs[i] - centres[bucket[i]];
            out.cost += d * d;
          }
        });
        out.centres.rows = rc.buckets;
        out.centres.cols = 1;
        out.centres.data = centres;
        ground.emplace(rc.buckets, centre_distances(out.centres, KMeansMetric::kL2));
        ground->set_embedding(out.centres.data, 1, false);
        break;
      }
      case BucketingMethod::kDistribution: {
        out.num_buckets = rc.buckets;
        FeatureMatrix h;
        const auto& hs = need_river_hs();
        run_stage(name + ": strength histograms", [&] {
          h = strength_histograms(round, rc.bins, hs, threads_);
          histograms_to_cdfs(h, threads_);
        });
        cluster(name + ": k-means (1-D EMD)", name, h, KMeansMetric::kL1, true, options(rc, round),
                out, bucket, ground);
        break;
      }
      case BucketingMethod::kOchs: {
        out.num_buckets = rc.buckets;
        // Opponent clusters (Johanson et al. 2013): k-means of the 169 preflop hands'
        // E[HS] histograms under the 1-D EMD. One sweep per canonical river board gives
        // them directly; the river HS table is not needed.
        std::vector<int> preflop_cluster;
        run_stage(name + ": preflop opponent clusters", [&] {
          FeatureMatrix ph = preflop_strength_histograms(rc.opponent_bins, threads_);
          histograms_to_cdfs(ph, threads_);
          KMeansOptions o;
          o.clusters = rc.opponent_clusters;
          o.restarts = 20;
          o.max_iterations = 200;
          o.seed = config_.seed * 1000003ULL + 17;
          o.threads = threads_;
          KMeansResult r = kmeans(ph, KMeansMetric::kL1, o);
          preflop_cluster.assign(r.assignment.begin(), r.assignment.end());
        });
        std::ostringstream f;
        f << out.feature << " preflop_clusters=";
        for (int c : preflop_cluster) f << c;
        out.feature = f.str();
        FeatureMatrix x;
        run_stage(name + ": OCHS features",
                  [&] { x = ochs_features(preflop_cluster, rc.opponent_clusters, threads_); });
        cluster(name + ": k-means (L2 on OCHS)", name, x, KMeansMetric::kL2, false,
                options(rc, round), out, bucket, ground);
        break;
      }
      case BucketingMethod::kPotential: {
        out.num_buckets = rc.buckets;
        SparseHistograms h;
        run_stage(name + ": next-round bucket histograms", [&] {
          h = next_round_histograms(round, next->bucket, next->ground.size(), threads_);
        });
        KMeansResult r;
        run_stage(name + ": k-means (EMD over next-round buckets)", [&] {
          r = kmeans_emd(h, next->ground, options(rc, round), kmeans_progress(name));
        });
        bucket = std::move(r.assignment);
        out.cost = r.cost;
        out.centres = std::move(r.centres);
        // Only a potential-aware round before this one uses the distances (k^2 greedy EMDs,
        // docs/abstraction.md), and they are not stored.
        if (round > 0 && config_.rounds[round - 1].method == BucketingMethod::kPotential)
          run_stage(name + ": distances between centres", [&] {
            ground.emplace(
                static_cast<int>(out.centres.rows),
                centre_distances_emd(out.centres, next->ground, threads_, kmeans_progress(name)));
          });
        break;
      }
    }
    out.set_buckets(bucket);
    RoundReport rep;
    rep.round = round;
    rep.method = out.method;
    rep.buckets = out.num_buckets;
    rep.hands = hands;
    std::vector<std::int64_t> counts = out.counts();
    std::sort(counts.begin(), counts.end());
    rep.min_hands = counts.front();
    rep.median_hands = counts[counts.size() / 2];
    rep.max_hands = counts.back();
    rep.cost = out.cost;
    rep.seconds = seconds_since(round_start);
    rounds_.push_back(rep);
    // Rounds before this one need its buckets only if they are potential-aware.
    if (round > 0 && config_.rounds[round - 1].method == BucketingMethod::kPotential)
      next = NextRound{std::move(bucket), std::move(*ground)};
    else
      next.reset();
  }
  std::reverse(rounds_.begin(), rounds_.end());
  return map;
}

}  // namespace hulhe
