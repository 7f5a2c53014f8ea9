// Sizes that would start a hopeless build are refused when the config is read.
#include <gtest/gtest.h>

#include <string>

#include "abstraction/abstraction_config.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

std::string config(const std::string& flop_buckets, const std::string& extra = "") {
  return "game = \"g.game\"\n" + extra +
         "[preflop]\nmethod = \"lossless\"\n[flop]\nmethod = \"ehs\"\nbuckets = " + flop_buckets +
         "\n[turn]\nmethod = \"ehs\"\nbuckets = 10\n[river]\nmethod = \"ehs\"\nbuckets = 10\n";
}

std::string error_of(const std::string& text) {
  try {
    AbstractionConfig::from_string(text, "c.toml", ".");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(AbstractionConfigLimits, BucketCountsAreBoundedByTheCanonicalHands) {
  EXPECT_EQ(error_of(config("1286792")), "");  // every flop hand its own bucket
  for (const char* n : {"1286793", "1073741824", "-1", "0"}) {
    const std::string e = error_of(config(n));
    EXPECT_NE(e.find("flop.buckets"), std::string::npos) << n << ": " << e;
  }
  std::string preflop = config("10");
  const std::string lossless = "[preflop]\nmethod = \"lossless\"";
  preflop.replace(preflop.find(lossless), lossless.size(),
                  "[preflop]\nmethod = \"ehs\"\nbuckets = 170");  // 169 canonical hands
  EXPECT_NE(error_of(preflop).find("preflop.buckets"), std::string::npos) << error_of(preflop);
}

TEST(AbstractionConfigLimits, ThreadsAndSyntaxErrors) {
  EXPECT_EQ(error_of(config("10", "threads = 1024\n")), "");
  EXPECT_NE(error_of(config("10", "threads = 100000\n")).find("threads"), std::string::npos);
  const std::string e = error_of(config("10", "seed = = 1\n"));
  EXPECT_EQ(e.rfind("c.toml:2:", 0), 0U) << e;  // file:line:column
}

}  // namespace
}  // namespace hulhe
