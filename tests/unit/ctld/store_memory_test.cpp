// store_memory_test.cpp - the in-memory store the controller's part tests run on behaves as the
// LMDB one does: readers see committed transactions only, an aborted one leaves nothing, keys
// scan in byte order, and del and clear take effect at commit.
#include <gtest/gtest.h>

#include "state/store.hpp"

namespace drover::state {
namespace {

std::string text(Bytes b) {
    return {b.begin(), b.end()};
}

std::vector<std::string> keys(const Store &s, Table t, std::string_view from = {}) {
    std::vector<std::string> out;
    s.scan_from(t, as_bytes(from), [&](Bytes k, Bytes) {
        out.push_back(text(k));
        return true;
    });
    return out;
}

TEST(StoreInMemory, ReadersSeeOnlyCommittedChanges) {
    Store s{Store::InMemory{}};
    auto t = s.begin();
    t.put(Table::Jobs, as_bytes("b"), as_bytes("2"));
    t.put(Table::Jobs, as_bytes("a"), as_bytes("1"));
    EXPECT_FALSE(s.get(Table::Jobs, as_bytes("a")).has_value());
    t.commit();
    ASSERT_TRUE(s.get(Table::Jobs, as_bytes("a")).has_value());
    EXPECT_EQ(text(*s.get(Table::Jobs, as_bytes("a"))), "1");
    EXPECT_EQ(keys(s, Table::Jobs), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(keys(s, Table::Jobs, "b"), std::vector<std::string>{"b"});
    EXPECT_TRUE(keys(s, Table::Steps).empty()); // tables are apart
}

TEST(StoreInMemory, AbortedTransactionLeavesNothing) {
    Store s{Store::InMemory{}};
    {
        auto t = s.begin();
        t.put(Table::Meta, as_bytes("k"), as_bytes("v"));
    } // destroyed uncommitted
    EXPECT_FALSE(s.get(Table::Meta, as_bytes("k")).has_value());
}

TEST(StoreInMemory, DeleteAndClearTakeEffectAtCommit) {
    Store s{Store::InMemory{}};
    auto t = s.begin();
    for (const char *k : {"x", "y", "z"}) t.put(Table::Nodes, as_bytes(k), as_bytes(k));
    t.commit();
    auto d = s.begin();
    d.del(Table::Nodes, as_bytes("y"));
    d.del(Table::Nodes, as_bytes("absent")); // as LMDB: deleting nothing is no error
    EXPECT_EQ(keys(s, Table::Nodes).size(), 3u);
    d.commit();
    EXPECT_EQ(keys(s, Table::Nodes), (std::vector<std::string>{"x", "z"}));
    auto c = s.begin();
    c.clear(Table::Nodes);
    c.put(Table::Nodes, as_bytes("after"), as_bytes("1"));
    c.commit();
    EXPECT_EQ(keys(s, Table::Nodes), std::vector<std::string>{"after"});
}

TEST(StoreInMemory, ChangesAreRecordedForReplication) {
    Store s{Store::InMemory{}};
    std::vector<Change> log;
    auto t = s.begin();
    t.record_into(&log);
    t.put(Table::Jobs, as_bytes("a"), as_bytes("1"));
    t.del(Table::Jobs, as_bytes("a"));
    t.commit();
    ASSERT_EQ(log.size(), 2u);
    EXPECT_EQ(log[0].kind, Change::Put);
    EXPECT_EQ(log[1].kind, Change::Del);
    EXPECT_FALSE(s.get(Table::Jobs, as_bytes("a")).has_value());
}

} // namespace
} // namespace drover::state
