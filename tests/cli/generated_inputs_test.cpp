// A few hundred generated variants of each input kind, run through the command that reads
// it, as a hostile tester would: truncations, bit flips, huge numbers, NaN, negative and
// empty values, bodies edited with their checksum recomputed, directories and special files.
// Every run must end with exit status 0 (the variant happened to be valid) or 2 (refused
// with a message) -- never a signal, a hang (20 s), or 1 -- and no file that existed before
// a run may change unless it is the run's own output. The counts per kind are printed.
// Slow (thousands of runs): not run under the sanitizers, whose fuzzers cover the parsers.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "abstraction/bucket_map.h"
#include "acpc/line_socket.h"
#include "game/game_definition.h"
#include "tests/cli/run_hulhe.h"
#include "tests/support/temp_folder.h"
#include "util/checksums.h"

namespace hulhe {
namespace {

namespace fs = std::filesystem;
using cli_test::run_hulhe;

const std::string kSource = HULHE_SOURCE_DIR;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}
void put(std::string& out, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
// `hulhe ARGS` with stdin closed and a 20-second limit (status 124 for a hang); `prefix`
// runs first in the same shell (a file-size limit).
cli_test::HulheRun run_bounded(const std::string& args, const std::string& prefix = "") {
  const std::string command =
      prefix + "timeout 20 " + std::string(HULHE_BINARY) + " " + args + " </dev/null 2>&1";
  cli_test::HulheRun r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Byte-level variants of `good`: every kind of truncation, bit flips, 8-byte fields set to
// huge values, and (via `fix`) the same body edits with the checksum made right again.
std::vector<std::string> binary_variants(const std::string& good, std::size_t header,
                                         const std::function<void(std::string&)>& fix, int count,
                                         std::mt19937_64& rng) {
  std::vector<std::string> v = {"", std::string(1, good[0]), good.substr(0, header), good + "x",
                                good + good};
  while (static_cast<int>(v.size()) < count) {
    std::string s = good;
    const std::size_t at = rng() % s.size();
    switch (rng() % 5) {
      case 0:
        s.resize(at);
        break;
      case 1:
        s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
        break;
      case 2:
        if (at + 8 <= s.size()) put(s, at, rng() % 2 ? ~0ULL : 1ULL << (40 + rng() % 23), 8);
        break;
      case 3:
        s.insert(at, std::string(1 + rng() % 16, static_cast<char>(rng())));
        break;
      case 4:
        s.erase(at, 1 + rng() % 16);
        break;
    }
    if (rng() % 2 && s.size() >= header) fix(s);  // reach the body's reader
    v.push_back(std::move(s));
  }
  return v;
}

// Text variants: lines dropped or duplicated, values replaced by hostile ones, cut short.
std::vector<std::string> text_variants(const std::string& good, int count, std::mt19937_64& rng) {
  static const char* values[] = {"-1",
                                 "0",
                                 "nan",
                                 "inf",
                                 "-inf",
                                 "1e400",
                                 "99999999999999999999",
                                 "-9223372036854775808",
                                 "",
                                 "\"\"",
                                 "x",
                                 "1.5",
                                 "0x10",
                                 "[]",
                                 "{}",
                                 "\"/dev/urandom\"",
                                 "\"/\"",
                                 "2147483648",
                                 "255",
                                 "1 2 3"};
  std::vector<std::string> lines;
  std::istringstream in(good);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::vector<std::string> v = {"", "\n", std::string("\xff\xfe\x00\x01", 4), good + "\x01"};
  while (static_cast<int>(v.size()) < count) {
    std::vector<std::string> l = lines;
    const std::size_t at = rng() % l.size();
    switch (rng() % 4) {
      case 0:
        l.erase(l.begin() + static_cast<long>(at));
        break;
      case 1:
        l.insert(l.begin() + static_cast<long>(at), l[at]);
        break;
      case 2: {
        const std::size_t eq = l[at].find('=');
        const std::string value = values[rng() % std::size(values)];
        l[at] =
            eq == std::string::npos ? l[at] + " " + value : l[at].substr(0, eq + 1) + " " + value;
        break;
      }
      case 3:
        l[at] = l[at].substr(0, rng() % (l[at].size() + 1));
        break;
    }
    std::string s;
    for (const std::string& x : l) s += x + "\n";
    v.push_back(s);
  }
  return v;
}

class RobustnessGeneratedSlow : public ::testing::Test {
 protected:
  // Runs `args` (with {} replaced by `file`), checks the status and that no other file in the
  // folder changed. `allowed`: the statuses this kind may end with.
  void run(const std::string& kind, const std::string& args_template, const std::string& file,
           std::vector<int> allowed = {0, 2}, const std::string& output = "",
           const std::string& prefix = "") {
    std::map<std::string, std::string> before;
    for (const auto& e : fs::directory_iterator(dir_.path()))
      if (e.is_regular_file() && e.path().string() != output)
        before[e.path().string()] = read_bytes(e.path().string());
    std::string args = args_template;
    for (std::size_t at; (at = args.find("{}")) != std::string::npos;) args.replace(at, 2, file);
    const auto r = run_bounded(args, prefix);
    ++cases_[kind];
    const bool ok = std::find(allowed.begin(), allowed.end(), r.status) != allowed.end();
    if (!ok && failures_ < 20) {
      ++failures_;
      ADD_FAILURE() << kind << ": status " << r.status << " for hulhe " << args << "\n"
                    << r.out.substr(0, 400);
    }
    if (r.status == 2 && r.out.find("internal error") != std::string::npos && failures_ < 20) {
      ++failures_;
      ADD_FAILURE() << kind << ": internal error for " << args;
    }
    for (const auto& [path, bytes] : before)
      if (read_bytes(path) != bytes) ADD_FAILURE() << kind << ": " << path << " changed";
  }
  // Each variant written to `name` and read by `args`.
  void run_all(const std::string& kind, const std::vector<std::string>& variants,
               const std::string& name, const std::string& args, std::vector<int> allowed = {0, 2},
               const std::string& output = "") {
    const std::string file = dir_ / name;
    for (const std::string& v : variants) {
      write_bytes(file, v);
      run(kind, args, file, allowed, output);
    }
    fs::remove(file);
    // Not regular files: a directory, devices, a fifo.
    const std::string fifo = dir_ / "fifo";
    if (!fs::exists(fifo)) ::mkfifo(fifo.c_str(), 0600);
    for (const std::string& special : {dir_.path(), std::string("/dev/null"),
                                       std::string("/dev/zero"), std::string("/dev/urandom"), fifo})
      run(kind, args, special, {2}, output);
  }

  // Runs `command`, which must exit 0 having written `path`, and takes that file: its bytes into
  // `bytes`, the file removed (its variants then run without it).
  void take_output(const std::string& command, const std::string& path, std::string& bytes) {
    ASSERT_EQ(run_hulhe(command).status, 0) << command;
    bytes = read_bytes(path);
    fs::remove(path);
  }

  testing::TempFolder dir_;
  std::map<std::string, int> cases_;
  int failures_ = 0;
  std::mt19937_64 rng_{20240611};
};

TEST_F(RobustnessGeneratedSlow, EveryVariantOfEveryInputEndsInStatus0Or2) {
  constexpr int kVariants = 200;
  const std::string games = kSource + "/configs/games/";
  // .game files
  run_all(".game", text_variants(read_bytes(games + "leduc.game"), kVariants, rng_), "g.game",
          "info --game {}");
  // solve configs (TOML): a bounded run, its checkpoint the only output
  const std::string out_ckpt = dir_ / "out.ckpt";
  std::string config = read_bytes(kSource + "/configs/kuhn.toml");
  config.replace(config.find("games/kuhn.game"), 15, games + "kuhn.game");
  run_all("solve config", text_variants(config, kVariants, rng_), "c.toml",
          "solve --config {} --iterations 20 --seconds 5 --checkpoint " + out_ckpt + " --overwrite",
          {0, 2}, out_ckpt);
  // checkpoints (FNV-1a checksum at byte 36 over the body from byte 44)
  write_bytes(dir_ / "k.toml", config);
  std::string ckpt;
  ASSERT_NO_FATAL_FAILURE(take_output(
      "solve --config " + (dir_ / "k.toml") + " --iterations 50 --checkpoint " + (dir_ / "k.ckpt"),
      dir_ / "k.ckpt", ckpt));
  auto fix_ckpt = [](std::string& s) {
    const std::uint64_t h = fnv1a(std::string_view(s).substr(44));
    put(s, 28, s.size() - 44, 8);
    put(s, 36, h, 8);
  };
  run_all("checkpoint", binary_variants(ckpt, 44, fix_ckpt, kVariants, rng_), "v.ckpt",
          "exploit --checkpoint {}");
  // strategy files (checksum64 at byte 36 over the body from byte 56)
  std::string strategy;
  ASSERT_NO_FATAL_FAILURE(take_output(
      "export --baseline uniform --game " + games + "leduc.game --out " + (dir_ / "s.strategy"),
      dir_ / "s.strategy", strategy));
  auto fix_strategy = [](std::string& s) {
    if (s.size() < 56) return;
    put(s, 28, s.size() - 56, 8);
    put(s, 36, checksum64(s.data() + 56, s.size() - 56), 8);
  };
  run_all("strategy file", binary_variants(strategy, 56, fix_strategy, kVariants, rng_),
          "v.strategy", "exploit --strategy {}");
  // bucket maps (a small two-round map; HULHE needs four full rounds, so all are refused)
  BucketMap map;
  map.game_hash = GameDefinition::holdem_limit_2p().hash();
  map.source = "x";
  RoundBuckets r;
  r.method = "ehs";
  r.num_buckets = 3;
  r.set_buckets({0, 1, 2, 1, 0, 2, 2});
  r.centres.rows = 3;
  r.centres.cols = 1;
  r.centres.data = {0.1F, 0.5F, 0.9F};
  map.rounds = {r, r};
  map.save(dir_ / "m.buckets");
  const std::string buckets = read_bytes(dir_ / "m.buckets");
  fs::remove(dir_ / "m.buckets");
  const std::size_t map_header = 1 + 8 + 8 + 4 + 8 + 8 + 8;
  auto fix_map = [&](std::string& s) {
    put(s, map_header - 8, checksum64(s.data() + map_header, s.size() - map_header), 8);
  };
  const std::string out_strategy = dir_ / "o.strategy";
  run_all("bucket map", binary_variants(buckets, map_header, fix_map, kVariants, rng_), "v.buckets",
          "export --baseline uniform --bucket-map {} --out " + out_strategy, {2}, out_strategy);
  // dealer logs: 1 is the documented "report complete, found problems"
  std::string log;
  {
    std::istringstream in(read_bytes(kSource + "/tests/data/acpc-holdem.limit.2p.1000hands.log"));
    int n = 0;
    for (std::string l; std::getline(in, l) && n < 40; ++n) log += l + "\n";
  }
  run_all("dealer log", text_variants(log, kVariants, rng_), "v.log", "logs {}", {0, 1, 2});
  // option values
  static const char* values[] = {
      "-1", "0", "nan", "inf",  "-inf", "1e400", "99999999999999999999", "-9223372036854775808",
      "''", "x", "1.5", "0x10", "-0",   "1e3",   "2147483648",           "100000"};
  const std::vector<std::string> commands = {
      "equity AK QQ --monte-carlo --seconds 0.2 --threads {}",
      "equity AK QQ --monte-carlo --seconds {}",
      "equity AK QQ --monte-carlo --seconds 0.2 --stderr {}",
      "equity AK QQ --monte-carlo --seconds 0.2 --seed {}",
      "solve --config " + (dir_ / "k.toml") + " --checkpoint " + out_ckpt +
          " --overwrite --seconds 2 --iterations {}",
      "solve --config " + (dir_ / "k.toml") + " --checkpoint " + out_ckpt +
          " --overwrite --iterations 20 --seconds {}",
      "solve --config " + (dir_ / "k.toml") + " --checkpoint " + out_ckpt +
          " --overwrite --iterations 20 --threads {}",
      "solve --config " + (dir_ / "k.toml") + " --checkpoint " + out_ckpt +
          " --overwrite --iterations 20 --seed {}",
      "exploit --game " + games + "kuhn.game --policy uniform --threads {}",
      "match --a bot:uniform --b bot:always-call --game " + games + "kuhn.game --quiet --hands {}",
      "match --a bot:uniform --b bot:always-call --game " + games +
          "kuhn.game --quiet --hands 10 --seed {}",
      "lbr --game " + games + "kuhn.game --policy uniform --quiet --hands {}",
      "lbr --game " + games + "kuhn.game --policy uniform --quiet --hands 10 --seed {}",
      "lbr --game " + games + "kuhn.game --policy uniform --quiet --hands 10 --threads {}",
  };
  for (const std::string& c : commands)
    for (const char* v : values) {
      // "100000" and "1e3" hands or seconds are valid but long: cap them by value here.
      const std::string value = v;
      if ((c.find("--hands {}") != std::string::npos ||
           c.find("--seconds {}") != std::string::npos ||
           c.find("--iterations {}") != std::string::npos) &&
          (value == "100000" || value == "2147483648" || value == "1e3"))
        continue;
      run("option value", c, value, {0, 2}, out_ckpt);
    }
  // Thread counts and seeds out of range, for every command that takes them: refused at
  // parse time, status 2 only (`match --threads 100000` was SIGSEGV, 1025 libgomp's exit 1,
  // `--seed -1` 2^64-1 in four commands). tests/cli/thread_seed_options_cli_test.cpp
  // checks that this list covers every subcommand `hulhe --help` shows with the option.
  const std::string kuhn_game = games + "kuhn.game", leduc_game = games + "leduc.game";
  const std::string two_bots = "--a bot:uniform --b bot:always-call ";
  const std::vector<std::string> threads_commands = {
      "equity AK QQ --monte-carlo --seconds 0.2",
      "abstract --config " + kSource + "/configs/hulhe-quick.toml",
      "solve --config " + (dir_ / "k.toml") + " --checkpoint " + out_ckpt + " --overwrite",
      "exploit --game " + kuhn_game + " --policy uniform",
      "run --config " + kSource + "/configs/hulhe-quick.toml",
      "compare " + two_bots,
      "match " + two_bots + "--game " + leduc_game + " --hands 50 --quiet",
      "tournament --agents bot:uniform bot:always-call --game " + leduc_game +
          " --hands 50 --quiet",
      "lbr --game " + kuhn_game + " --policy uniform --quiet --hands 10"};
  for (const std::string& c : threads_commands)
    for (const char* v : {"-1", "0", "1025", "5000", "100000", "18446744073709551616", "1e3", "''"})
      run("threads, seeds", c + " --threads {}", v, {2}, out_ckpt);
  std::vector<std::string> seed_commands = threads_commands;
  seed_commands.erase(seed_commands.begin() + 4);  // run: the seed is the config's
  seed_commands.push_back("play --bot uniform --port 1 --connect-timeout-ms 100");
  seed_commands.push_back("dealer --game " + kuhn_game + " --hands 1 --timeout-ms 100");
  for (const std::string& c : seed_commands)
    for (const char* v : {"-1", "18446744073709551616", "1e3", "''", "0x10", "-0", "1.5"})
      run("threads, seeds", c + " --seed {}", v, {2}, out_ckpt);
  run("threads, seeds", seed_commands.back() + " --seed {}", "4294967296", {2}, out_ckpt);

  // Outputs: each writing command given a fifo, devices, a directory, hard and symbolic links
  // to one of its inputs and a missing folder as its output must refuse it (status 2) before
  // any work, never hang on the fifo, and change no file; then each given a file-size limit
  // (SIGXFSZ ignored: writes fail part way, like a full disk) must report the failed write.
  const std::string fifo = dir_ / "fifo";
  if (!fs::exists(fifo)) ::mkfifo(fifo.c_str(), 0600);
  write_bytes(dir_ / "o.game", read_bytes(games + "kuhn.game"));
  write_bytes(dir_ / "o.toml", "game = \"" + (dir_ / "o.game") + "\"\niterations = 20\n");
  ASSERT_EQ(run_hulhe("export --baseline uniform --game " + (dir_ / "o.game") + " --out " +
                      (dir_ / "o.strategy"))
                .status,
            0);
  ASSERT_EQ(run_hulhe("solve --config " + (dir_ / "o.toml") + " --checkpoint " + (dir_ / "o.ckpt"))
                .status,
            0);
  int closed_port = 0;
  {
    LoopbackListener listener(0);
    closed_port = listener.port();
  }
  const std::string kuhn = " --game " + (dir_ / "o.game");
  // Each writer and one of its inputs, which the hard and the symbolic link point to.
  const std::vector<std::pair<std::string, std::string>> writers = {
      {"match --a " + (dir_ / "o.strategy") + " --b bot:uniform" + kuhn +
           " --hands 20 --quiet --log {}",
       dir_ / "o.strategy"},
      {"dealer" + kuhn + " --hands 5 --timeout-ms 200 --log {}", dir_ / "o.game"},
      {"play --strategy " + (dir_ / "o.strategy") + " --port " + std::to_string(closed_port) +
           " --log {}",
       dir_ / "o.strategy"},
      {"exploit --game " + (dir_ / "o.game") + " --policy uniform --quiet --resume-file {}",
       dir_ / "o.game"},
      {"solve --config " + (dir_ / "o.toml") + " --overwrite --checkpoint {}", dir_ / "o.toml"},
      {"export --checkpoint " + (dir_ / "o.ckpt") + " --out {}", dir_ / "o.ckpt"}};
  for (const auto& [writer, input] : writers) {
    for (const char* link : {"hard.link", "soft.link"}) fs::remove(dir_ / link);
    ASSERT_EQ(::link(input.c_str(), (dir_ / "hard.link").c_str()), 0);
    ASSERT_EQ(::symlink(input.c_str(), (dir_ / "soft.link").c_str()), 0);
    for (const std::string& out :
         {fifo, std::string("/dev/full"), std::string("/dev/null"), dir_.path(), dir_ / "hard.link",
          dir_ / "soft.link", dir_ / "no/such/folder/out"})
      run("output path", writer, out, {2});
  }
  // The writers' outputs under a file-size limit of 8 blocks (4 or 8 KiB).
  const std::string full = "trap '' XFSZ; ulimit -f 8; ";
  run("failing write",
      "match --a bot:uniform --b bot:always-call" + kuhn + " --hands 20000 --quiet --log {}",
      dir_ / "big.log", {2}, "", full);
  run("failing write",
      "match --a bot:uniform --b bot:always-call" + kuhn + " --hands 20000 --quiet --log -", "",
      {2}, dir_ / "stdout.log", full + "exec >" + (dir_ / "stdout.log") + "; ");
  std::string leduc = read_bytes(kSource + "/configs/leduc.toml");
  leduc.replace(leduc.find("games/leduc.game"), 16, games + "leduc.game");
  write_bytes(dir_ / "l.toml", leduc);
  run("failing write", "solve --config " + (dir_ / "l.toml") + " --iterations 20 --checkpoint {}",
      dir_ / "big.ckpt", {2}, "", full);
  run("failing write",
      "export --baseline uniform --game " + games + "leduc.game --bits 16 --out {}",
      dir_ / "big.strategy", {2}, "", "trap '' XFSZ; ulimit -f 1; ");
  for (const char* f : {"big.log", "big.ckpt", "big.strategy"})
    if (fs::exists(dir_ / f)) ADD_FAILURE() << f << " was written despite the failed write";

  std::printf(
      "generated variants per input kind (each also as a directory, /dev/null, /dev/zero, "
      "/dev/urandom and a fifo):\n");
  int total = 0;
  for (const auto& [kind, n] : cases_) {
    std::printf("  %-14s %5d runs\n", kind.c_str(), n);
    total += n;
  }
  std::printf("  %-14s %5d runs\n", "total", total);
  EXPECT_GE(total, 1300);
}

}  // namespace
}  // namespace hulhe
