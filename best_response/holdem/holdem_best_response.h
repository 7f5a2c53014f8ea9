#pragma once
// Exact best response, in the real (unabstracted) game, for 2-player limit hold'em games with
// 2 hole cards and 2 to 4 rounds — HULHE and reduced decks — against any Policy (Johanson,
// Waugh, Bowling & Zinkevich 2011, "Accelerating best response calculation in large
// extensive games"). Also the exact value of one policy against another (the same walk with
// a fixed strategy in place of the max).
//
// The walk: the public tree, with the opponent's reach as a vector over hole-card pairs
// (1,326 in HULHE). The preflop is walked once; below it every canonical flop (suit
// isomorphism, canonical_flops.h) is one work unit holding every preflop sequence that
// reaches the flop and both responder seats. Inside a unit the rounds go breadth-first: a
// forward pass collects the opponent's reach at every sequence entering the next round,
// then each next-round board is dealt (turns and rivers enumerated) and handled once —
// buckets of every hand looked up once, the river's showdown order sorted once — for all
// sequences of that round, and a backward pass values the round with the next round's
// averages at its leaves. Terminals cost O(n) with card removal (Johanson et al. 2011);
// subtrees the opponent never reaches are skipped. Units run on OpenMP threads (dynamic
// schedule); each finished unit's value vectors are appended to a resume file (fsync'd,
// resume_log.h), so a stopped run goes on where it was. Progress goes to a callback.
//
// Arithmetic: doubles everywhere but the last round's batched walk, which runs in double or
// single precision (options.precision; auto: single for the full 52-card deck). In double,
// every value is a sum of at most ~10^10 products of probabilities and chip amounts below
// 2^10, so the relative error is bounded by about (terms in the longest sum) * 2^-53 ≈ 1e-6 in
// the very worst case and ~1e-12 in practice (errors of random sign; tests agree with the
// reference walk to 1e-9 relative). In single precision each river sum has at most 1,326 float
// terms (worst case 1,326 * 2^-24 ≈ 8e-5 relative to the sum of their magnitudes) and is then
// accumulated in double; in practice values are within ~1e-6 relative of the double walk
// (measured: at most 4e-7 on the test games, tested at 1e-5), i.e. ~0.001 mbb/g on a HULHE
// exploitability in the hundreds of mbb/g. Single precision halves the bytes per sequence
// and doubles the lanes per instruction: ~1.8x faster.
//
// Sampled estimate: K flops drawn with probability proportional to their orbit size (a
// systematic sample along a texture order, systematic_sample.h) stand for all of them; the
// preflop best response is taken against the estimated flop values, and each sampled flop's
// contribution under that preflop strategy gives the 95% interval — regression-adjusted on the
// flops' ranks when K ≥ 50 (their mean over all flops is known; they explain most of the
// spread between flops).
#include <Eigen/Dense>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "abstraction/policy.h"
#include "best_response/holdem/canonical_flops.h"
#include "best_response/holdem/subgame_values.h"
#include "best_response/holdem/unit_distribution.h"
#include "public_tree/private_hands.h"
#include "util/progress.h"

namespace hulhe {

struct HoldemBestResponseOptions {
  int threads = 1;
  // Merge flops by suit isomorphism: kAuto merges when both policies' bucket functions pass
  // a randomised suit-symmetry check (suit_symmetry.h; clustered HULHE maps do; lossless maps
  // of small games do not).
  enum class Flops { kAuto, kCanonical, kAll } flops = Flops::kAuto;
  // Arithmetic of the last round (all but a sliver of the work): kDouble agrees with the
  // reference walk to ~1e-12; kSingle is ~1.8x faster, relative error ~1e-6 (bound above);
  // kAuto: single for the full 52-card deck, double for reduced decks.
  enum class Precision { kAuto, kSingle, kDouble } precision = Precision::kAuto;
  // Walk the last round with the interpreted program even in limit games, where the unrolled
  // kernel (limit_last_round_kernel.h) is the default: tests and benchmarks compare the two.
  bool interpreted_last_round = false;
  std::int64_t sample_flops = 0;  // 0: exact (every flop); K > 0: a systematic sample of K flops
  std::uint64_t seed = 1;
  std::string resume_file;  // empty: none (format: resume_log.h)
  // Units done, rate and ETA: called (under a lock, from any thread) at most every
  // progress_every_seconds and after this run's last unit. With `subgames`, also the
  // re-solves (stage "re-solves": done and total over this run's units, rate, ETA), as often.
  ProgressCallback on_progress;
  double progress_every_seconds = 2.0;
  // Compute at most this many units now (a run in chunks, tests of resume); -1: run to the end;
  // 0: none (report what the resume file holds).
  std::int64_t max_units = -1;
  // Sampled runs: compute only these units of the sample (indices into its units, in sample
  // order, as in HoldemBestResponseReport::interim_units); empty: all of them. A baseline
  // measured on another run's finished flops (the paired interim of `hulhe exploit`).
  std::vector<std::int32_t> only_units;
  // Polled before each unit (from any thread): true ends the run early, after the units
  // already started, with `complete` false (a solve's SIGTERM during an estimate).
  std::function<bool()> should_stop;
  // The units spread over several processes (unit_distribution.h; distributed/ makes one
  // over MPI ranks). Null: this process computes every unit. On the processes that are not
  // the coordinator, run() computes the units it is sent and returns a report with
  // `complete` false (and no resume file is opened there).
  std::shared_ptr<UnitDistribution> distribution;
  // From round subgames->round() on, the strategy responded to is the source's (a re-solving
  // agent's) instead of the policy's: the subgames' values come from it (subgame_values.h).
  // Null: the policy's everywhere. Best responses only (not with a fixed second policy).
  // Units then run one at a time and the subgames of each on `threads` threads (a unit is
  // thousands of re-solves; there may be fewer units than threads), except over processes
  // (`distribution`), where each process runs its units on its threads as usual.
  std::shared_ptr<const SubgameValueSource> subgames;
  // With `subgames`, in games of three or more rounds, and no `distribution`: the deal
  // journal (deal_journal.h), so that a unit stopped part way goes on from its last finished
  // deal of the round after the flop. Empty: none (`hulhe exploit` puts it beside the resume
  // file, FILE.deals).
  std::string deal_journal;
};

struct HoldemBestResponseReport {
  // value[t]: chips per hand of the traverser in seat t (BR: best response in seat t against
  // the policy in seat 1 - t; compare: policy B in seat t against policy A).
  std::array<double, 2> value{};
  std::array<double, 2> ci95{};  // half-widths; 0 for exact runs
  double mean = 0.0;             // (value[0] + value[1]) / 2: exploitability for BR
  double mean_ci95 = 0.0;
  bool exact = true;
  // Sampled runs: whether the estimate was regression-adjusted on the flops' ranks
  // (systematic_sample.h; needs K ≥ 50 draws in hold'em).
  bool regression = false;
  bool complete = true;  // false when max_units, should_stop or only_units left units undone
  // A sampled run left incomplete with finished units: value, ci95, mean, mean_ci95 and the
  // draw_* fields are an interim estimate over those units alone (in only_units when given),
  // as if they were the whole sample: the same estimator, with K their draws. Those units are
  // a stretch of the sample's texture order, not a sample of all flops: an interim tells where
  // a long run stands on the flops it has finished, not the estimate it will end with.
  bool interim = false;
  std::vector<std::int32_t> interim_units;  // indices into the sample's units (sample order)
  std::int64_t interim_draws = 0;           // K of the interim estimate
  bool suit_isomorphism = true;
  bool single_precision = false;     // the last round in floats (options.precision)
  bool unrolled_last_round = false;  // by the unrolled limit kernel (limit_last_round_kernel.h)
  std::int64_t flop_classes = 0;     // canonical (or all) flops of the game
  std::int64_t units_total = 0;      // units of this run (distinct flops evaluated)
  std::int64_t units_computed = 0;   // by this process (the rest came from the resume file)
  std::int64_t units_done = 0;       // computed now or read back from the resume file
  std::int64_t deals_resumed = 0;    // deals read back from the deal journal (deal_journal)
  double seconds = 0.0;
  // Sampled runs, complete or interim: the draws behind `mean` in sample order (a flop class drawn
  // twice appears twice), each draw's contribution to the estimate's error (the z_k of
  // systematic_sample.h), the flops' rank covariates and their mean over every flop. Two runs
  // that drew the same flops combine into a paired interval (paired_difference.h).
  std::vector<std::int32_t> draw_units;
  std::vector<double> draw_contributions;
  Eigen::MatrixXd draw_covariates;
  Eigen::VectorXd covariate_means;
};

class HoldemBestResponse {
 public:
  // Best response to `policy`. Throws InputError for games it does not handle.
  HoldemBestResponse(const Policy& policy, HoldemBestResponseOptions options);
  // Value of `fixed` playing against `policy` (the traverser follows `fixed`); both must be
  // of the same game.
  HoldemBestResponse(const Policy& policy, const Policy& fixed, HoldemBestResponseOptions options);
  ~HoldemBestResponse();

  HoldemBestResponseReport run();

  const FlopClasses& flops() const;
  // One work unit alone: flop class c's values summed over its orbit, [seat t][flop entry
  // e][hand] (the traverser in seat t, opponent reach from the preflop; not normalised).
  std::vector<double> flop_values(std::int32_t c) const;
  // The betting string of flop entry e (e.g. "cc/", "rc/").
  std::string flop_entry(std::int32_t e) const;
  std::int32_t num_flop_entries() const;
  const PrivateHands& hands() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hulhe
