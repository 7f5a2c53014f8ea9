#pragma once
// Every progress line the CLI prints, on stderr, from the library's reports (util/progress.h;
// the library itself prints nothing): the abstraction builder's stages (`abstract`, `run`), the
// compact export's river check (`export`, `run`), the solver (`solve`, `run`), the hold'em
// best response's units (`exploit`, `compare`, `run`), local best response's hands (`lbr`),
// matches and tournaments (`match`, `tournament`) and the ACPC dealer (`dealer`). One place
// words the rates and ETAs.
#include <string>

#include "pipeline/solver_run.h"
#include "util/progress.h"

namespace hulhe::cli {

// "best response: 3/10 units (30.0%), 0.5 units/s, 4 s/unit/thread, ETA 14.0s", and with
// re-solved subgames (stage "re-solves") "best response: 252/6174 re-solves (4.1%), ..."
std::string best_response_progress_line(const Progress& p);
// "lbr: 4000 / 10000 hands, 2000.0 hands/s, ETA 3.0s"
std::string lbr_progress_line(const Progress& p);
// "  river: assign: 1721344/13960050 (12.3%), 860002/s, ETA 14.0s", or at a stage's end
// "  river: lloyd: 9 done in 3.6s" ("  stage: done in 1.0s" for a one-step stage).
std::string abstraction_progress_line(const Progress& p);
// `hulhe run`'s stage 1: "      river: assign: 1721344/13960050 (12%) · elapsed 1m43s".
std::string run_abstraction_progress_line(const Progress& p);
// "export: river boards checked 9216/134459 (3 s)"
std::string export_progress_line(const Progress& p);
// `hulhe solve`: "iteration 1000/5000 · 4719 it/s · elapsed 0.2s · ETA 0.8s" and, where there
// are, " · exploitability 2.384e-04 chips", the checkpoint just written and the ranks' sync.
std::string solve_progress_line(const Progress& p, const SolverRun& solver);
// `hulhe run`'s stage 2: "      iteration 2533376 · 38747 it/s · elapsed 10.0s · ETA 20.0s"
// and the checkpoint just written.
std::string run_solve_progress_line(const Progress& p, const SolverRun& solver);
// "match: 2000/10000 hands (20.0%), 1000 hands/s, ETA 8s" (`label` "match: ").
std::string match_progress_line(const std::string& label, const Progress& p);
// A tournament's match at its end: "<label>10000 hands in 3.7 s (2683 hands/s); tournament
// ETA 12s", `tournament` the tournament's report at the match's start.
std::string match_done_line(const std::string& label, const Progress& p,
                            const Progress& tournament);
// "dealer: 2000/10000 hands, 1000 hands/s, ETA 8 s"
std::string dealer_progress_line(const Progress& p);

// Callbacks that print those lines on stderr.
ProgressCallback print_best_response_progress();
ProgressCallback print_lbr_progress();  // timed reports only: the summary follows

// Prints match_progress_line at most every two seconds of the match, and its last report.
class MatchProgress {
 public:
  explicit MatchProgress(std::string label) : label_(std::move(label)) {}
  void operator()(const Progress& p);

 private:
  std::string label_;
  double last_ = 0;
};

}  // namespace hulhe::cli
