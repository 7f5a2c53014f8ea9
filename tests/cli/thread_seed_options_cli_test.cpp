// Every subcommand's --threads and --seed, walked with bad values (issue 20): each must be
// refused at parse time with exit status 2 and a message naming the option. Before, `match
// --threads 100000` died of SIGSEGV inside libgomp, 1025 or 5000 threads ended in "libgomp:
// Thread creation failed" (exit 1), and `--seed -1` was taken as 2^64-1 by compare,
// exploit, match and play. The command list is checked against `hulhe --help`, so a new
// command with --threads or --seed that is missing here fails the test.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"

namespace {

using namespace hulhe::cli_test;

const std::string kSource = HULHE_SOURCE_DIR;
const std::string kGames = kSource + "/configs/games/";

// `hulhe ARGS` bounded to 20 s (an accepted bad value must not hang the test), stdin closed.
HulheRun run_bounded(const std::string& args) {
  return run_shell("timeout 20 " + std::string(HULHE_BINARY) + " " + args + " </dev/null 2>&1");
}

// Each command with a placeholder {} for the option's value; everything else is valid.
const std::map<std::string, std::string> kThreadsCommands = {
    {"equity", "equity AK QQ --monte-carlo --seconds 0.1 --threads {}"},
    {"abstract", "abstract --config " + kSource + "/configs/hulhe-quick.toml --threads {}"},
    {"solve", "solve --config " + kSource + "/configs/kuhn.toml --iterations 10 --threads {}"},
    {"exploit", "exploit --game " + kGames + "kuhn.game --policy uniform --threads {}"},
    // Only bad values are walked: the option is refused before the output or the game
    // (--compact over a lossless game is an error of its own) matters.
    {"export", "export --baseline uniform --game " + kGames +
                   "kuhn.game --out /nonexistent/x.strategy --compact --threads {}"},
    {"run", "run --config " + kSource + "/configs/hulhe-quick.toml --threads {}"},
    {"compare", "compare --a bot:uniform --b bot:always-call --threads {}"},
    {"match", "match --a bot:uniform --b bot:always-call --game " + kGames +
                  "leduc.game --hands 50 --threads {}"},
    {"tournament", "tournament --agents bot:uniform bot:always-call --game " + kGames +
                       "leduc.game --hands 50 --threads {}"},
    {"lbr", "lbr --game " + kGames + "kuhn.game --policy uniform --hands 10 --threads {}"},
};
const std::map<std::string, std::string> kSeedCommands = {
    {"equity", "equity AK QQ --monte-carlo --seconds 0.1 --seed {}"},
    {"abstract", "abstract --config " + kSource + "/configs/hulhe-quick.toml --seed {}"},
    {"solve", "solve --config " + kSource + "/configs/kuhn.toml --iterations 10 --seed {}"},
    {"exploit", "exploit --game " + kGames + "kuhn.game --policy uniform --seed {}"},
    {"compare", "compare --a bot:uniform --b bot:always-call --seed {}"},
    {"match", "match --a bot:uniform --b bot:always-call --game " + kGames +
                  "leduc.game --hands 50 --seed {}"},
    {"tournament", "tournament --agents bot:uniform bot:always-call --game " + kGames +
                       "leduc.game --hands 50 --seed {}"},
    {"lbr", "lbr --game " + kGames + "kuhn.game --policy uniform --hands 10 --seed {}"},
    {"play", "play --bot uniform --port 1 --connect-timeout-ms 100 --seed {}"},
    {"dealer", "dealer --game " + kGames + "kuhn.game --hands 1 --timeout-ms 100 --seed {}"},
    {"serve", "serve --bot uniform --port 0 --db /nonexistent/x.sqlite --seed {}"},
};

std::string with(std::string command, const std::string& value) {
  command.replace(command.find("{}"), 2, value);
  return command;
}

// The subcommands `hulhe --help` lists, and which of them take `option`.
std::set<std::string> commands_taking(const std::string& option) {
  const std::string help = run_shell(std::string(HULHE_BINARY) + " --help 2>&1").out;
  std::set<std::string> out;
  const std::size_t list = help.find("Subcommands:");
  EXPECT_NE(list, std::string::npos) << help;
  std::istringstream in(help.substr(list == std::string::npos ? help.size() : list));
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string name;
    if (!(words >> name) || name == "Subcommands:") continue;
    const std::string sub = run_shell(std::string(HULHE_BINARY) + " " + name + " --help 2>&1").out;
    if (sub.find(option + " ") != std::string::npos) out.insert(name);
  }
  return out;
}

TEST(ThreadSeedOptionsCli, EveryCommandWithTheOptionsIsWalked) {
  std::set<std::string> threads, seeds;
  for (const auto& [name, command] : kThreadsCommands) threads.insert(name);
  for (const auto& [name, command] : kSeedCommands) seeds.insert(name);
  EXPECT_EQ(commands_taking("--threads"), threads);
  EXPECT_EQ(commands_taking("--seed"), seeds);
}

void expect_refused(const std::string& args, const std::string& option) {
  const HulheRun r = run_bounded(args);
  EXPECT_EQ(r.status, 2) << "hulhe " << args << "\n" << r.out;
  EXPECT_NE(r.out.find(option), std::string::npos) << "hulhe " << args << "\n" << r.out;
  EXPECT_NE(r.out.find(option.substr(2) + " must be a whole number"), std::string::npos)
      << "hulhe " << args << "\n"
      << r.out;
  EXPECT_EQ(r.out.find("internal error"), std::string::npos) << r.out;
}

TEST(ThreadSeedOptionsCli, OutOfRangeThreadsAreRefusedByEveryCommand) {
  for (const auto& [name, command] : kThreadsCommands)
    for (const char* bad :
         {"-1", "0", "1025", "5000", "100000", "18446744073709551616", "1e3", "''", "1.5", "x"})
      expect_refused(with(command, bad), "--threads");
}

TEST(ThreadSeedOptionsCli, OutOfRangeSeedsAreRefusedByEveryCommand) {
  for (const auto& [name, command] : kSeedCommands)
    for (const char* bad : {"-1", "18446744073709551616", "1e3", "''", "0x10", "1.5", "-0", "x"})
      expect_refused(with(command, bad), "--seed");
  // The ACPC dealer's generator is seeded with 32 bits.
  expect_refused(with(kSeedCommands.at("dealer"), "4294967296"), "--seed");
}

// The issue's reproducers, exactly.
TEST(ThreadSeedOptionsCli, IssueReproducers) {
  const std::string match =
      "match --a bot:uniform --b bot:always-call --game " + kGames + "leduc.game --hands 50 ";
  for (const char* threads : {"100000", "1025", "5000"})
    expect_refused(match + "--threads " + threads, "--threads");
  expect_refused(match + "--seed -1", "--seed");
  expect_refused("compare --a bot:uniform --b bot:always-call --seed -1", "--seed");
  expect_refused("exploit --game " + kGames + "kuhn.game --policy uniform --seed -1", "--seed");
  expect_refused("play --bot uniform --port 1 --seed -1", "--seed");
  // Valid values still work, leading zeros read as decimal (CLI11 alone reads 010 as 8).
  const HulheRun ok = run_bounded(match + "--threads 2 --seed 010 --json --quiet");
  EXPECT_EQ(ok.status, 0) << ok.out;
  expect_output_has(ok, {"\"seed\":10", "\"threads\":2"});
}

// A thread count in range that the process cannot start (here: an address-space limit
// that 1,024 stacks of 8 MiB exceed) is exit status 2 with the reason, not libgomp's
// "Thread creation failed" and exit 1. RLIMIT_NPROC would not do: root ignores it.
TEST(ThreadSeedOptionsCli, ThreadsThatCannotStartAreRefused) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space; ulimit -v kills it";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space; ulimit -v kills it";
#endif
#endif
  const std::string limit =
      "ulimit -s 8192 && ulimit -v 2000000 && exec timeout 20 " + std::string(HULHE_BINARY) + " ";
  const HulheRun r =
      run_shell("/bin/sh -c '" + limit +
                "equity AA KK --monte-carlo --seconds 0.1 --threads 1024' </dev/null 2>&1");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("cannot start 1024 threads"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("libgomp"), std::string::npos) << r.out;
  // The same limit leaves room for a few threads.
  const HulheRun few = run_shell("/bin/sh -c '" + limit +
                                 "equity AA KK --monte-carlo --seconds 0.1 --threads 4' "
                                 "</dev/null 2>&1");
  EXPECT_EQ(few.status, 0) << few.out;
  // A thread count from a config file is probed too (solve reads `threads` from it).
  const hulhe::testing::TempFolder dir;
  const std::string config = dir / "threads_1000.toml";
  std::ofstream(config) << "game = \"" << kGames << "kuhn.game\"\nabstraction = \"lossless\"\n"
                        << "algorithm = \"cfr+\"\niterations = 10\nthreads = 1000\n";
  const HulheRun solve =
      run_shell("/bin/sh -c '" + limit + "solve --config " + config + "' </dev/null 2>&1");
  EXPECT_EQ(solve.status, 2) << solve.out;
  EXPECT_NE(solve.out.find("cannot start 1000 threads"), std::string::npos) << solve.out;
}

}  // namespace
