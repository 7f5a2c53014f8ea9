#include "game/betting_tree.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>

#include "game/game_size.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

GameDefinition load(const std::string& name) {
  return GameDefinition::from_file(std::string(HULHE_SOURCE_DIR) + "/configs/games/" + name +
                                   ".game");
}

// An independent enumeration of the betting strings of a 2-player limit game, by the
// textbook rules: a round ends on a call that is not its first action; `maxRaises` raises
// a round; fold only when facing a raise (or the big blind preflop).
struct Reference {
  std::vector<std::set<std::string>> decision_strings;  // per round
  std::vector<std::int64_t> entering;
  std::vector<std::int64_t> terminals;
  explicit Reference(const GameDefinition& g)
      : decision_strings(g.num_rounds), entering(g.num_rounds), terminals(g.num_rounds) {
    entering[0] = 1;
    walk(g, 0, "", "", g.blind[0] != g.blind[1]);
  }
  void walk(const GameDefinition& g, int round, const std::string& before,
            const std::string& in_round, bool facing) {
    decision_strings[round].insert(before + in_round);
    int raises = 0;
    for (char c : in_round) raises += c == 'r';
    if (facing) ++terminals[round];  // fold
    // call
    if (in_round.empty()) {
      walk(g, round, before, "c", false);
    } else if (round + 1 < g.num_rounds) {
      ++entering[round + 1];
      walk(g, round + 1, before + in_round + "c/", "", false);
    } else {
      ++terminals[round];  // showdown
    }
    if (raises < g.max_raises[round]) walk(g, round, before, in_round + "r", true);
  }
};

TEST(BettingTree, HulheSequencesEnteringEachRound) {
  const BettingTree t(load("holdem.limit.2p.reverse_blinds"));
  const std::int64_t entering[4] = {1, 7, 63, 567};
  for (int r = 0; r < 4; ++r) EXPECT_EQ(t.sequences_entering_round(r), entering[r]) << r;
}

TEST(BettingTree, AgreesWithIndependentEnumeration) {
  for (const char* name : {"holdem.limit.2p.reverse_blinds", "kuhn", "leduc"}) {
    const GameDefinition g = load(name);
    const BettingTree t(g);
    const Reference ref(g);
    for (int r = 0; r < g.num_rounds; ++r) {
      ASSERT_EQ(t.num_decision_nodes(r), static_cast<std::int32_t>(ref.decision_strings[r].size()))
          << name << " round " << r;
      EXPECT_EQ(t.sequences_entering_round(r), ref.entering[r]) << name << " round " << r;
      EXPECT_EQ(t.num_terminal_nodes(r), ref.terminals[r]) << name << " round " << r;
      std::set<std::string> seen;
      for (std::int32_t id = 0; id < t.num_decision_nodes(r); ++id) {
        const BettingNode& n = t.node(t.decision_node(r, id));
        EXPECT_EQ(n.id_in_round, id);
        EXPECT_EQ(n.round, r);
        seen.insert(t.betting_string(t.decision_node(r, id)));
      }
      EXPECT_EQ(seen, ref.decision_strings[r]) << name << " round " << r;
    }
  }
}

TEST(BettingTree, KuhnAndLeducShapes) {
  const BettingTree kuhn(load("kuhn"));
  // Kuhn: "", c, r, cr; terminals cc, rf, rc, crf, crc.
  EXPECT_EQ(kuhn.num_decision_nodes(0), 4);
  EXPECT_EQ(kuhn.num_fold_nodes(0), 2);
  EXPECT_EQ(kuhn.num_showdown_nodes(0), 3);
  const BettingTree leduc(load("leduc"));
  EXPECT_EQ(leduc.num_decision_nodes(0), 6);
  EXPECT_EQ(leduc.sequences_entering_round(1), 5);
  EXPECT_EQ(leduc.num_decision_nodes(1), 30);
  // open_spiel's Leduc has 936 information states: 6 * 6 cards + 30 * (6 * 5) views.
  EXPECT_EQ(6 * 6 + 30 * 30, 936);
}

TEST(BettingTree, CommittedChipsAndTerminals) {
  const GameDefinition g = load("holdem.limit.2p.reverse_blinds");
  const BettingTree t(g);
  const BettingNode& root = t.node(t.root());
  EXPECT_EQ(root.player, 1);  // the button acts first preflop
  EXPECT_EQ(root.committed[0], 10);
  EXPECT_EQ(root.committed[1], 5);
  EXPECT_EQ(root.num_actions, 3);
  // Follow "rrrc/rrrrc/rrrrc/rrrrc": the largest pot, 240 each.
  std::int32_t i = t.root();
  for (char c : std::string("rrrcrrrrcrrrrcrrrrc")) {
    const BettingNode& n = t.node(i);
    int slot = -1;
    for (int k = 0; k < n.num_actions; ++k)
      if (action_char(n.actions[k]) == c) slot = k;
    ASSERT_GE(slot, 0) << t.betting_string(i);
    i = n.child[slot];
  }
  EXPECT_EQ(t.node(i).kind, NodeKind::kShowdown);
  EXPECT_EQ(t.node(i).committed[0], 240);
  EXPECT_EQ(t.node(i).committed[1], 240);
  EXPECT_EQ(t.betting_string(i), "rrrc/rrrrc/rrrrc/rrrrc");
  // Every node's children point back to it; fold nodes record the folder.
  for (std::int32_t k = 0; k < static_cast<std::int32_t>(t.nodes().size()); ++k) {
    const BettingNode& n = t.node(k);
    for (int s = 0; s < n.num_actions; ++s) {
      EXPECT_EQ(t.node(n.child[s]).parent, k);
      if (n.actions[s] == Action::kFold) {
        EXPECT_EQ(t.node(n.child[s]).kind, NodeKind::kFold);
        EXPECT_EQ(t.node(n.child[s]).player, n.player);
      }
    }
  }
}

TEST(BettingTree, HulheInformationSets) {
  const BettingTree t(load("holdem.limit.2p.reverse_blinds"));
  // Information sets of the real game: decision nodes of a round times the private views of
  // the player to act: C(52,2) hole cards, then C(50,3) flops, then 47 turns, then 46
  // rivers (the flop is a set, but which card came on the turn is seen).
  const std::int64_t decisions[4] = {8, 70, 630, 5670};
  for (int r = 0; r < 4; ++r) EXPECT_EQ(t.num_decision_nodes(r), decisions[r]) << r;
  const std::int64_t views[4] = {1326, 1326LL * 19600, 1326LL * 19600 * 47,
                                 1326LL * 19600 * 47 * 46};
  std::int64_t total = 0;
  for (int r = 0; r < 4; ++r) total += t.num_decision_nodes(r) * views[r];
  EXPECT_EQ(total, 319365922522608LL);
}

TEST(GameSize, InformationSetsAndCanonicalHands) {
  const GameDefinition hulhe = load("holdem.limit.2p.reverse_blinds");
  EXPECT_EQ(information_sets(BettingTree(hulhe)), 319365922522608ULL);
  EXPECT_EQ(private_views(hulhe, 3), 1326ULL * 19600 * 47 * 46);
  EXPECT_EQ(canonical_hands(hulhe, 0), 169U);
  EXPECT_EQ(canonical_hands(hulhe, 1), 1286792U);
  // Kuhn: 4 decision nodes x 3 cards; Leduc: open_spiel's 936 information states.
  EXPECT_EQ(information_sets(BettingTree(load("kuhn"))), 12U);
  EXPECT_EQ(information_sets(BettingTree(load("leduc"))), 936U);
  EXPECT_EQ(canonical_hands(load("kuhn"), 0), 3U);
  // Leduc with the board: 3 pairs (the other suit), and 3 x 2 unpaired rank pairs in the
  // same or the other suit: 3 + 12 = 15.
  const GameDefinition leduc = load("leduc");
  EXPECT_EQ(canonical_hands(leduc, 0), 3U);
  EXPECT_EQ(canonical_hands(leduc, 1), 15U);
}

TEST(BettingTree, RejectsOtherGames) {
  EXPECT_THROW(BettingTree(load("holdem.nolimit.2p.reverse_blinds")), InputError);
  EXPECT_THROW(BettingTree(load("holdem.limit.3p")), InputError);
}

}  // namespace
}  // namespace hulhe
