// The SQLite store of `hulhe serve`: hands and lifetime results by player and game, the
// 95% interval, persistence across a reopen, and the files it refuses.
#include "server/play_store.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "tests/support/temp_folder.h"
#include "util/input_error.h"

namespace hulhe::server {
namespace {

StoredHand hand(const std::string& player, const std::string& game, std::int64_t chips,
                std::int32_t big_blind, std::int64_t number) {
  StoredHand h;
  h.player = player;
  h.session = "00000000000000ab";
  h.hand_number = number;
  h.game = game;
  h.opponent = "bot";
  h.position = static_cast<int>(number % 2);
  h.result_chips = chips;
  h.big_blind = big_blind;
  h.log_line = "STATE:" + std::to_string(number) + ":cc:9s8h|KdAc:" + std::to_string(chips) + "|" +
               std::to_string(-chips) + ":Alice|Bot";
  return h;
}

TEST(PlayStore, LifetimeResultsPerGameWithTheirInterval) {
  testing::TempFolder dir;
  PlayStore store(dir / "play.sqlite");
  const std::vector<std::int64_t> results = {10, -20, 30, 5, -5};
  for (std::size_t i = 0; i < results.size(); ++i)
    store.record_hand(hand("alice", "holdem", results[i], 10, static_cast<std::int64_t>(i)));
  store.record_hand(hand("alice", "leduc", 2, 2, 0));
  store.record_hand(hand("bob", "holdem", -7, 10, 0));
  EXPECT_EQ(store.hand_count(), 7);

  const PlayerProfile p = store.profile("alice");
  ASSERT_TRUE(p.known);
  ASSERT_EQ(p.results.size(), 2u);
  const LifetimeResult& h = p.results[0];
  EXPECT_EQ(h.game, "holdem");
  EXPECT_EQ(h.hands, 5);
  EXPECT_EQ(h.chips, 20);
  // mbb: 1000, -2000, 3000, 500, -500: mean 400; squared deviations sum to 13,700,000, so
  // the sample variance is 3,425,000.
  EXPECT_NEAR(h.mbb_per_game, 400.0, 1e-9);
  EXPECT_NEAR(h.ci95_mbb, 1.96 * std::sqrt(3'425'000.0 / 5), 1e-6);
  EXPECT_EQ(p.results[1].game, "leduc");
  EXPECT_NEAR(p.results[1].mbb_per_game, 1000.0, 1e-9);
  EXPECT_EQ(p.results[1].ci95_mbb, 0.0);  // one hand: no interval
  EXPECT_FALSE(store.profile("carol").known);
}

TEST(PlayStore, AReopenedStoreHasEveryHandAndPlayer) {
  testing::TempFolder dir;
  {
    PlayStore store(dir / "play.sqlite");
    store.ensure_player("dave");
    for (int i = 0; i < 20; ++i) store.record_hand(hand("erin", "holdem", i, 10, i));
  }
  PlayStore again(dir / "play.sqlite");
  EXPECT_EQ(again.hand_count(), 20);
  EXPECT_TRUE(again.profile("dave").known);
  EXPECT_TRUE(again.profile("dave").results.empty());
  ASSERT_EQ(again.profile("erin").results.size(), 1u);
  EXPECT_EQ(again.profile("erin").results[0].chips, 190);
}

TEST(PlayStore, RefusesAFileThatIsNotItsDatabase) {
  testing::TempFolder dir;
  std::ofstream(dir / "text.sqlite") << "this is not an SQLite database, just text\n";
  try {
    PlayStore store(dir / "text.sqlite");
    FAIL() << "a text file was taken for the database";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("text.sqlite"), std::string::npos) << e.what();
  }
  EXPECT_THROW(PlayStore(dir.path()), InputError);                     // a folder
  EXPECT_THROW(PlayStore(dir / "missing/folder.sqlite"), InputError);  // no such folder
}

}  // namespace
}  // namespace hulhe::server
