// End-to-end runs of `hulhe` under `mpirun --oversubscribe -np N` on this machine (ctest
// label `mpi`; docs/distributed.md): the best response over ranks equals the single-process
// one to the last bit (exact and sampled, reduced hold'em and HULHE), MCCFR over ranks
// reaches the single-process tests' bounds, checkpoints resume across process counts, and a
// stop signal or a killed rank ends the job cleanly.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <tuple>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace {

using namespace hulhe::cli_test;

const std::string kGames = std::string(HULHE_SOURCE_DIR) + "/configs/games/";

// `hulhe args` on `ranks` processes of this machine (loopback), as root too.
std::string mpirun_command(int ranks, const std::string& args) {
  return std::string(HULHE_MPIRUN) + " --oversubscribe --allow-run-as-root --bind-to none -np " +
         std::to_string(ranks) + " " + HULHE_BINARY + " " + args;
}
HulheRun mpirun(int ranks, const std::string& args, bool stderr_too = true) {
  return run_shell(mpirun_command(ranks, args) + (stderr_too ? " 2>&1" : " 2>/dev/null"));
}

// The report's numbers, without the run's duration and the number of processes.
nlohmann::json numbers(const HulheRun& r) {
  nlohmann::json j = nlohmann::json::parse(r.out);
  j.erase("seconds");
  j.erase("processes");
  return j;
}

// The number of processes that `hulhe exploit --json` ran on (-1 when its output has none):
// mpirun -np N must give N, so that a job whose ranks each ran alone (N copies of the
// one-process run, e.g. a build without MPI) cannot pass for one over N ranks.
int processes(const HulheRun& r) {
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  return j.is_object() && j.contains("processes") ? j["processes"].get<int>() : -1;
}

// A strategy of the 12-card, 2-round game worth evaluating, made once for the suite: a short
// external-sampling solve over the lossless abstraction, as a checkpoint (each of its 220
// flops is its own unit: the lossless map is not suit-symmetric).
class DistributedBestResponse : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new hulhe::testing::TempFolder();
    const std::string config = *dir_ / "small.toml";
    std::ofstream(config) << "game = \"" << kGames
                          << "holdem.limit.2p.12card.2rounds.game\"\nabstraction = \"lossless\"\n"
                             "algorithm = \"external\"\niterations = 5000\nthreads = 1\nseed = 3\n";
    ckpt_ = *dir_ / "small.ckpt";
    const HulheRun r = run_hulhe("solve --config " + config + " --checkpoint " + ckpt_);
    ASSERT_EQ(r.status, 0) << r.out;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static hulhe::testing::TempFolder* dir_;
  static std::string ckpt_;
};
hulhe::testing::TempFolder* DistributedBestResponse::dir_ = nullptr;
std::string DistributedBestResponse::ckpt_;

TEST_F(DistributedBestResponse, ExactEqualsOneProcessToTheLastBit) {
  const std::string args = "exploit --checkpoint " + ckpt_ + " --threads 1 --json";
  const HulheRun one = run_hulhe(args, false);
  ASSERT_EQ(one.status, 0) << one.out;
  const nlohmann::json expected = numbers(one);
  EXPECT_GT(expected["exploitability_chips"].get<double>(), 0.01);  // a strategy, not a guess
  EXPECT_EQ(expected["units_total"].get<int>(), 220);
  EXPECT_EQ(processes(one), 1);
  for (int ranks : {2, 3}) {
    const HulheRun many = mpirun(ranks, args, false);
    ASSERT_EQ(many.status, 0) << many.out;
    EXPECT_EQ(processes(many), ranks) << many.out;
    // nlohmann prints doubles to round-trip: equal text is equal bits.
    EXPECT_EQ(numbers(many).dump(), expected.dump()) << ranks << " ranks";
  }
}

TEST_F(DistributedBestResponse, HeadToHeadAndSampledFlopsEqualOneProcessToTheLastBit) {
  // Head to head, 2 threads per rank.
  const std::string cmp = "compare --a " + ckpt_ + " --b bot:uniform --game " + kGames +
                          "holdem.limit.2p.12card.2rounds.game --threads 2 --json";
  const HulheRun c1 = run_hulhe(cmp, false);
  const HulheRun c2 = mpirun(2, cmp, false);
  ASSERT_EQ(c1.status, 0) << c1.out;
  ASSERT_EQ(c2.status, 0) << c2.out;
  EXPECT_EQ(numbers(c2).dump(), numbers(c1).dump());
  EXPECT_NE(numbers(c1)["a_value_chips"].get<double>(), 0.0);
  // An estimate from 40 sampled flops (with its interval) on 3 ranks.
  const std::string args = "exploit --checkpoint " + ckpt_ + " --flops 40 --seed 5 --json";
  const HulheRun one = run_hulhe(args, false);
  ASSERT_EQ(one.status, 0) << one.out;
  EXPECT_GT(numbers(one)["ci95_chips"].get<double>(), 0.0);
  const HulheRun three = mpirun(3, args, false);
  ASSERT_EQ(three.status, 0) << three.out;
  EXPECT_EQ(processes(three), 3) << three.out;
  EXPECT_EQ(numbers(three).dump(), numbers(one).dump());
}

TEST(DistributedHulheBestResponse, SampledFlopsEqualOneProcess) {
  const std::string args = "exploit --game " + kGames +
                           "holdem.limit.2p.reverse_blinds.game --policy always-fold --flops 6 "
                           "--seed 2 --json";
  const HulheRun one = run_hulhe(args, false);
  const HulheRun two = mpirun(2, args, false);
  ASSERT_EQ(one.status, 0) << one.out;
  ASSERT_EQ(two.status, 0) << two.out;
  EXPECT_EQ(processes(two), 2) << two.out;
  EXPECT_EQ(numbers(two).dump(), numbers(one).dump());
  EXPECT_EQ(numbers(two)["flop_classes"].get<int>(), 1755);
  EXPECT_NEAR(numbers(two)["exploitability_mbb"].get<double>(), 750.0, 1e-9);
}

TEST_F(DistributedBestResponse, ResumeFileKeptByRankZero) {
  const hulhe::testing::TempFolder dir;
  const std::string journal = dir / "br.brr";
  const std::string args = "exploit --checkpoint " + ckpt_ + " --json --resume-file " + journal;
  // 7 units over 2 ranks, then the rest in one process: the one-process answer.
  const HulheRun part = mpirun(2, args + " --stop-after 7", false);
  ASSERT_EQ(part.status, 0) << part.out;
  EXPECT_EQ(processes(part), 2) << part.out;
  EXPECT_FALSE(nlohmann::json::parse(part.out)["complete"].get<bool>());
  EXPECT_EQ(nlohmann::json::parse(part.out)["units_computed"].get<int>(), 7);
  const HulheRun rest = run_hulhe(args, false);
  ASSERT_EQ(rest.status, 0) << rest.out;
  const nlohmann::json done = nlohmann::json::parse(rest.out);
  EXPECT_EQ(done["units_computed"].get<int>(), done["units_total"].get<int>() - 7);
  const HulheRun fresh = run_hulhe("exploit --checkpoint " + ckpt_ + " --json", false);
  EXPECT_EQ(done["exploitability_chips"].dump(),
            nlohmann::json::parse(fresh.out)["exploitability_chips"].dump());
}

std::string leduc_config(const hulhe::testing::TempFolder& dir, const std::string& algorithm,
                         std::int64_t iterations) {
  const std::string config = dir / (algorithm + ".toml");
  std::ofstream(config) << "game = \"" << kGames << "leduc.game\"\nabstraction = \"lossless\"\n"
                        << "algorithm = \"" << algorithm << "\"\niterations = " << iterations
                        << "\nthreads = 1\nseed = 42\nsync_every_seconds = 0.0001\n"
                        << "progress_every_seconds = 0.5\n";
  return config;
}

double exploitability_of(const HulheRun& r) {
  const auto at = r.out.find("exploitability: ");
  if (at == std::string::npos) return 1e9;
  return std::stod(r.out.substr(at + 16));
}

// The single-process bound of ExternalSamplingMccfr.LeducConverges: 100,000 iterations
// below 0.1 chips (uniform: 2.37); here 2 and 3 ranks share those iterations.
TEST(DistributedSolve, LeducExternalSamplingReachesTheOneProcessBound) {
  const hulhe::testing::TempFolder dir;
  const std::string config = leduc_config(dir, "external", 100000);
  for (int ranks : {2, 3}) {
    const std::string ckpt = dir / ("leduc" + std::to_string(ranks) + ".ckpt");
    const HulheRun r = mpirun(ranks, "solve --config " + config + " --checkpoint " + ckpt);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("iterations 1..100000"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(std::to_string(ranks) + " ranks"), std::string::npos) << r.out;
    EXPECT_LT(exploitability_of(r), 0.1) << r.out;
    EXPECT_TRUE(std::filesystem::exists(ckpt));
  }
}

// `value` as printf prints it with `format`.
std::string printed(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// The word after `label` in a run's output ("" when absent).
std::string word_after(const HulheRun& r, const std::string& label) {
  const auto at = r.out.find(label);
  if (at == std::string::npos) return "";
  const auto from = at + label.size();
  return r.out.substr(from, r.out.find_first_of(" \n", from) - from);
}

// 2 ranks to 1,000, one process to 2,000, 3 ranks to 3,000. Each stage runs on the processes
// it was started on, resumes exactly where the checkpoint of the stage before ends, and
// reports the exploitability and game value of the checkpoint it leaves: `hulhe exploit`
// computes them again from the file in one process, and they must print the same digits.
// (The ranks' tables are not bit-for-bit those of another process count: their syncs are
// timed in wall time, docs/distributed.md; hence the bound on the final value.)
TEST(DistributedSolve, CheckpointsResumeAcrossProcessCounts) {
  const hulhe::testing::TempFolder dir;
  const std::string config = dir / "pcs.toml";
  std::ofstream(config) << "game = \"" << kGames << "leduc.game\"\nabstraction = \"lossless\"\n"
                        << "algorithm = \"pcs\"\niterations = 3000\nthreads = 1\nseed = 42\n"
                        << "sync_every_seconds = 0.0001\nprogress_every_seconds = 0.5\n";
  const std::string ckpt = dir / "leduc.ckpt";
  HulheRun r;
  for (const auto& [ranks, from, to] : {std::tuple{2, 0, 1000}, {1, 1000, 2000}, {3, 2000, 3000}}) {
    const std::string args = "solve --config " + config + " --iterations " + std::to_string(to) +
                             (from > 0 ? " --resume" : "") + " --checkpoint " + ckpt;
    r = ranks > 1 ? mpirun(ranks, args) : run_hulhe(args);
    ASSERT_EQ(r.status, 0) << r.out;
    const std::string where = std::to_string(ranks) + " processes, to " + std::to_string(to);
    EXPECT_NE(r.out.find("iterations " + std::to_string(from + 1) + ".." + std::to_string(to)),
              std::string::npos)
        << where << "\n"
        << r.out;
    // The solve's header names the ranks of a job of several (rank 0 alone prints it).
    const std::string header =
        ranks > 1 ? " · " + std::to_string(ranks) + " ranks, sync every" : " ranks, sync every";
    EXPECT_EQ(r.out.find(header) != std::string::npos, ranks > 1) << where << "\n" << r.out;
    if (from > 0) {
      EXPECT_NE(r.out.find("resuming " + ckpt + " at iteration " + std::to_string(from)),
                std::string::npos)
          << where << "\n"
          << r.out;
    }
    const HulheRun again = run_hulhe("exploit --checkpoint " + ckpt + " --json", false);
    ASSERT_EQ(again.status, 0) << again.out;
    const nlohmann::json j = nlohmann::json::parse(again.out);
    EXPECT_EQ(word_after(r, "exploitability: "),
              printed("%.6e", j["exploitability_chips"].get<double>()))
        << where;
    EXPECT_EQ(word_after(r, "game value (seat 0): "),
              printed("%.9f", j["game_value"].get<double>()))
        << where;
  }
  // Public chance sampling on Leduc after 3,000 iterations (uniform: 2.37).
  EXPECT_LT(exploitability_of(r), 0.1) << r.out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// One rank takes the single-process path: the same checkpoint, byte for byte.
TEST(DistributedSolve, OneRankIsTheSingleProcessRunToTheBit) {
  const hulhe::testing::TempFolder dir;
  const std::string config = leduc_config(dir, "external", 20000);
  const std::string a = dir / "plain.ckpt", b = dir / "one_rank.ckpt";
  const HulheRun plain = run_hulhe("solve --config " + config + " --checkpoint " + a, false);
  const HulheRun one = mpirun(1, "solve --config " + config + " --checkpoint " + b, false);
  ASSERT_EQ(plain.status, 0) << plain.out;
  ASSERT_EQ(one.status, 0) << one.out;
  const std::string bytes = slurp(a);
  EXPECT_GT(bytes.size(), 10000u);
  EXPECT_EQ(slurp(b), bytes);
  const auto tail = [](const std::string& out) {
    const std::size_t from = out.find("game value");
    return out.substr(from, out.find("checkpoint:") - from);
  };
  EXPECT_EQ(tail(one.out), tail(plain.out));
}

// The single-process bound of MccfrAtScaleSlow.DealtPublicChanceSamplingSolvesTheToyGame:
// 20,000 iterations of public chance sampling on the toy hold'em (8 cards, 2 rounds) below
// 0.05 chips and below 2% of uniform play's 2.637 (one process: 0.022). The interval is wall
// time, so its staleness in iterations grows with the machine's speed; averaging the ranks'
// regrets (distributed/distributed_solve.h) keeps long periods harmless: every 0.02 s gave
// 0.023-0.026 on 2 and 3 ranks where summing the ranks' changes had given 0.037-0.059, and
// every 0.001 s (a sync per few iterations) only made the run slower.
TEST(DistributedSolveSlow, ToyHoldemPcsReachesTheOneProcessBound) {
  const hulhe::testing::TempFolder dir;
  const std::string config = dir / "toy.toml";
  std::ofstream(config) << "game = \"" << kGames
                        << "holdem.limit.2p.8card.2rounds.game\"\nabstraction = \"lossless\"\n"
                           "algorithm = \"pcs\"\niterations = 20000\nthreads = 1\nseed = 5\n"
                           "sync_every_seconds = 0.01\nprogress_every_seconds = 100\n";
  for (int ranks : {2, 3}) {
    const HulheRun r = mpirun(ranks, "solve --config " + config + " --checkpoint " +
                                         std::string(dir / ("toy" + std::to_string(ranks))));
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_LT(exploitability_of(r), 0.05) << r.out;
    EXPECT_LT(exploitability_of(r), 0.02 * 2.637400794) << r.out;
  }
}

// The time budget ends every rank after one sync, without being taken for a signal.
TEST(DistributedSolve, TimeBudgetEndsEveryRank) {
  const hulhe::testing::TempFolder dir;
  const std::string config = leduc_config(dir, "pcs", 1000000000);
  const HulheRun r = mpirun(3, "solve --config " + config + " --seconds 1 --checkpoint " +
                                   std::string(dir / "budget.ckpt"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("solved leduc with pcs: iterations 1.."), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("stopped by signal"), std::string::npos) << r.out;
}

TEST(DistributedSolve, RefusesFullTraversalAlgorithms) {
  const hulhe::testing::TempFolder dir;
  const HulheRun r = mpirun(2, "solve --config " + leduc_config(dir, "cfr+", 100) +
                                   " --checkpoint " + std::string(dir / "x.ckpt"));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("external or pcs"), std::string::npos) << r.out;
}

// Starts `command` in the background; its pid (the mpirun process).
pid_t start(const std::string& command, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + command + " >" + log + " 2>&1").c_str(), nullptr);
    _exit(127);
  }
  return pid;
}

// The hulhe processes mpirun started (its children), once there are `count`.
std::vector<pid_t> ranks_of(pid_t mpirun_pid, int count) {
  for (int tries = 0; tries < 300; ++tries) {
    const HulheRun r = run_shell("pgrep -P " + std::to_string(mpirun_pid));
    std::vector<pid_t> pids;
    std::size_t at = 0;
    while (at < r.out.size()) {
      const std::size_t end = r.out.find('\n', at);
      pids.push_back(std::stoi(r.out.substr(at, end - at)));
      at = end == std::string::npos ? r.out.size() : end + 1;
    }
    if (static_cast<int>(pids.size()) >= count) return pids;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return {};
}

// Waits at most `seconds` for `pid`; its exit status, or -1 if it did not end in time.
int wait_for(pid_t pid, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(DistributedSolve, SigtermToOneRankEndsEveryRankWithOneCheckpoint) {
  const hulhe::testing::TempFolder dir;
  const std::string config = leduc_config(dir, "external", 1000000000);
  const std::string ckpt = dir / "leduc.ckpt", log = dir / "log";
  const pid_t job = start(mpirun_command(2, "solve --config " + config +
                                                " --seconds 60 "
                                                "--checkpoint " +
                                                ckpt),
                          log);
  const std::vector<pid_t> ranks = ranks_of(job, 2);
  ASSERT_EQ(ranks.size(), 2u);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  kill(ranks[1], SIGTERM);  // as a scheduler's preemption reaches one node first
  EXPECT_EQ(wait_for(job, 30), 0) << read_all(log);
  const std::string out = read_all(log);
  EXPECT_NE(out.find("stopped by signal; checkpoint written"), std::string::npos) << out;
  ASSERT_TRUE(std::filesystem::exists(ckpt));
  const HulheRun resumed =
      run_hulhe("solve --config " + config + " --seconds 0.5 --resume --checkpoint " + ckpt);
  EXPECT_EQ(resumed.status, 0) << resumed.out;
}

TEST(DistributedSolve, KilledRankFailsTheJobAndLeavesAResumableCheckpoint) {
  const hulhe::testing::TempFolder dir;
  std::string config = leduc_config(dir, "external", 1000000000);
  std::ofstream(config, std::ios::app) << "checkpoint_every_seconds = 0.5\n";
  const std::string ckpt = dir / "leduc.ckpt", log = dir / "log";
  const pid_t job = start(
      mpirun_command(3, "solve --config " + config + " --seconds 60 --checkpoint " + ckpt), log);
  const std::vector<pid_t> ranks = ranks_of(job, 3);
  ASSERT_EQ(ranks.size(), 3u);
  for (int i = 0; i < 100 && !std::filesystem::exists(ckpt); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(std::filesystem::exists(ckpt)) << read_all(log);
  kill(ranks[2], SIGKILL);
  const int status = wait_for(job, 60);
  const std::string out = read_all(log);
  EXPECT_NE(status, -1) << "the job hung\n" << out;
  EXPECT_NE(status, 0) << out;
  const HulheRun resumed =
      run_hulhe("solve --config " + config + " --seconds 0.5 --resume --checkpoint " + ckpt);
  EXPECT_EQ(resumed.status, 0) << resumed.out;
  EXPECT_NE(resumed.out.find("resuming"), std::string::npos) << resumed.out;
}

// The MPI rank of a process mpirun started (its environment), or -1.
int mpi_rank_of(pid_t pid) {
  const std::string env = read_all("/proc/" + std::to_string(pid) + "/environ");
  const std::string key = std::string("OMPI_COMM_WORLD_RANK=");
  std::size_t at = 0;
  while (at < env.size()) {
    const std::size_t end = std::min(env.find('\0', at), env.size());
    if (env.compare(at, key.size(), key) == 0) return std::stoi(env.substr(at + key.size()));
    at = end + 1;
  }
  return -1;
}

// Units recorded in a best-response resume file (resume_log.h: a 32-byte header whose last
// u64 is the doubles per unit; each record is 16 bytes and the doubles), or -1 before the
// header is complete.
std::int64_t records_in(const std::string& journal) {
  std::ifstream in(journal, std::ios::binary);
  char header[32];
  if (!in.read(header, sizeof header)) return -1;
  std::uint64_t payload = 0;
  std::memcpy(&payload, header + 24, sizeof payload);
  std::error_code ec;
  const auto size = static_cast<std::int64_t>(std::filesystem::file_size(journal, ec));
  if (ec) return -1;
  return (size - 32) / static_cast<std::int64_t>(16 + 8 * payload);
}

// A rank that hangs (SIGSTOP: it neither answers nor dies, as a lost node) must not hold a
// best response: rank 0 gives up on it after --unit-timeout with a clear error (while it
// holds units, or at the end if it was stopped before asking for any), the resume file keeps
// every unit recorded, and the same command on another process count computes exactly the
// missing units and finishes the job with the single-process result to the last bit. A
// 16-card 4-round hold'em (flop of 3 cards) against always-call, every flop its own unit: 560
// exact units of a few ms here (~5 s of one loaded core).
//
// The stop comes as soon as rank 0 has recorded a unit. On a fast machine the whole run can
// still end before it: if the resume file already held every unit when rank 2 was stopped,
// the rank may have been past the finishing barrier, in MPI_Finalize, which has no deadline
// (CI saw that). Such a try proves nothing either way: rank 2 goes on, the job ends, and the
// test tries again. A stop that found units missing must end the job within the deadline.
TEST(DistributedBestResponseHang, HungRankFailsTheJobAndTheResumeFileFinishesIt) {
  const hulhe::testing::TempFolder dir;
  const std::string game = dir / "16card.game";
  std::ofstream(game) << "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 4\nblind = 10 5\n"
                         "raiseSize = 10 10 20 20\nfirstPlayer = 2 1 1 1\nmaxRaises = 1 1 1 1\n"
                         "numSuits = 4\nnumRanks = 4\nnumHoleCards = 2\n"
                         "numBoardCards = 0 3 1 1\nEND GAMEDEF\n";
  const std::string args =
      "exploit --game " + game + " --policy always-call --all-flops --quiet --json";
  const HulheRun one = run_hulhe(args + " --threads 2", false);
  ASSERT_EQ(one.status, 0) << one.out;
  const std::int64_t units = numbers(one)["units_total"].get<std::int64_t>();
  const std::string journal = dir / "br.brr", log = dir / "log";
  const std::string resumable = args + " --resume-file " + journal;
  bool stopped_mid_run = false;
  for (int attempt = 0; attempt < 5 && !stopped_mid_run; ++attempt) {
    std::filesystem::remove(journal);
    const pid_t job = start(mpirun_command(3, resumable + " --unit-timeout 2"), log);
    const std::vector<pid_t> ranks = ranks_of(job, 3);
    ASSERT_EQ(ranks.size(), 3u);
    pid_t hung = -1;
    for (pid_t p : ranks)
      if (mpi_rank_of(p) == 2) hung = p;
    ASSERT_NE(hung, -1);
    // Rank 0 creates the resume file once every rank has joined and loaded the strategy, and
    // records units as they come back; under the whole suite's load that can take long.
    for (int i = 0; i < 120000 && records_in(journal) < 1; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (records_in(journal) < 1) {
      wait_for(job, 0);  // ends mpirun and so its ranks
      FAIL() << "no unit recorded after 120 s\n" << read_all(log);
    }
    kill(hung, SIGSTOP);
    const auto stopped = std::chrono::steady_clock::now();
    // Read after the stop: while a unit is missing rank 0 has not reached the finishing
    // barrier, so rank 2 cannot have passed it.
    if (records_in(journal) == units) {
      kill(hung, SIGCONT);
      EXPECT_NE(wait_for(job, 120), -1) << "the job hung after SIGCONT\n" << read_all(log);
      continue;
    }
    stopped_mid_run = true;
    // Rank 0 gives up after --unit-timeout 2 wherever rank 2 stopped (holding units, between
    // them, or before the finishing barrier); the wait only detects a hang, so it is generous
    // for a loaded machine.
    const int status = wait_for(job, 120);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped).count();
    kill(hung, SIGKILL);  // ours; if mpirun already ended it, the pid is gone or a zombie
    const std::string out = read_all(log);
    EXPECT_NE(status, -1) << "the job hung\n" << out;
    EXPECT_NE(status, 0) << out;
    EXPECT_GE(took, 1.9) << out;  // the deadline, not something else, ended it
    EXPECT_NE(out.find("hulhe: error: rank 0 of 3: best response: "), std::string::npos) << out;
    EXPECT_NE(out.find("within 2 s"), std::string::npos) << out;
  }
  ASSERT_TRUE(stopped_mid_run) << "every run ended before rank 2 could be stopped";
  // The same command on 2 ranks resumes: exactly the units the file lacks are computed.
  const std::int64_t recorded = records_in(journal);
  const HulheRun rest = mpirun(2, resumable, false);
  ASSERT_EQ(rest.status, 0) << rest.out;
  const nlohmann::json done = nlohmann::json::parse(rest.out);
  EXPECT_EQ(done["units_computed"].get<std::int64_t>(), units - recorded);
  nlohmann::json expected = numbers(one), got = numbers(rest);
  EXPECT_GT(expected["exploitability_chips"].get<double>(), 0.1);
  for (nlohmann::json* j : {&expected, &got}) j->erase("units_computed");
  EXPECT_EQ(got.dump(), expected.dump());
}

}  // namespace
