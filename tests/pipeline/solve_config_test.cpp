// SolveConfig: the reader (regular files, TOML syntax errors with file:line:column) and the
// one validate() that range-checks every value, from the file and after overrides.
#include "pipeline/solve_config.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>

#include "tests/support/temp_folder.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

TEST(SolveConfigValidation, ShippedConfigsPass) {
  for (const char* name : {"kuhn", "leduc"}) {
    const std::string path = std::string(HULHE_SOURCE_DIR) + "/configs/" + name + ".toml";
    EXPECT_NO_THROW(SolveConfig::from_file(path).validate(path)) << name;
  }
}

TEST(SolveConfigValidation, RefusesEachOutOfRangeValueNamingTheKey) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::pair<const char*, std::function<void(SolveConfig&)>> cases[] = {
      {"'iterations'", [](SolveConfig& c) { c.iterations = -1; }},
      {"'iterations'", [](SolveConfig& c) { c.iterations = 0; }},
      {"'threads'", [](SolveConfig& c) { c.threads = 0; }},
      {"'threads'", [](SolveConfig& c) { c.threads = 100000; }},
      {"'seconds'", [](SolveConfig& c) { c.seconds = -1; }},
      {"'seconds'", [&](SolveConfig& c) { c.seconds = nan; }},
      {"'seconds'", [&](SolveConfig& c) { c.seconds = inf; }},
      {"'checkpoint_every_iterations'", [](SolveConfig& c) { c.checkpoint_every_iterations = -5; }},
      {"'checkpoint_every_seconds'", [&](SolveConfig& c) { c.checkpoint_every_seconds = nan; }},
      {"'progress_every_seconds'", [](SolveConfig& c) { c.progress_every_seconds = -2; }},
      {"'parameters.dcfr_alpha'", [&](SolveConfig& c) { c.params.dcfr_alpha = nan; }},
      {"'parameters.dcfr_alpha'", [](SolveConfig& c) { c.params.dcfr_alpha = -1.5; }},
      {"'parameters.dcfr_alpha'", [](SolveConfig& c) { c.params.dcfr_alpha = 1e300; }},
      {"'parameters.dcfr_beta'", [&](SolveConfig& c) { c.params.dcfr_beta = nan; }},
      {"'parameters.dcfr_gamma'", [](SolveConfig& c) { c.params.dcfr_gamma = -2; }},
      {"'parameters.cfr_plus_delay'",
       [](SolveConfig& c) { c.params.cfr_plus_delay = std::numeric_limits<std::int64_t>::min(); }},
      {"'parameters.outcome_epsilon'", [](SolveConfig& c) { c.params.outcome_epsilon = 0; }},
      {"'parameters.outcome_epsilon'", [](SolveConfig& c) { c.params.outcome_epsilon = 1.5; }},
      {"'game'", [](SolveConfig& c) { c.game_path.clear(); }},
      {"'progress_every_seconds'", [](SolveConfig& c) { c.progress_every_seconds = 0; }},
      {"'parameters.discount_interval'", [](SolveConfig& c) { c.params.discount_interval = -1; }},
      {"'parameters.average_delay'", [](SolveConfig& c) { c.params.average_delay = -1; }},
      {"'parameters.prune_probability'", [&](SolveConfig& c) { c.params.prune_probability = nan; }},
      {"'parameters.prune_threshold'", [](SolveConfig& c) { c.params.prune_threshold = 1; }},
  };
  for (const auto& [key, spoil] : cases) {
    SolveConfig c;
    c.game_path = "games/kuhn.game";
    ASSERT_NO_THROW(c.validate("x.toml"));
    spoil(c);
    try {
      c.validate("x.toml");
      ADD_FAILURE() << key << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("x.toml: ", 0), 0U) << e.what();
    }
  }
}

// The message of the InputError that reading `text` as a config throws ("" if none).
std::string config_error(const std::string& text) {
  testing::TempFolder dir;
  const std::string path = dir / "c.toml";
  std::ofstream(path) << text;
  try {
    SolveConfig::from_file(path);
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find("c.toml"));
  }
  return "";
}

TEST(SolveConfigValidation, TheReaderValidatesAndNamesFileLineAndColumn) {
  const std::string game =
      "game = \"" + std::string(HULHE_SOURCE_DIR) + "/configs/games/kuhn.game\"\n";
  EXPECT_EQ(config_error(game + "seed = -1\n"), "c.toml: 'seed' = -1 must be a whole number >= 0");
  EXPECT_EQ(config_error(game + "seed = 0\n"), "");
  EXPECT_EQ(config_error(game + "iterations = 0\n"),
            "c.toml: 'iterations' = 0 is outside [1, 1125899906842624]");
  EXPECT_EQ(config_error(game + "[parameters]\ndcfr_alpha = nan\n"),
            "c.toml: 'parameters.dcfr_alpha' = nan must be a finite number in [0, 10]");
  const std::string syntax = config_error(game + "iterations = = 3\n");
  EXPECT_EQ(syntax.rfind("c.toml:2:", 0), 0U) << syntax;
  EXPECT_NE(syntax.find("not valid TOML"), std::string::npos) << syntax;
}

TEST(SolveConfigValidation, DirectoriesAndDevicesAreRefusedByName) {
  testing::TempFolder dir;
  for (const std::string& path :
       {dir.path(), std::string("/dev/null"), std::string("/dev/urandom")}) {
    try {
      SolveConfig::from_file(path);
      ADD_FAILURE() << path << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("config '" + path + "'"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace hulhe
