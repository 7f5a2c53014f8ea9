#include "solver/solve_config_validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "game/input_error.h"
#include "game/toml_input.h"

namespace hulhe {
namespace {

TEST(SolveConfigValidation, ShippedConfigsPass) {
  for (const char* name : {"kuhn", "leduc"}) {
    const std::string path = std::string(HULHE_SOURCE_DIR) + "/configs/" + name + ".toml";
    EXPECT_NO_THROW(validate(SolveConfig::from_file(path), path)) << name;
    EXPECT_NO_THROW(validate_solve_toml(parse_toml_file(path), path)) << name;
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
  };
  for (const auto& [key, spoil] : cases) {
    SolveConfig c;
    c.game_path = "games/kuhn.game";
    ASSERT_NO_THROW(validate(c, "x.toml"));
    spoil(c);
    try {
      validate(c, "x.toml");
      ADD_FAILURE() << key << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("x.toml: ", 0), 0U) << e.what();
    }
  }
}

TEST(SolveConfigValidation, NegativeSeedsInTheFileAreRefused) {
  EXPECT_THROW(validate_solve_toml(parse_toml("seed = -1\n", "x.toml"), "x.toml"), InputError);
  EXPECT_NO_THROW(validate_solve_toml(parse_toml("seed = 0\n", "x.toml"), "x.toml"));
}

}  // namespace
}  // namespace hulhe
