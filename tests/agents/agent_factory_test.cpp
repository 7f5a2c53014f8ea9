// The one agent grammar (agents/agent_factory.h): specs taken apart before any file is
// read, a strategy file playing its own game when none is given (`hulhe play`), and the
// same specs as policies (baselines and strategy files, kept alive by one pointer).
#include "agents/agent_factory.h"

#include <gtest/gtest.h>

#include "game/betting_tree.h"
#include "strategy_files/strategy_file.h"
#include "tests/support/shipped_games.h"
#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"

namespace hulhe {
namespace {

TEST(AgentSpec, TakesSpecsApart) {
  const AgentSpec file = AgentSpec::parse("run/a.strategy");
  EXPECT_FALSE(file.bot);
  EXPECT_EQ(file.path, "run/a.strategy");
  EXPECT_EQ(file.files(), std::vector<std::string>{"run/a.strategy"});
  const AgentSpec rules = AgentSpec::parse("bot:rules:configs/bots/rules-leduc.toml");
  EXPECT_TRUE(rules.bot);
  EXPECT_EQ(rules.name, "rules");
  EXPECT_EQ(rules.params, "configs/bots/rules-leduc.toml");
  EXPECT_EQ(rules.files(), std::vector<std::string>{"configs/bots/rules-leduc.toml"});
  const AgentSpec equity = AgentSpec::parse("bot:equity");
  EXPECT_EQ(equity.name, "equity");
  EXPECT_TRUE(equity.params.empty());
  EXPECT_TRUE(equity.files().empty());
}

class AgentFactory : public ::testing::Test {
 protected:
  // A Leduc strategy file (the uniform baseline, exported).
  std::string leduc_strategy() {
    const std::string path = folder_ / "leduc.strategy";
    const PolicySource uniform = load_baseline_policy("uniform", testing::shipped_game("leduc"));
    write_strategy_file(path, *uniform.policy, StrategyFileMetadata{});
    return path;
  }
  testing::TempFolder folder_;
};

TEST_F(AgentFactory, StrategyFilePlaysItsOwnGameWhenNoneIsGiven) {
  const std::string path = leduc_strategy();
  const AgentSource own = load_agent(path, std::optional<GameDefinition>());
  EXPECT_EQ(own.game.hash(), testing::shipped_game("leduc").hash());
  EXPECT_EQ(own.name, "leduc.strategy");
  EXPECT_EQ(own.files, std::vector<std::string>{path});
  EXPECT_EQ(own.make()->name(), "leduc.strategy");
  // Given a game, it must be that game.
  EXPECT_EQ(load_agent(path, std::optional(testing::shipped_game("leduc"))).game.hash(),
            testing::shipped_game("leduc").hash());
  const std::string wrong = testing::error_of([&] {
    load_agent(path, std::optional(testing::shipped_game("holdem.limit.2p.reverse_blinds")));
  });
  EXPECT_NE(wrong.find("is a strategy for"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("not for the game played ('holdem.limit.2p.reverse_blinds')"),
            std::string::npos)
      << wrong;
}

TEST_F(AgentFactory, BotsPlayTheGivenGameOrHoldem) {
  const AgentSource holdem = load_agent("bot:equity", std::optional<GameDefinition>());
  EXPECT_EQ(holdem.game.hash(), GameDefinition::holdem_limit_2p().hash());
  const std::string rules = std::string(HULHE_SOURCE_DIR) + "/configs/bots/rules-leduc.toml";
  const AgentSource leduc =
      load_agent("bot:rules:" + rules, std::optional(testing::shipped_game("leduc")));
  EXPECT_EQ(leduc.game.hash(), testing::shipped_game("leduc").hash());
  EXPECT_EQ(leduc.name, "rules:rules-leduc");
  EXPECT_EQ(leduc.make()->name(), "rules");
}

TEST_F(AgentFactory, PoliciesInTheSameGrammar) {
  const GameDefinition leduc = testing::shipped_game("leduc");
  const PolicySource bot = load_policy("bot:always-call", "", leduc);
  EXPECT_EQ(bot.description, "always-call in leduc");
  EXPECT_EQ(bot.policy->tree().game().hash(), leduc.hash());
  const std::string path = leduc_strategy();
  const PolicySource file = load_policy(path, "", GameDefinition::holdem_limit_2p());
  EXPECT_EQ(file.description, path);
  EXPECT_EQ(file.policy->tree().game().hash(), leduc.hash());
  // The policy outlives everything else: it owns its tree and abstraction.
  std::shared_ptr<const Policy> kept = load_baseline_policy("uniform", leduc).policy;
  std::vector<double> p(kept->tree().node(kept->tree().root()).num_actions);
  kept->action_probabilities(0, 0, 0, p);
  for (double x : p) EXPECT_DOUBLE_EQ(x, 1.0 / static_cast<double>(p.size()));
  // The bots that decide at play time are no policies.
  const std::string equity = testing::error_of([&] { load_policy("bot:equity", "", leduc); });
  EXPECT_NE(equity.find("unknown policy 'equity'"), std::string::npos) << equity;
}

}  // namespace
}  // namespace hulhe
