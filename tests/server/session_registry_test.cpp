// The session registry of `hulhe serve`: ids from the seed, idle expiry, the bound on live
// sessions with the least recently used evicted first.
#include "server/session_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace hulhe::server {
namespace {

struct Dummy {
  int value = 0;
};

std::unique_ptr<Dummy> dummy(int v) {
  return std::make_unique<Dummy>(Dummy{v});
}

TEST(SessionRegistry, IdsComeFromTheSeed) {
  SessionRegistry<Dummy> a(10, 60, 7), b(10, 60, 7), c(10, 60, 8);
  std::set<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    const std::string ia = a.add(dummy(i), 0), ib = b.add(dummy(i), 0), ic = c.add(dummy(i), 0);
    EXPECT_EQ(ia, ib);
    EXPECT_NE(ia, ic);
    EXPECT_EQ(ia.size(), 16u);
    EXPECT_EQ(ia.find_first_not_of("0123456789abcdef"), std::string::npos) << ia;
    ids.insert(ia);
  }
  EXPECT_EQ(ids.size(), 5u);
  EXPECT_EQ(a.size(0), 5u);
}

TEST(SessionRegistry, IdleSessionsExpireAndUseKeepsThemAlive) {
  SessionRegistry<Dummy> r(10, 30, 1);
  const std::string old_id = r.add(dummy(1), 0);
  const std::string used_id = r.add(dummy(2), 0);
  ASSERT_NE(r.find(used_id, 20), nullptr);  // used at 20
  EXPECT_EQ(r.find(used_id, 20)->session->value, 2);
  EXPECT_NE(r.find(old_id, 30), nullptr);    // exactly 30 s idle: not yet expired; used at 30
  EXPECT_NE(r.find(used_id, 49), nullptr);   // 29 s after its last use
  EXPECT_EQ(r.find(old_id, 60.5), nullptr);  // 30.5 s after its last use
  EXPECT_EQ(r.size(79), 1u);                 // used_id: 30 s since 49
  EXPECT_EQ(r.size(79.5), 0u);
}

TEST(SessionRegistry, AFullRegistryEvictsTheLeastRecentlyUsed) {
  SessionRegistry<Dummy> r(3, 1000, 5);
  const std::string a = r.add(dummy(1), 1), b = r.add(dummy(2), 2), c = r.add(dummy(3), 3);
  ASSERT_NE(r.find(a, 4), nullptr);  // a is now the most recent; b the least
  const std::string d = r.add(dummy(4), 5);
  EXPECT_EQ(r.size(5), 3u);
  EXPECT_EQ(r.find(b, 6), nullptr);
  EXPECT_NE(r.find(a, 6), nullptr);
  EXPECT_NE(r.find(c, 6), nullptr);
  EXPECT_EQ(r.find(d, 6)->session->value, 4);
  // Hundreds more: never more than the bound.
  for (int i = 0; i < 500; ++i) r.add(dummy(i), 10 + i);
  EXPECT_EQ(r.size(600), 3u);
}

TEST(SessionRegistry, AnEntryInUseOutlivesItsRemoval) {
  SessionRegistry<Dummy> r(1, 1000, 5);
  const std::string a = r.add(dummy(1), 0);
  auto held = r.find(a, 0);
  r.add(dummy(2), 1);  // evicts a
  EXPECT_EQ(r.find(a, 1), nullptr);
  EXPECT_EQ(held->session->value, 1);  // the request holding it still reads it
}

}  // namespace
}  // namespace hulhe::server
