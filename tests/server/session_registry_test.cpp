// The session registry of `hulhe serve`: ids from the OS's entropy, idle expiry, the bound on
// live sessions with the least recently used evicted first, every removed session handed to
// the removal callback.
#include "server/session_registry.h"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <vector>

namespace hulhe::server {
namespace {

struct Dummy {
  int value = 0;
};

std::unique_ptr<Dummy> dummy(int v) {
  return std::make_unique<Dummy>(Dummy{v});
}

TEST(SessionRegistry, IdsAreUnguessableAndDifferInEveryRegistry) {
  // Two registries built alike (as two starts of one server with the same --seed) give
  // different ids: they come from the OS, not from a seed.
  SessionRegistry<Dummy> a(10, 60), b(10, 60);
  std::set<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    const std::string ia = a.add(dummy(i), 0), ib = b.add(dummy(i), 0);
    EXPECT_NE(ia, ib);
    EXPECT_EQ(ia.size(), 32u);
    EXPECT_EQ(ia.find_first_not_of("0123456789abcdef"), std::string::npos) << ia;
    ids.insert(ia);
    ids.insert(ib);
  }
  EXPECT_EQ(ids.size(), 10u);
  EXPECT_EQ(a.size(0), 5u);
  // The 2,000 ids of 2,000 sessions are all distinct, and their hex digits are uniform
  // (chi-square over 16 digits, 15 degrees of freedom: 99.99% below 44.3).
  SessionRegistry<Dummy> many(3000, 60);
  std::set<std::string> seen;
  std::array<int, 16> digits{};
  for (int i = 0; i < 2000; ++i) {
    const std::string id = many.add(dummy(i), 0);
    EXPECT_TRUE(seen.insert(id).second) << id;
    for (char c : id) ++digits[static_cast<std::size_t>(c <= '9' ? c - '0' : c - 'a' + 10)];
  }
  const double expected = 2000.0 * 32 / 16;
  double chi2 = 0;
  for (int d : digits) chi2 += (d - expected) * (d - expected) / expected;
  EXPECT_LT(chi2, 44.3);
}

TEST(SessionRegistry, EveryRemovedSessionGoesThroughTheCallback) {
  std::vector<int> removed;
  SessionRegistry<Dummy> r(2, 30, [&](const std::string&, SessionRegistry<Dummy>::Entry& e) {
    std::lock_guard lock(e.mutex);
    removed.push_back(e.session->value);
  });
  r.add(dummy(1), 0);
  const std::string b = r.add(dummy(2), 1);
  r.add(dummy(3), 2);  // full: evicts 1, the least recently used
  EXPECT_EQ(removed, std::vector<int>({1}));
  EXPECT_NE(r.find(b, 20), nullptr);
  EXPECT_EQ(r.size(40), 1u);  // 3 expired (idle 38 s); 2 was used at 20
  EXPECT_EQ(removed, std::vector<int>({1, 3}));
  r.clear();  // the server stops
  EXPECT_EQ(removed, std::vector<int>({1, 3, 2}));
  EXPECT_EQ(r.size(40), 0u);
}

TEST(SessionRegistry, IdleSessionsExpireAndUseKeepsThemAlive) {
  SessionRegistry<Dummy> r(10, 30);
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
  SessionRegistry<Dummy> r(3, 1000);
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
  SessionRegistry<Dummy> r(1, 1000);
  const std::string a = r.add(dummy(1), 0);
  auto held = r.find(a, 0);
  r.add(dummy(2), 1);  // evicts a
  EXPECT_EQ(r.find(a, 1), nullptr);
  EXPECT_EQ(held->session->value, 1);  // the request holding it still reads it
}

}  // namespace
}  // namespace hulhe::server
